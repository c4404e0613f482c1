// The OpenAI wire's whole chat completion: completion_body writes its JSON as text (for
// speed, bench/README.md "Live mode"); it must be byte for byte what the ordered_json tree
// it replaced dumped, which is built here as the reference.
#include "live/openai_wire.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace squall::live {
namespace {

using Json = nlohmann::ordered_json;

std::string tree_body(const CompletionIds& ids, const Response& response) {
  std::string content;
  for (std::int64_t i = 0; i < response.output_tokens; ++i) content += token_text(i);
  const Json body{
      {"id", ids.id},
      {"object", "chat.completion"},
      {"created", ids.created},
      {"model", ids.model},
      {"choices", Json::array({Json{{"index", 0},
                                    {"message", {{"role", "assistant"}, {"content", content}, {"refusal", nullptr}}},
                                    {"logprobs", nullptr},
                                    {"finish_reason", response.truncated ? "length" : "stop"}}})},
      {"usage", Json{{"prompt_tokens", response.input_tokens},
                     {"completion_tokens", response.output_tokens},
                     {"total_tokens", response.input_tokens + response.output_tokens}}},
      {"system_fingerprint", nullptr}};
  return body.dump();
}

Response answer(std::int64_t input, std::int64_t output, bool truncated) {
  Response response;
  response.body = Body::completion;
  response.input_tokens = input;
  response.output_tokens = output;
  response.truncated = truncated;
  return response;
}

TEST(OpenAiWireTest, CompletionBodyIsTheTreesDumpByteForByte) {
  const CompletionIds plain{"chatcmpl-squall0123456789abcdef", 1'796'500'828, "gpt-4o-mini"};
  for (const Response& response :
       {answer(13, 6, false), answer(9, 0, false), answer(100, 50, true), answer(3'000'000'000, 17, false)}) {
    EXPECT_EQ(completion_body(plain, response), tree_body(plain, response));
  }
  // A model name is the client's text: quotes, backslashes, every ASCII byte (NUL and the
  // other control characters included), UTF-8.
  CompletionIds odd{"chatcmpl-x", -1, "a \"quoted\" \\ model caf\xc3\xa9 \xe2\x9c\x93 "};
  for (int c = 0; c < 0x80; ++c) odd.model += static_cast<char>(c);
  EXPECT_EQ(completion_body(odd, answer(1, 3, false)), tree_body(odd, answer(1, 3, false)));
  EXPECT_EQ(completion_body(odd, answer(1, 3, false)).find('\n'), std::string::npos);
}

TEST(OpenAiWireTest, MaskedErrorBodyIsSentAsTheScenarioGaveIt) {
  ErrorDetails details;
  details.body_error = R"({"error": {"message": "masked"}})";
  Response response = answer(5, 0, false);
  response.error_details = &details;
  EXPECT_EQ(completion_body(CompletionIds{"chatcmpl-x", 0, "m"}, response), details.body_error);
}

Response failed(int status, const ErrorDetails& details) {
  static ErrorDetailsStore store;  // the details outlive the response, as a provider's do
  Response response;
  response.status = status;
  response.error_details = store.keep(details);
  return response;
}

nlohmann::json error_of(const WireError& error) { return nlohmann::json::parse(error.body)["error"]; }

TEST(OpenAiWireTest, AQuotaFaultIsOpenAisInsufficientQuotaError) {
  const WireError quota = provider_error(failed(429, {.error_code = "insufficient_quota"}), "gpt-4o");
  EXPECT_EQ(quota.status, 429);
  EXPECT_EQ(quota.body,
            R"({"error":{"message":"You exceeded your current quota, please check your plan and billing details. )"
            R"(For more information on this error, read the docs: )"
            R"(https://platform.openai.com/docs/guides/error-codes/api-errors.","type":"insufficient_quota",)"
            R"("param":null,"code":"insufficient_quota"}})");
  // Another code on a 429 keeps the rate limit's type and wording, with the fault's code.
  const auto other = error_of(provider_error(failed(429, {.error_code = "tokens_per_day"}), "gpt-4o"));
  EXPECT_EQ(other["type"], "requests");
  EXPECT_EQ(other["code"], "tokens_per_day");
}

TEST(OpenAiWireTest, AFaultsCodeAndMessageReplaceTheStatussOwn) {
  const auto said =
      error_of(provider_error(failed(502, {.error_code = "upstream", .error_message = "Bad gateway."}), "m"));
  EXPECT_EQ(said["message"], "Bad gateway.");
  EXPECT_EQ(said["code"], "upstream");
  EXPECT_EQ(said["type"], "server_error");
  // Without them a 5xx is OpenAI's: no code; a cut stream's squall-only code is not sent.
  for (const std::string_view code : {"", "stream_error"}) {
    const auto plain = error_of(provider_error(failed(500, {.error_code = code}), "m"));
    EXPECT_TRUE(plain["code"].is_null()) << code;
    EXPECT_EQ(plain["message"], "The server had an error while processing your request. Sorry about that!");
  }
}

}  // namespace
}  // namespace squall::live

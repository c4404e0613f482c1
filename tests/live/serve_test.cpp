// `squall serve` as a process, reached on 127.0.0.1 with a Beast client: the OpenAI wire
// shapes, streaming, limits, stop and exit codes (docs/live.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "serve_process.hpp"

namespace squall::live::testing {
namespace {

using nlohmann::json;

std::string scenario(const std::string& name) {
  return std::string(SQUALL_SOURCE_DIR) + "/tests/live/scenarios/" + name;
}

const std::string kChat = R"({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hello there"}]})";

TEST(ServeTest, ChatCompletionHasTheApiShape) {
  ServeProcess server({scenario("clean.json")});
  ASSERT_TRUE(server.started());
  const auto response = send(server.port(), http::verb::post, "/v1/chat/completions", kChat);
  ASSERT_EQ(response.result_int(), 200);
  EXPECT_EQ(response[http::field::content_type], "application/json");
  EXPECT_EQ(response["x-request-id"].substr(0, 4), "req_");
  const json body = json::parse(response.body());
  EXPECT_EQ(body["object"], "chat.completion");
  EXPECT_EQ(body["model"], "gpt-4o-mini");
  EXPECT_EQ(body["choices"][0]["message"]["role"], "assistant");
  EXPECT_EQ(body["choices"][0]["finish_reason"], "stop");
  // "Hello there" is 11 bytes, 3 tokens; plus 3 for the message and 3 for the reply.
  EXPECT_EQ(body["usage"]["prompt_tokens"], 9);
  const std::int64_t completion = body["usage"]["completion_tokens"];
  EXPECT_EQ(body["choices"][0]["message"]["content"].get<std::string>().size(), 4 * completion);
  EXPECT_EQ(body["usage"]["total_tokens"], 9 + completion);
  EXPECT_EQ(stop(server), 0);
  EXPECT_NE(server.output().find("fault decisions: 0, fingerprint "), std::string::npos) << server.output();
}

TEST(ServeTest, StreamSendsTheUsageChunkBeforeDone) {
  ServeProcess server({scenario("clean.json")});
  ASSERT_TRUE(server.started());
  const std::string request = R"({"model": "gpt-4o-mini", "stream": true, "stream_options": {"include_usage": true},
                                  "messages": [{"role": "user", "content": "Hello there"}]})";
  const auto response = send(server.port(), http::verb::post, "/v1/chat/completions", request);
  ASSERT_EQ(response.result_int(), 200);
  EXPECT_EQ(response[http::field::content_type], "text/event-stream; charset=utf-8");
  std::vector<json> chunks;
  const std::string& text = response.body();
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find("\n\n", at);
    ASSERT_NE(end, std::string::npos);
    const std::string event = text.substr(at, end - at);
    ASSERT_EQ(event.substr(0, 6), "data: ");
    if (event == "data: [DONE]") {
      EXPECT_EQ(end + 2, text.size());  // the last event
      break;
    }
    chunks.push_back(json::parse(event.substr(6)));
    at = end + 2;
  }
  ASSERT_GE(chunks.size(), 3u);
  EXPECT_EQ(chunks.front()["choices"][0]["delta"]["role"], "assistant");
  const json& usage = chunks.back();
  EXPECT_TRUE(usage["choices"].empty());
  const std::int64_t completion = usage["usage"]["completion_tokens"];
  EXPECT_EQ(chunks.size(), static_cast<std::size_t>(completion) + 3);  // role, tokens, finish, usage
  EXPECT_EQ(chunks[chunks.size() - 2]["choices"][0]["finish_reason"], "stop");
  for (std::size_t i = 0; i + 1 < chunks.size(); ++i) {
    EXPECT_TRUE(chunks[i]["usage"].is_null()) << i;
    EXPECT_EQ(chunks[i]["object"], "chat.completion.chunk");
  }
  EXPECT_EQ(stop(server), 0);
}

TEST(ServeTest, UnknownModelInvalidJsonAndUnknownPathGetTheApiErrors) {
  ServeProcess server({scenario("clean.json")});
  ASSERT_TRUE(server.started());
  const auto unknown = send(server.port(), http::verb::post, "/v1/chat/completions",
                            R"({"model": "gpt-nope", "messages": [{"role": "user", "content": "hi"}]})");
  EXPECT_EQ(unknown.result_int(), 404);
  EXPECT_EQ(unknown.body(),
            R"({"error":{"message":"The model `gpt-nope` does not exist or you do not have access to it.",)"
            R"("type":"invalid_request_error","param":null,"code":"model_not_found"}})");
  const auto invalid = send(server.port(), http::verb::post, "/v1/chat/completions", "{not json");
  EXPECT_EQ(invalid.result_int(), 400);
  EXPECT_EQ(json::parse(invalid.body())["error"]["message"],
            "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP "
            "library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you "
            "have trouble figuring out how to fix this, please contact us through our help center at "
            "help.openai.com.)");
  const auto no_messages = send(server.port(), http::verb::post, "/v1/chat/completions", R"({"model": "gpt-4o-mini"})");
  EXPECT_EQ(no_messages.body(),
            R"({"error":{"message":"Missing required parameter: 'messages'.","type":"invalid_request_error",)"
            R"("param":"messages","code":"missing_required_parameter"}})");
  const auto path = send(server.port(), http::verb::get, "/v1/nothing");
  EXPECT_EQ(path.result_int(), 404);
  EXPECT_EQ(json::parse(path.body())["error"]["message"], "Invalid URL (GET /v1/nothing)");
  const auto models = send(server.port(), http::verb::get, "/v1/models");
  EXPECT_EQ(json::parse(models.body())["data"][0]["id"], "gpt-4o-mini");
  // Invalid requests reach no provider: no calls, and the threshold (<= 5 calls) holds.
  EXPECT_EQ(stop(server), 0);
}

TEST(ServeTest, ContextLengthExceededHasTheWordingLiteLlmMatches) {
  ServeProcess server({scenario("clean.json")});
  ASSERT_TRUE(server.started());
  const std::string long_prompt(4000, 'a');  // 1000 tokens, over the 1000-token window with the overhead
  const auto response =
      send(server.port(), http::verb::post, "/v1/chat/completions",
           json{{"model", "gpt-4o-mini"}, {"messages", {{{"role", "user"}, {"content", long_prompt}}}}}.dump());
  EXPECT_EQ(response.result_int(), 400);
  const json error = json::parse(response.body())["error"];
  EXPECT_EQ(error["code"], "context_length_exceeded");
  EXPECT_EQ(error["param"], "messages");
  EXPECT_EQ(error["message"].get<std::string>().rfind("This model's maximum context length is 1000 tokens.", 0), 0u)
      << error["message"];
  EXPECT_EQ(stop(server), 0);
}

TEST(ServeTest, RetryAfterIsScaledToRealTime) {
  // 2 s of scenario time at --time-scale 2 is 1 s of real time.
  ServeProcess server({scenario("rate_limited.json"), "--time-scale", "2"});
  ASSERT_TRUE(server.started());
  const auto response = send(server.port(), http::verb::post, "/v1/chat/completions", kChat);
  EXPECT_EQ(response.result_int(), 429);
  EXPECT_EQ(response["retry-after-ms"], "1000");
  EXPECT_EQ(response[http::field::retry_after], "1");
  const json error = json::parse(response.body())["error"];
  EXPECT_EQ(error["code"], "rate_limit_exceeded");
  EXPECT_EQ(error["type"], "requests");
  EXPECT_EQ(stop(server), 0);
  EXPECT_NE(server.output().find("fault decisions: 1, fingerprint "), std::string::npos) << server.output();
}

TEST(ServeTest, OversizedBodiesAndHeadersAreRefused) {
  ServeProcess server({scenario("clean.json")});
  ASSERT_TRUE(server.started());
  const std::string big(5 * 1024 * 1024, ' ');
  const std::string body_reply = send_raw(
      server.port(), "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(big.size()) +
                         "\r\n\r\n" + big);
  EXPECT_EQ(body_reply.substr(0, 12), "HTTP/1.1 413");
  EXPECT_NE(body_reply.find("The request body is larger than the server's limit of 4194304 bytes."), std::string::npos);
  std::string many = "GET /v1/models HTTP/1.1\r\nHost: x\r\n";
  for (int i = 0; i < 101; ++i) many += "x-h" + std::to_string(i) + ": 1\r\n";
  const std::string headers_reply = send_raw(server.port(), many + "\r\n");
  EXPECT_EQ(headers_reply.substr(0, 12), "HTTP/1.1 431");
  EXPECT_NE(headers_reply.find("The request has more than the server's limit of 100 header fields."),
            std::string::npos);
  const std::string garbage = send_raw(server.port(), "NOT HTTP AT ALL\r\n\r\n");
  EXPECT_EQ(garbage.substr(0, 12), "HTTP/1.1 400");
  // The server is still up.
  EXPECT_EQ(send(server.port(), http::verb::get, "/v1/models").result_int(), 200);
  EXPECT_EQ(stop(server), 0);
}

TEST(ServeTest, AFailedThresholdExitsOne) {
  ServeProcess server({scenario("clean.json"), "-q"});
  ASSERT_TRUE(server.started());
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(send(server.port(), http::verb::post, "/v1/chat/completions", kChat).result_int(), 200);
  }
  EXPECT_EQ(stop(server), 1);
  EXPECT_NE(server.output().find("threshold failed: provider_calls{provider:llm}: count<=5 (observed 6)"),
            std::string::npos)
      << server.output();
}

TEST(ServeTest, DurationEndsTheRun) {
  ServeProcess server({scenario("clean.json"), "--duration", "200ms"});
  ASSERT_TRUE(server.started());
  EXPECT_EQ(server.wait(), 0);
}

TEST(ServeTest, AnInvalidListenAddressIsAUsageError) {
  ServeProcess server({scenario("clean.json"), "--listen", "localhost"});
  EXPECT_FALSE(server.started());
  EXPECT_EQ(server.wait(), 2);
}

}  // namespace
}  // namespace squall::live::testing

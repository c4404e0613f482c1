// `squall serve`'s embeddings, web-search and vector-search endpoints reached with a Beast
// client (tests/live/scenarios/retrieval.json): exact bodies and headers, the scripted
// fault windows, the provider routing by /p/{provider}/, every invalid body's exact error,
// and the report's per-provider counts.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "serve_process.hpp"

namespace squall::live::testing {
namespace {

using nlohmann::json;

std::string scenario() { return std::string(SQUALL_SOURCE_DIR) + "/tests/live/scenarios/retrieval.json"; }

const std::string kServerError =
    R"({"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}})";
const std::string kResetDocument =
    R"({"title":"Reset your password","link":"https://help.example/reset-password","snippet":"Choose Forgot password on the sign-in page and follow the link we email you."})";

http::response<http::string_body> post(ServeProcess& server, const std::string& target, const std::string& body) {
  return send(server.port(), http::verb::post, target, body);
}

json provider_calls(const std::string& report_path, const std::string& provider) {
  std::ifstream in(report_path);
  return json::parse(in)["providers"][provider];
}

// The little-endian float32 values of a base64 string.
std::vector<float> decode_floats(const std::string& text) {
  static const std::string kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string bytes;
  std::uint32_t group = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    group = (group << 6) | static_cast<std::uint32_t>(kAlphabet.find(c));
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes += static_cast<char>((group >> bits) & 0xFF);
    }
  }
  std::vector<float> out(bytes.size() / 4);
  std::memcpy(out.data(), bytes.data(), out.size() * 4);
  return out;
}

TEST(RetrievalServeTest, WebSearchAnswersTheCorpusThroughItsFaultWindow) {
  const std::string report = temp_path("retrieval_web_report.json");
  ServeProcess server({scenario(), "--out", report});
  ASSERT_TRUE(server.started());
  const std::string query = R"({"query": "password", "max_results": 1})";
  const std::string hits = R"({"object":"search.results","query":"password","results":[)" + kResetDocument + "]}";
  auto first = post(server, "/p/web/search", query);
  EXPECT_EQ(first.result_int(), 200);
  EXPECT_EQ(first[http::field::content_type], "application/json");
  EXPECT_EQ(std::string(first["x-request-id"]).substr(0, 4), "req_");
  EXPECT_EQ(first["x-ratelimit-limit-requests"], "600");  // the provider's capacity block
  EXPECT_EQ(first["x-ratelimit-remaining-requests"], "599");
  EXPECT_EQ(first.body(), hits);
  for (int call = 2; call <= 3; ++call) {  // the scripted window: calls 2 and 3
    const auto failed = post(server, "/p/web/search", query);
    EXPECT_EQ(failed.result_int(), 500) << call;
    EXPECT_EQ(failed.body(), kServerError);
  }
  EXPECT_EQ(post(server, "/p/web/search", query).body(), hits);
  EXPECT_EQ(post(server, "/p/web/search", R"({"query": "zebra"})").body(),
            R"({"object":"search.results","query":"zebra","results":[]})");
  EXPECT_EQ(stop(server), 0);
  const json web = provider_calls(report, "web");
  EXPECT_EQ(web["calls"], 5);
  EXPECT_EQ(web["by_outcome"]["success"], 2);
  EXPECT_EQ(web["by_outcome"]["empty"], 1);
  EXPECT_EQ(web["by_outcome"]["server_error"], 2);
}

TEST(RetrievalServeTest, VectorQueryRanksMatchesAndRateLimitsWithRetryAfter) {
  ServeProcess server({scenario(), "--time-scale", "2"});
  ASSERT_TRUE(server.started());
  const auto dense = post(server, "/p/kb/query", R"({"query": "how do I reset my password"})");
  EXPECT_EQ(dense.result_int(), 200);
  EXPECT_EQ(dense.body(), R"({"object":"vector.matches","query":"how do I reset my password","mode":"dense",)"
                          R"("matches":[{"id":"https://help.example/reset-password","score":0.8475561786272537,)"
                          R"("metadata":)" +
                              kResetDocument + "}]}");
  const auto limited = post(server, "/p/kb/query", R"({"query": "export"})");
  EXPECT_EQ(limited.result_int(), 429);
  EXPECT_EQ(limited[http::field::retry_after], "1");  // 2 s of scenario time at --time-scale 2
  EXPECT_EQ(limited.body(),
            R"({"error":{"message":"Rate limit reached for kb on requests per min (RPM). Please try again in 2s. )"
            R"(Visit https://platform.openai.com/account/rate-limits to learn more.","type":"requests","param":null,)"
            R"("code":"rate_limit_exceeded"}})");
  const auto keyword =
      post(server, "/p/kb/query", R"({"query": "password reset link", "mode": "keyword", "top_k": 1})");
  EXPECT_EQ(keyword.body(), R"({"object":"vector.matches","query":"password reset link","mode":"keyword",)"
                            R"("matches":[{"id":"https://help.example/reset-password","score":3.117114109417474,)"
                            R"("metadata":)" +
                                kResetDocument + "}]}");
  EXPECT_EQ(post(server, "/p/kb/query", R"({"query": "password", "min_score": 0.99})").body(),
            R"({"object":"vector.matches","query":"password","mode":"dense","matches":[]})");
  EXPECT_EQ(stop(server), 0);
}

TEST(RetrievalServeTest, EmbeddingsAreDeterministicInFloatAndBase64) {
  const std::string report = temp_path("retrieval_embeddings_report.json");
  ServeProcess server({scenario(), "--out", report});
  ASSERT_TRUE(server.started());
  const auto floats = post(server, "/v1/embeddings",
                           R"({"model": "text-embedding-3-small", "input": ["Reset your password", [1, 2, 3]],
                               "dimensions": 4})");
  EXPECT_EQ(floats.result_int(), 200);
  EXPECT_EQ(
      floats.body(),
      R"({"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.66983294,0.28118333,)"
      R"(-0.5662571,0.3893747]},{"object":"embedding","index":1,"embedding":[0.16741271,-0.73060495,)"
      R"(0.45924267,0.47674477]}],"model":"text-embedding-3-small","usage":{"prompt_tokens":8,"total_tokens":8}})");
  const auto overloaded = post(server, "/v1/embeddings", R"({"model": "text-embedding-3-small", "input": "x"})");
  EXPECT_EQ(overloaded.result_int(), 503);
  EXPECT_EQ(
      overloaded.body(),
      R"({"error":{"message":"The server is overloaded or not ready yet.","type":"server_error","param":null,"code":null}})");
  const auto encoded = post(server, "/v1/embeddings",
                            R"({"model": "text-embedding-3-small", "input": "Reset your password", "dimensions": 4,
                                "encoding_format": "base64"})");
  EXPECT_EQ(encoded.body(), R"({"object":"list","data":[{"object":"embedding","index":0,"embedding":)"
                            R"("LHorP0P3jz469hC/H1zHPg=="}],"model":"text-embedding-3-small",)"
                            R"("usage":{"prompt_tokens":5,"total_tokens":5}})");
  const std::vector<float> decoded = decode_floats(json::parse(encoded.body())["data"][0]["embedding"]);
  const json listed = json::parse(floats.body())["data"][0]["embedding"];
  ASSERT_EQ(decoded.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(decoded[i], listed[i].get<float>()) << i;
  // The full vector: 1536 components of length 1.
  const json full = json::parse(post(server, "/v1/embeddings", R"({"model": "text-embedding-3-small",
                                                                    "input": "Reset your password"})")
                                    .body());
  double norm = 0;
  for (const json& x : full["data"][0]["embedding"]) norm += x.get<double>() * x.get<double>();
  EXPECT_EQ(full["data"][0]["embedding"].size(), 1536u);
  EXPECT_NEAR(norm, 1.0, 1e-5);
  EXPECT_EQ(stop(server), 0);
  const json embedder = provider_calls(report, "embedder");
  EXPECT_EQ(embedder["calls"], 4);
  EXPECT_EQ(embedder["by_outcome"]["success"], 3);
  EXPECT_EQ(embedder["by_outcome"]["overloaded"], 1);
  EXPECT_EQ(embedder["tokens"]["input"], 8 + 5 + 5);  // the 503 bills nothing
}

std::string invalid(const std::string& message, const std::string& param = "", const std::string& code = "") {
  return nlohmann::ordered_json{{"error",
                                 {{"message", message},
                                  {"type", "invalid_request_error"},
                                  {"param", param.empty() ? nullptr : nlohmann::ordered_json(param)},
                                  {"code", code.empty() ? nullptr : nlohmann::ordered_json(code)}}}}
      .dump();
}

TEST(RetrievalServeTest, RoutesByProviderPrefix) {
  ServeProcess server({scenario()});
  ASSERT_TRUE(server.started());
  const auto unknown = post(server, "/p/nope/search", R"({"query": "x"})");
  EXPECT_EQ(unknown.result_int(), 404);
  EXPECT_EQ(unknown.body(), invalid("The provider `nope` does not exist in this scenario.", "", "provider_not_found"));
  const auto wrong = post(server, "/p/kb/search", R"({"query": "x"})");
  EXPECT_EQ(wrong.result_int(), 400);
  EXPECT_EQ(wrong.body(), invalid("The provider `kb` is a vector_search provider: POST /p/kb/search serves web_search "
                                  "providers.",
                                  "", "wrong_provider_type"));
  EXPECT_EQ(post(server, "/p/embedder/query", R"({"query": "x"})").body(),
            invalid("The provider `embedder` is a llm provider: POST /p/embedder/query serves vector_search providers.",
                    "", "wrong_provider_type"));
  const auto action = post(server, "/p/kb/frob", "{}");
  EXPECT_EQ(action.result_int(), 404);
  EXPECT_EQ(action.body(), invalid("Invalid URL (POST /p/kb/frob)"));
  EXPECT_EQ(post(server, "/p/kb", "{}").body(), invalid("Invalid URL (POST /p/kb)"));
  const auto model = post(server, "/v1/embeddings", R"({"model": "text-embedding-3-large", "input": "x"})");
  EXPECT_EQ(model.result_int(), 404);
  EXPECT_EQ(model.body(), invalid("The model `text-embedding-3-large` does not exist or you do not have access to it.",
                                  "", "model_not_found"));
  EXPECT_EQ(stop(server), 0);
}

struct BadBody {
  std::string target;
  std::string body;
  std::string error;
};

TEST(RetrievalServeTest, InvalidBodiesGetTheExactError) {
  const std::string not_json = invalid(
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library "
      "correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble "
      "figuring out how to fix this, please contact us through our help center at help.openai.com.)");
  const std::string bad_input =
      invalid("'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.");
  const std::string e = "/v1/embeddings";
  const std::string m = R"("model": "text-embedding-3-small")";
  const std::vector<BadBody> cases{
      {e, "{not json", not_json},
      {e, R"({"input": "x"})", invalid("you must provide a model parameter")},
      {e, "{" + m + "}", invalid("Missing required parameter: 'input'.", "input", "missing_required_parameter")},
      {e, "{" + m + R"(, "input": ""})", bad_input},
      {e, "{" + m + R"(, "input": []})", bad_input},
      {e, "{" + m + R"(, "input": ["a", 3.5]})", bad_input},
      {e, "{" + m + R"(, "input": [[1, -2]]})", bad_input},
      {e, "{" + m + R"(, "input": {"text": "a"}})", bad_input},
      {e, "{" + m + R"(, "input": "a", "encoding_format": "int8"})",
       invalid("'int8' is not one of ['float', 'base64'] - 'encoding_format'")},
      {e, "{" + m + R"(, "input": "a", "dimensions": "4"})",
       invalid("Invalid type for 'dimensions': expected an integer, but got a string instead.", "dimensions",
               "invalid_type")},
      {e, "{" + m + R"(, "input": "a", "dimensions": 0})",
       invalid("Invalid value for 'dimensions' = 0. Must be between 1 and 1536.", "dimensions", "invalid_value")},
      {e, "{" + m + R"(, "input": ")" + std::string(32772, 'a') + "\"}",
       invalid("This model's maximum context length is 8192 tokens, however you requested 8193 tokens (8193 in your "
               "prompt; 0 for the completion). Please reduce your prompt; or completion length.")},
      {"/p/web/search", "[1]", not_json},
      {"/p/web/search", "{}", invalid("Missing required parameter: 'query'.", "query", "missing_required_parameter")},
      {"/p/web/search", R"({"query": 7})",
       invalid("Invalid type for 'query': expected a string, but got an integer instead.", "query", "invalid_type")},
      {"/p/web/search", R"({"query": ""})",
       invalid("Invalid 'query': empty string. Expected a string with minimum length 1, but got an empty string "
               "instead.",
               "query", "empty_string")},
      {"/p/web/search", R"({"query": "a", "max_results": 101})",
       invalid("Invalid value for 'max_results' = 101. Must be between 1 and 100.", "max_results", "invalid_value")},
      {"/p/kb/query", R"({"query": "a", "top_k": 1.5})",
       invalid("Invalid type for 'top_k': expected an integer, but got a number instead.", "top_k", "invalid_type")},
      {"/p/kb/query", R"({"query": "a", "min_score": 2})",
       invalid("Invalid value for 'min_score' = 2. Must be between 0 and 1.", "min_score", "invalid_value")},
      {"/p/kb/query", R"({"query": "a", "min_score": true})",
       invalid("Invalid type for 'min_score': expected a number, but got a boolean instead.", "min_score",
               "invalid_type")},
      {"/p/kb/query", R"({"query": "a", "mode": "hybrid"})",
       invalid("'hybrid' is not one of ['dense', 'keyword'] - 'mode'", "mode", "invalid_value")},
  };
  ServeProcess server({scenario()});
  ASSERT_TRUE(server.started());
  for (const BadBody& c : cases) {
    const auto response = post(server, c.target, c.body);
    EXPECT_EQ(response.result_int(), 400) << c.target << " " << c.body.substr(0, 80);
    EXPECT_EQ(response.body(), c.error) << c.target << " " << c.body.substr(0, 80);
  }
  EXPECT_EQ(stop(server), 0);
  EXPECT_NE(server.output().find("fault decisions: 0,"), std::string::npos) << server.output();
}

}  // namespace
}  // namespace squall::live::testing

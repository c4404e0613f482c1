// Hostile request bodies against `squall serve` (tests/live/scenarios/hostile.json): JSON
// nested 100,000 levels deep (which used to kill the server), known fields of the wrong
// JSON type, and bytes that are not UTF-8 in bodies, paths and headers. Each gets its
// API's own 400 (or 404) body; afterwards the server still answers a normal request and
// stops cleanly with its report (docs/live.md, "Limits").
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "serve_process.hpp"

namespace squall::live::testing {
namespace {

using nlohmann::json;

std::string scenario() { return std::string(SQUALL_SOURCE_DIR) + "/tests/live/scenarios/hostile.json"; }

const std::string kTooDeep = "The JSON body of the request is nested deeper than the server's limit of 512 levels.";
const std::vector<std::pair<std::string, std::string>> kMcpHeaders = {{"accept", "application/json"}};

// A normal request is still answered, then the server stops with exit 0 and its report.
void expect_still_serving_then_stop(ServeProcess& server, const std::string& report, int llm_calls) {
  const auto normal =
      send(server.port(), http::verb::post, "/v1/chat/completions",
           R"({"model": "gpt-4o-mini", "max_tokens": 2, "messages": [{"role": "user", "content": "hi"}]})");
  EXPECT_EQ(normal.result_int(), 200) << normal.body();
  EXPECT_EQ(stop(server), 0) << server.output();
  std::ifstream in(report);
  ASSERT_TRUE(in.good()) << report;
  const json written = json::parse(in);
  EXPECT_EQ(written["providers"]["llm"]["calls"], llm_calls);
}

json error_of(const http::response<http::string_body>& response) {
  return json::parse(response.body(), nullptr, /*allow_exceptions=*/false);
}

TEST(HostileBodyTest, DeeplyNestedJsonGetsEachApisOwn400) {
  const std::string report = temp_path("hostile_deep.json");
  ServeProcess server({scenario(), "--out", report});
  ASSERT_TRUE(server.started());
  const std::string brackets(100'000, '[');  // unbalanced, as an attacker sends them
  const std::string inside = R"({"model": "gpt-4o-mini", "input": "x", "query": "x", "encoding_format": )" +
                             std::string(100'000, '[') + std::string(100'000, ']') + "}";
  for (const std::string& body : {brackets, inside}) {
    for (const char* target : {"/v1/chat/completions", "/v1/embeddings", "/p/web/search"}) {
      const auto response = send(server.port(), http::verb::post, target, body);
      EXPECT_EQ(response.result_int(), 400) << target;
      const json expected{
          {"error", {{"message", kTooDeep}, {"type", "invalid_request_error"}, {"param", nullptr}, {"code", nullptr}}}};
      EXPECT_EQ(error_of(response), expected) << target;
    }
    const auto messages = send(server.port(), http::verb::post, "/v1/messages", body);
    EXPECT_EQ(messages.result_int(), 400);
    EXPECT_EQ(error_of(messages)["error"], (json{{"type", "invalid_request_error"}, {"message", kTooDeep}}));
    const auto mcp = send(server.port(), http::verb::post, "/p/crm/mcp", body, kMcpHeaders);
    EXPECT_EQ(mcp.result_int(), 400);
    EXPECT_EQ(error_of(mcp)["error"], (json{{"code", -32700}, {"message", "Parse error: " + kTooDeep}}));
  }
  // 512 levels are accepted: a field squall ignores may nest that deep.
  const auto deepest = send(server.port(), http::verb::post, "/v1/chat/completions",
                            R"({"model": "gpt-4o-mini", "max_tokens": 1, "metadata": )" + std::string(511, '[') +
                                std::string(511, ']') + R"(, "messages": [{"role": "user", "content": "hi"}]})");
  EXPECT_EQ(deepest.result_int(), 200) << deepest.body();
  expect_still_serving_then_stop(server, report, 2);
}

TEST(HostileBodyTest, KnownFieldsOfTheWrongTypeAre400sNamingTheField) {
  const std::string report = temp_path("hostile_types.json");
  ServeProcess server({scenario(), "--out", report});
  ASSERT_TRUE(server.started());
  const std::string head = R"({"model": "gpt-4o-mini", )";
  const std::string hi = R"("messages": [{"role": "user", "content": "hi"}])";
  struct Case {
    std::string body;
    std::string param;
    std::string message;
  };
  const std::vector<Case> chat = {
      {head + R"("messages": 5})", "messages",
       "Invalid type for 'messages': expected an array of objects, but got an integer instead."},
      {head + hi + R"(, "stream": "yes"})", "stream",
       "Invalid type for 'stream': expected a boolean, but got a string instead."},
      {R"({"model": 5, )" + hi + "}", "model",
       "Invalid type for 'model': expected a string, but got an integer instead."},
      {head + R"("messages": ["hi"]})", "messages[0]",
       "Invalid type for 'messages[0]': expected an object, but got a string instead."},
      {head + R"("messages": [{"role": "user", "content": 5}]})", "messages[0].content",
       "Invalid type for 'messages[0].content': expected a string or an array of content parts, but got an integer "
       "instead."},
      {head + hi + R"(, "max_tokens": "10"})", "max_tokens",
       "Invalid type for 'max_tokens': expected an integer, but got a string instead."},
      {head + hi + R"(, "stream_options": true})", "stream_options",
       "Invalid type for 'stream_options': expected an object, but got a boolean instead."},
      {head + hi + R"(, "stream_options": {"include_usage": 1}})", "stream_options.include_usage",
       "Invalid type for 'stream_options.include_usage': expected a boolean, but got an integer instead."},
  };
  for (const Case& c : chat) {
    const auto response = send(server.port(), http::verb::post, "/v1/chat/completions", c.body);
    EXPECT_EQ(response.result_int(), 400) << c.body;
    EXPECT_EQ(
        error_of(response)["error"],
        (json{{"message", c.message}, {"type", "invalid_request_error"}, {"param", c.param}, {"code", "invalid_type"}}))
        << c.body;
  }
  const auto zero = send(server.port(), http::verb::post, "/v1/chat/completions", head + hi + R"(, "max_tokens": 0})");
  EXPECT_EQ(error_of(zero)["error"]["message"],
            "Invalid 'max_tokens': integer below minimum value. Expected a value >= 1, but got 0 instead.");
  EXPECT_EQ(error_of(zero)["error"]["code"], "integer_below_min_value");
  const std::vector<std::pair<std::string, std::string>> anthropic = {
      {head + R"("max_tokens": 5, )" + hi + R"(, "stream": "yes"})", "stream: Input should be a valid boolean"},
      {head + R"("max_tokens": 5, "messages": 5})", "messages: Input should be a valid list"},
      {head + R"("max_tokens": "5", )" + hi + "}", "max_tokens: Input should be a valid integer"},
      {head + R"("max_tokens": 5, "messages": [5]})", "messages.0: Input should be a valid dictionary"},
  };
  for (const auto& [body, message] : anthropic) {
    const auto response = send(server.port(), http::verb::post, "/v1/messages", body);
    EXPECT_EQ(response.result_int(), 400) << body;
    EXPECT_EQ(error_of(response)["error"], (json{{"type", "invalid_request_error"}, {"message", message}})) << body;
  }
  const auto query = send(server.port(), http::verb::post, "/p/web/search", R"({"query": 5})");
  EXPECT_EQ(error_of(query)["error"]["message"],
            "Invalid type for 'query': expected a string, but got an integer instead.");
  const auto dimensions =
      send(server.port(), http::verb::post, "/v1/embeddings", head + R"("input": "x", "dimensions": "8"})");
  EXPECT_EQ(error_of(dimensions)["error"]["param"], "dimensions");
  EXPECT_EQ(error_of(dimensions)["error"]["code"], "invalid_type");
  expect_still_serving_then_stop(server, report, 1);
}

TEST(HostileBodyTest, BytesThatAreNotUtf8GetTheApisErrorsNotACrash) {
  const std::string report = temp_path("hostile_utf8.json");
  ServeProcess server({scenario(), "--out", report});
  ASSERT_TRUE(server.started());
  const std::string bad = R"({"model": "gpt-4o-mini", "max_tokens": 5, "messages": [{"role": "user", "content": ")"
                          "\xff\xfe\xc3"
                          R"("}]})";
  const auto chat = send(server.port(), http::verb::post, "/v1/chat/completions", bad);
  EXPECT_EQ(chat.result_int(), 400);
  EXPECT_EQ(error_of(chat)["error"]["message"].get<std::string>().rfind("We could not parse the JSON body", 0), 0u);
  const auto messages = send(server.port(), http::verb::post, "/v1/messages", bad);
  EXPECT_EQ(error_of(messages)["error"]["message"], "There was an error parsing the body of your request.");
  const auto mcp = send(server.port(), http::verb::post, "/p/crm/mcp", "\xff", kMcpHeaders);
  EXPECT_EQ(error_of(mcp)["error"], (json{{"code", -32700}, {"message", "Parse error"}}));
  // A path and a header squall quotes in its answer: printed with U+FFFD, as valid JSON.
  const std::string path = send_raw(server.port(), "GET /v1/\xff\xfe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(path.substr(0, 12), "HTTP/1.1 404") << path;
  EXPECT_NE(path.find("\"Invalid URL (GET /v1/\xef\xbf\xbd\xef\xbf\xbd)\""), std::string::npos) << path;
  const std::string provider = send_raw(server.port(),
                                        "POST /p/\xff/mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                        "Content-Length: 2\r\nConnection: close\r\n\r\n{}");
  EXPECT_EQ(provider.substr(0, 12), "HTTP/1.1 404") << provider;
  EXPECT_NE(provider.find("The provider `\xef\xbf\xbd` does not exist"), std::string::npos) << provider;
  const std::string stateless = R"({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
      "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}})";
  const auto method =
      send(server.port(), http::verb::post, "/p/crm/mcp", stateless,
           {{"accept", "application/json"}, {"mcp-protocol-version", "2026-07-28"}, {"mcp-method", "\xff"}});
  EXPECT_EQ(method.result_int(), 400);
  EXPECT_EQ(error_of(method)["error"]["message"],
            "Header mismatch: Mcp-Method header value '\xef\xbf\xbd' does not match body value 'tools/list'");
  expect_still_serving_then_stop(server, report, 1);
}

}  // namespace
}  // namespace squall::live::testing

// `squall serve`'s Anthropic Messages API (POST /v1/messages) reached with a Beast client:
// the message, the SSE event sequence, the error objects and headers (docs/live.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "serve_process.hpp"

namespace squall::live::testing {
namespace {

using nlohmann::json;

std::string scenario() { return std::string(SQUALL_SOURCE_DIR) + "/tests/live/scenarios/anthropic.json"; }

const std::string kMessage =
    R"({"model": "claude-sonnet-4-5", "max_tokens": 50, "messages": [{"role": "user", "content": "Hello there"}]})";
const std::string kStream = R"({"model": "claude-sonnet-4-5", "max_tokens": 50, "stream": true,
                                "messages": [{"role": "user", "content": "Hello there"}]})";

std::string post(ServeProcess& server, const std::string& body, int status) {
  const auto response = send(server.port(), http::verb::post, "/v1/messages", body);
  EXPECT_EQ(response.result_int(), status) << response.body();
  return response.body();
}

// The events of an SSE body: (event name, data).
std::vector<std::pair<std::string, json>> events(const std::string& text) {
  std::vector<std::pair<std::string, json>> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find("\n\n", at);
    EXPECT_NE(end, std::string::npos);
    if (end == std::string::npos) break;
    const std::string block = text.substr(at, end - at);
    const std::size_t newline = block.find('\n');
    EXPECT_EQ(block.substr(0, 7), "event: ");
    EXPECT_EQ(block.substr(newline + 1, 6), "data: ");
    out.emplace_back(block.substr(7, newline - 7), json::parse(block.substr(newline + 7)));
    at = end + 2;
  }
  return out;
}

std::vector<std::string> names(const std::vector<std::pair<std::string, json>>& events) {
  std::vector<std::string> out;
  for (const auto& [name, data] : events) {
    out.push_back(name);
    EXPECT_EQ(data["type"], name);  // every event's data names its own type
  }
  return out;
}

TEST(AnthropicServeTest, MessageHasTheApiShapeAndRateLimitHeaders) {
  ServeProcess server({scenario()});
  ASSERT_TRUE(server.started());
  const auto response = send(server.port(), http::verb::post, "/v1/messages", kMessage);
  ASSERT_EQ(response.result_int(), 200);
  EXPECT_EQ(response[http::field::content_type], "application/json");
  const std::string request_id(response["request-id"]);
  EXPECT_EQ(request_id.substr(0, 10), "req_squall");
  EXPECT_EQ(response["anthropic-ratelimit-requests-limit"], "60");
  EXPECT_EQ(response["anthropic-ratelimit-requests-remaining"], "59");
  EXPECT_EQ(response["anthropic-ratelimit-tokens-limit"], "100000");
  const std::string reset(response["anthropic-ratelimit-requests-reset"]);
  ASSERT_EQ(reset.size(), 20u) << reset;  // 2026-12-05T20:40:30Z
  EXPECT_EQ(reset[10], 'T');
  EXPECT_EQ(reset[19], 'Z');
  const json body = json::parse(response.body());
  const std::int64_t output = body["usage"]["output_tokens"];
  std::string text;
  for (std::int64_t i = 0; i < output; ++i)
    text += std::vector<std::string>{"The ", "mock", " is ", "calm", ", an", "d it", " ans", "wers"}[i % 8];
  // "Hello there" is 11 bytes: 3 input tokens.
  EXPECT_EQ(body, json::parse(R"({"id": "msg_squall)" + request_id.substr(10) +
                              R"(", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                                 "content": [{"type": "text", "text": ")" +
                              text + R"("}],
                                 "stop_reason": "end_turn", "stop_sequence": null,
                                 "usage": {"input_tokens": 3, "output_tokens": )" +
                              std::to_string(output) + "}}"));
  EXPECT_EQ(stop(server), 0);
}

TEST(AnthropicServeTest, FaultsAreAnthropicErrorObjects) {
  ServeProcess server({scenario(), "--time-scale", "2"});
  ASSERT_TRUE(server.started());
  post(server, kMessage, 200);
  const auto overloaded = send(server.port(), http::verb::post, "/v1/messages", kMessage);
  EXPECT_EQ(overloaded.result_int(), 529);
  EXPECT_EQ(overloaded.reason(), "Overloaded");
  const std::string id(overloaded["request-id"]);
  EXPECT_EQ(overloaded.body(), R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},)"
                               R"("request_id":")" +
                                   id + R"("})");
  const auto limited = send(server.port(), http::verb::post, "/v1/messages", kMessage);
  EXPECT_EQ(limited.result_int(), 429);
  EXPECT_EQ(limited[http::field::retry_after], "1");  // 2 s of scenario time at --time-scale 2
  EXPECT_EQ(json::parse(limited.body())["error"],
            json::parse(R"({"type": "rate_limit_error", "message": "This request would exceed your organization's )"
                        R"(rate limit. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see )"
                        R"(the response headers for current usage. Please reduce the prompt length or the maximum )"
                        R"(tokens requested, or try again later."})"));
  EXPECT_EQ(stop(server), 0);
}

TEST(AnthropicServeTest, StreamIsTheDocumentedEventSequence) {
  ServeProcess server({scenario()});
  ASSERT_TRUE(server.started());
  for (int call = 1; call <= 4; ++call) send(server.port(), http::verb::post, "/v1/messages", kMessage);
  const auto response = send(server.port(), http::verb::post, "/v1/messages", kStream);  // call 5
  ASSERT_EQ(response.result_int(), 200);
  EXPECT_EQ(response[http::field::content_type], "text/event-stream; charset=utf-8");
  const auto stream = events(response.body());
  ASSERT_GE(stream.size(), 7u);
  const std::int64_t output = stream[stream.size() - 2].second["usage"]["output_tokens"];
  std::vector<std::string> expected{"message_start", "content_block_start", "ping"};
  expected.insert(expected.end(), static_cast<std::size_t>(output), "content_block_delta");
  expected.insert(expected.end(), {"content_block_stop", "message_delta", "message_stop"});
  EXPECT_EQ(names(stream), expected);
  EXPECT_EQ(stream[0].second["message"]["usage"], json::parse(R"({"input_tokens": 3, "output_tokens": 0})"));
  EXPECT_EQ(stream[0].second["message"]["content"], json::array());
  EXPECT_EQ(stream[1].second, json::parse(R"({"type": "content_block_start", "index": 0,
                                              "content_block": {"type": "text", "text": ""}})"));
  EXPECT_EQ(stream[3].second, json::parse(R"({"type": "content_block_delta", "index": 0,
                                              "delta": {"type": "text_delta", "text": "The "}})"));
  EXPECT_EQ(stream[stream.size() - 2].second["delta"],
            json::parse(R"({"stop_reason": "end_turn", "stop_sequence": null})"));
  EXPECT_EQ(stop(server), 0);
}

TEST(AnthropicServeTest, ACutStreamEndsWithAnErrorEventAfterItsTokens) {
  ServeProcess server({scenario()});
  ASSERT_TRUE(server.started());
  for (int call = 1; call <= 3; ++call) send(server.port(), http::verb::post, "/v1/messages", kMessage);
  const auto response = send(server.port(), http::verb::post, "/v1/messages", kStream);  // call 4: cut after 3
  ASSERT_EQ(response.result_int(), 200);
  const auto stream = events(response.body());
  EXPECT_EQ(names(stream),
            (std::vector<std::string>{"message_start", "content_block_start", "ping", "content_block_delta",
                                      "content_block_delta", "content_block_delta", "error"}));
  EXPECT_EQ(stream.back().second["error"], json::parse(R"({"type": "api_error", "message": "Internal server error"})"));
  EXPECT_EQ(stream.back().second["request_id"], std::string(response["request-id"]));
  EXPECT_EQ(stop(server), 0);
}

TEST(AnthropicServeTest, InvalidRequestsGetTheApiErrors) {
  ServeProcess server({scenario()});
  ASSERT_TRUE(server.started());
  const auto error = [](std::string_view type, std::string_view message) {
    return nlohmann::ordered_json{{"type", "error"}, {"error", {{"type", type}, {"message", message}}}}.dump();
  };
  EXPECT_EQ(
      post(server, R"({"model": "claude-nope", "max_tokens": 5, "messages": [{"role": "user", "content": "x"}]})", 404),
      error("not_found_error", "model: claude-nope"));
  EXPECT_EQ(post(server, R"({"max_tokens": 5, "messages": []})", 400),
            error("invalid_request_error", "model: Field required"));
  EXPECT_EQ(post(server, R"({"model": "claude-sonnet-4-5", "messages": []})", 400),
            error("invalid_request_error", "max_tokens: Field required"));
  EXPECT_EQ(post(server, R"({"model": "claude-sonnet-4-5", "max_tokens": "5", "messages": []})", 400),
            error("invalid_request_error", "max_tokens: Input should be a valid integer"));
  EXPECT_EQ(post(server, R"({"model": "claude-sonnet-4-5", "max_tokens": 0, "messages": []})", 400),
            error("invalid_request_error", "max_tokens: Input should be greater than or equal to 1"));
  EXPECT_EQ(post(server, R"({"model": "claude-sonnet-4-5", "max_tokens": 5})", 400),
            error("invalid_request_error", "messages: Field required"));
  EXPECT_EQ(post(server, R"({"model": "claude-sonnet-4-5", "max_tokens": 5, "messages": {}})", 400),
            error("invalid_request_error", "messages: Input should be a valid list"));
  EXPECT_EQ(post(server, R"({"model": "claude-sonnet-4-5", "max_tokens": 5, "messages": []})", 400),
            error("invalid_request_error", "messages: at least one message is required"));
  EXPECT_EQ(post(server, "{not json", 400),
            error("invalid_request_error", "There was an error parsing the body of your request."));
  const std::string long_prompt(4000, 'a');  // 1000 tokens: over the 1000-token window with max_tokens
  const auto context = json::parse(post(server,
                                        json{{"model", "claude-sonnet-4-5"},
                                             {"max_tokens", 50},
                                             {"messages", {{{"role", "user"}, {"content", long_prompt}}}}}
                                            .dump(),
                                        400));
  EXPECT_EQ(context["error"], json::parse(R"({"type": "invalid_request_error",
                                              "message": "prompt is too long: 1000 tokens > 1000 maximum"})"));
  EXPECT_EQ(stop(server), 0);
}

}  // namespace
}  // namespace squall::live::testing

// The OpenAI API's wire shapes, as the official clients send and expect them
// (platform.openai.com/docs/api-reference/chat): the chat completion request, the
// completion and its SSE chunks, error bodies {"error": {"message", "type", "param",
// "code"}} with the API's own codes and wordings, and the headers that go with them.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "engine/call.hpp"
#include "live/wire_format.hpp"

namespace squall::live {

// The fields of a chat completion request squall reads. Unknown fields are accepted, as
// the API accepts the ones it documents (squall does not model temperature, tools, ...).
struct ChatRequest {
  std::string model;
  bool stream = false;
  bool include_usage = false;  // stream_options.include_usage
  // The prompt's tokens: ceil(bytes / 4) of each message's text (engine/token_estimate.hpp)
  // plus 3 per message and 3 for the reply's priming, OpenAI cookbook's count for chat
  // models ("How to count tokens with tiktoken").
  std::int64_t prompt_tokens = 0;
  // max_completion_tokens, else the deprecated max_tokens; 0 when neither is set.
  std::int64_t max_output_tokens = 0;
};

// Parses a POST /v1/chat/completions body. Errors are the API's 400 answers: a body that
// is not JSON ("We could not parse the JSON body of your request. ..."), a missing model
// ("you must provide a model parameter"), missing or empty messages, and a known field of
// the wrong JSON type (invalid_type, below): model, messages and each message and its
// content, stream, stream_options and its include_usage, max_completion_tokens and
// max_tokens (also integer_below_min_value under 1).
std::variant<ChatRequest, WireError> parse_chat_request(std::string_view body);

// The 400 for a body that is not a JSON object: "We could not parse the JSON body of your
// request. (HINT: ...)", the API's wording on every endpoint.
WireError json_parse_error();
// Reads a request body that must be a JSON object into `body` through the bounded parser
// (live/request_json.hpp): nullopt, or the 400 json_parse_error(), or for a body nested
// deeper than kMaxRequestJsonDepth the 400 invalid_request_error too_deep_message().
std::optional<WireError> read_json_object(std::string_view text, nlohmann::ordered_json& body);
// The 400 for a field of the wrong JSON type, in the API's words: "Invalid type for
// 'PARAM': expected EXPECTED, but got an integer instead.", param PARAM, code invalid_type.
WireError invalid_type(std::string_view param, std::string_view expected, const nlohmann::ordered_json& found);

// The 404 for a model no provider serves, in the API's words (code model_not_found).
WireError unknown_model(std::string_view model);
// The error body of `type` with `message`, `param` and `code` (null when empty).
std::string error_body(std::string_view message, std::string_view type, std::string_view param, std::string_view code);
// The error a provider's non-2xx answer becomes: 429 rate_limit_exceeded, 400
// context_length_exceeded (the mock's own wording, "This model's maximum context length
// is ..."), 5xx server_error or overloaded, 4xx invalid_request_error or its status's code.
WireError provider_error(const Response& response, std::string_view model);

struct CompletionIds {
  std::string id;            // "chatcmpl-..."
  std::int64_t created = 0;  // Unix seconds
  std::string model;
};

// A non-streamed chat.completion for `response` (2xx, Body::completion).
std::string completion_body(const CompletionIds& ids, const Response& response);
// One `data: {...}\n\n` SSE event of a chat.completion.chunk: the role chunk (first), a
// content chunk, the finish chunk (finish_reason), or the usage chunk (choices []).
std::string role_chunk(const CompletionIds& ids, bool include_usage);
std::string content_chunk(const CompletionIds& ids, std::string_view text, bool include_usage);
std::string finish_chunk(const CompletionIds& ids, bool truncated, bool include_usage);
std::string usage_chunk(const CompletionIds& ids, const Response& response);
// A mid-stream error, as the API sends it after a 200: `data: {"error": {...}}`.
std::string stream_error_event(const WireError& error);
inline constexpr std::string_view kDoneEvent = "data: [DONE]\n\n";

// The x-ratelimit-* headers of `limits` (name, value) in OpenAI's form: limit, remaining
// and reset (a Go duration such as "6m0s", "1.5s" or "20ms") per requests and tokens.
std::vector<std::pair<std::string, std::string>> rate_limit_headers(const RateLimitHeaders& limits);
// A duration as Go's time.Duration.String() prints it, at millisecond precision.
std::string go_duration(Nanos duration);

// The headers of every OpenAI answer: x-request-id, openai-processing-ms and the
// x-ratelimit-* headers of `response`.
void add_openai_headers(boost::beast::http::response_header<>& head, std::string_view request_id,
                        const Response& response, const HeaderTimes& times);

// The body of GET /v1/models for these model names.
std::string models_body(const std::vector<std::string>& models, std::int64_t created);

// The OpenAI chat completion as a WireFormat: x-request-id, openai-processing-ms and the
// x-ratelimit-* headers; a stream of chunks, the usage chunk (with include_usage) and
// `data: [DONE]`.
class OpenAiWire final : public WireFormat {
 public:
  OpenAiWire(CompletionIds ids, std::string request_id, bool include_usage)
      : ids_(std::move(ids)), request_id_(std::move(request_id)), include_usage_(include_usage) {}
  std::string body(const Response& response) const override { return completion_body(ids_, response); }
  WireError error(const Response& response) const override { return provider_error(response, ids_.model); }
  std::string stream_start() const override { return role_chunk(ids_, include_usage_); }
  std::string stream_token(std::int64_t index) const override;
  std::string stream_end(const Response& response) const override;
  std::string stream_error(const Response& response) const override;
  void add_headers(boost::beast::http::response_header<>& head, const Response& response,
                   const HeaderTimes& times) const override;

 private:
  CompletionIds ids_;
  std::string request_id_;
  bool include_usage_;
};

// An OpenAI-wire answer that is never streamed (embeddings, search and retrieval): no
// stream events, and the headers every OpenAI answer has (add_openai_headers).
class UnstreamedOpenAiWire : public WireFormat {
 public:
  explicit UnstreamedOpenAiWire(std::string request_id) : request_id_(std::move(request_id)) {}
  std::string stream_start() const override { return {}; }
  std::string stream_token(std::int64_t) const override { return {}; }
  std::string stream_end(const Response&) const override { return {}; }
  std::string stream_error(const Response&) const override { return {}; }
  void add_headers(boost::beast::http::response_header<>& head, const Response& response,
                   const HeaderTimes& times) const override {
    add_openai_headers(head, request_id_, response, times);
  }

 private:
  std::string request_id_;
};

}  // namespace squall::live

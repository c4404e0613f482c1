// Anthropic's Messages API wire shapes, as the official clients send and expect them
// (docs.claude.com/en/api/messages, /en/api/messages-streaming, /en/api/errors): the
// request, the message, its SSE events, error objects {"type": "error", "error": {"type",
// "message"}, "request_id"} and the request-id and anthropic-ratelimit-* headers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "engine/call.hpp"
#include "live/wire_format.hpp"

namespace squall::live {

// The fields of a POST /v1/messages body squall reads; others are accepted unread, as
// the API accepts the ones it documents (squall does not model temperature, tools, ...).
struct MessagesRequest {
  std::string model;
  std::int64_t max_tokens = 0;
  bool stream = false;
  // The prompt's tokens: ceil(bytes / 4) (engine/token_estimate.hpp) of the system
  // prompt and of each message's text (a content string, or its text blocks).
  std::int64_t input_tokens = 0;
};

// Parses a POST /v1/messages body. Errors are the API's 400 invalid_request_error
// answers, worded as its validation words them: "model: Field required", "max_tokens:
// Input should be a valid integer", "messages: Input should be a valid list", ...; a body
// that is not a JSON object: "There was an error parsing the body of your request.".
std::variant<MessagesRequest, WireError> parse_messages_request(std::string_view body);

// The 404 not_found_error for a model no provider serves ("model: claude-nope").
WireError anthropic_unknown_model(std::string_view model);
// An error object of `type` with `message` (request_id when not empty).
std::string anthropic_error_body(std::string_view type, std::string_view message, std::string_view request_id);

struct MessageIds {
  std::string id;  // "msg_..."
  std::string model;
};

// The anthropic-ratelimit-{requests,tokens}-{limit,remaining,reset} headers of `limits`,
// resets as RFC 3339 instants (UTC, seconds rounded up): now_unix_ms plus the capacity
// model's reset divided by the time scale.
std::vector<std::pair<std::string, std::string>> anthropic_rate_limit_headers(const RateLimitHeaders& limits,
                                                                              const HeaderTimes& times);
// A Unix instant in milliseconds as RFC 3339 in UTC, rounded up to the second.
std::string rfc3339(std::int64_t unix_ms);

// A message as a WireFormat. Errors by status: 429 rate_limit_error, 529 and 503
// overloaded_error ("Overloaded"), other 5xx api_error ("Internal server error"), 401
// authentication_error, 403 permission_error, 404 not_found_error, 413 request_too_large,
// a context overflow 400 "prompt is too long: N tokens > W maximum", other 4xx
// invalid_request_error. A stream is message_start, content_block_start, ping, one
// content_block_delta (text_delta) per token, content_block_stop, message_delta
// (stop_reason end_turn or max_tokens, usage.output_tokens), message_stop; a cut stream
// ends with `event: error` after its tokens.
class AnthropicWire final : public WireFormat {
 public:
  AnthropicWire(MessageIds ids, std::string request_id, std::int64_t input_tokens, std::int64_t context_window)
      : ids_(std::move(ids)),
        request_id_(std::move(request_id)),
        input_tokens_(input_tokens),
        context_window_(context_window) {}
  std::string body(const Response& response) const override;
  WireError error(const Response& response) const override;
  std::string stream_start() const override;
  std::string stream_token(std::int64_t index) const override;
  std::string stream_end(const Response& response) const override;
  std::string stream_error(const Response& response) const override;
  void add_headers(boost::beast::http::response_header<>& head, const Response& response,
                   const HeaderTimes& times) const override;

 private:
  MessageIds ids_;
  std::string request_id_;
  std::int64_t input_tokens_;
  std::int64_t context_window_;
};

}  // namespace squall::live

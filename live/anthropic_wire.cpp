#include "live/anthropic_wire.hpp"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "engine/token_estimate.hpp"
#include "live/request_json.hpp"

namespace squall::live {
namespace {

using Json = nlohmann::ordered_json;  // the API's own key order

WireError invalid_request(std::string_view message) {
  return WireError{400, anthropic_error_body("invalid_request_error", message, "")};
}

// The text of a content field: a string, or the `text` of its blocks.
std::int64_t content_tokens(const Json& content) {
  if (content.is_string()) return estimate_tokens(content.get_ref<const std::string&>());
  std::int64_t tokens = 0;
  if (!content.is_array()) return tokens;
  for (const Json& block : content) {
    const auto text = block.is_object() ? block.find("text") : block.end();
    if (block.is_object() && text != block.end() && text->is_string()) {
      tokens += estimate_tokens(text->get_ref<const std::string&>());
    }
  }
  return tokens;
}

std::string event(std::string_view name, const Json& data) {
  return fmt::format("event: {}\ndata: {}\n\n", name, data.dump());
}

const char* stop_reason(const Response& response) { return response.truncated ? "max_tokens" : "end_turn"; }

// The field's check, as the API's validation words it; empty when it is valid.
std::string_view field_problem(const Json& body, const char* field) {
  const auto it = body.find(field);
  if (std::string_view(field) == "stream") {
    return it == body.end() || it->is_null() || it->is_boolean() ? "" : "Input should be a valid boolean";
  }
  if (it == body.end()) return "Field required";
  if (std::string_view(field) == "model") return it->is_string() ? "" : "Input should be a valid string";
  if (std::string_view(field) == "max_tokens") {
    if (!it->is_number_integer()) return "Input should be a valid integer";
    return it->get<std::int64_t>() >= 1 ? "" : "Input should be greater than or equal to 1";
  }
  return it->is_array() ? "" : "Input should be a valid list";
}

}  // namespace

std::string anthropic_error_body(std::string_view type, std::string_view message, std::string_view request_id) {
  Json body{{"type", "error"}, {"error", {{"type", std::string(type)}, {"message", std::string(message)}}}};
  if (!request_id.empty()) body["request_id"] = std::string(request_id);
  return body.dump(-1, ' ', false, Json::error_handler_t::replace);  // bytes not UTF-8 as U+FFFD
}

std::variant<MessagesRequest, WireError> parse_messages_request(std::string_view text) {
  Json body;
  const RequestJsonError parsed = parse_request_json(text, body);
  if (parsed == RequestJsonError::too_deep) return invalid_request(too_deep_message());
  if (parsed != RequestJsonError::none || !body.is_object()) {
    return invalid_request("There was an error parsing the body of your request.");
  }
  for (const char* field : {"model", "max_tokens", "messages", "stream"}) {
    const std::string_view problem = field_problem(body, field);
    if (!problem.empty()) return invalid_request(fmt::format("{}: {}", field, problem));
  }
  const Json& messages = body["messages"];
  if (messages.empty()) return invalid_request("messages: at least one message is required");
  MessagesRequest request;
  request.model = body["model"].get<std::string>();
  request.max_tokens = body["max_tokens"].get<std::int64_t>();
  const auto stream = body.find("stream");
  request.stream = stream != body.end() && stream->is_boolean() && stream->get<bool>();
  const auto system = body.find("system");
  if (system != body.end()) request.input_tokens += content_tokens(*system);
  for (std::size_t i = 0; i < messages.size(); ++i) {
    if (!messages[i].is_object())
      return invalid_request(fmt::format("messages.{}: Input should be a valid dictionary", i));
    const auto content = messages[i].find("content");
    if (content != messages[i].end()) request.input_tokens += content_tokens(*content);
  }
  return request;
}

WireError anthropic_unknown_model(std::string_view model) {
  return WireError{404, anthropic_error_body("not_found_error", fmt::format("model: {}", model), "")};
}

std::string rfc3339(std::int64_t unix_ms) {
  // Howard Hinnant's civil_from_days (the proleptic Gregorian calendar), in integers: no
  // time zone database and no clock, only a count of seconds since 1970-01-01T00:00:00Z.
  const std::int64_t seconds = (unix_ms + 999) / 1000;
  const std::int64_t days = seconds / 86400 - (seconds % 86400 < 0 ? 1 : 0);
  const std::int64_t of_day = seconds - days * 86400;
  const std::int64_t z = days + 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t day_of_era = z - era * 146097;
  const std::int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const std::int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const std::int64_t shifted_month = (5 * day_of_year + 2) / 153;
  const std::int64_t day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
  const std::int64_t month = shifted_month < 10 ? shifted_month + 3 : shifted_month - 9;
  const std::int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", year, month, day, of_day / 3600, of_day % 3600 / 60,
                     of_day % 60);
}

std::vector<std::pair<std::string, std::string>> anthropic_rate_limit_headers(const RateLimitHeaders& limits,
                                                                              const HeaderTimes& times) {
  std::vector<std::pair<std::string, std::string>> headers;
  const auto reset = [&](Nanos virtual_reset) {
    return rfc3339(times.now_unix_ms +
                   static_cast<std::int64_t>(static_cast<double>(virtual_reset) / times.time_scale) / kMillisecond);
  };
  if (limits.limit_requests >= 0) {
    headers.emplace_back("anthropic-ratelimit-requests-limit", fmt::format("{}", limits.limit_requests));
    headers.emplace_back("anthropic-ratelimit-requests-remaining", fmt::format("{}", limits.remaining_requests));
    headers.emplace_back("anthropic-ratelimit-requests-reset", reset(limits.reset_requests));
  }
  if (limits.limit_tokens >= 0) {
    headers.emplace_back("anthropic-ratelimit-tokens-limit", fmt::format("{}", limits.limit_tokens));
    headers.emplace_back("anthropic-ratelimit-tokens-remaining", fmt::format("{}", limits.remaining_tokens));
    headers.emplace_back("anthropic-ratelimit-tokens-reset", reset(limits.reset_tokens));
  }
  return headers;
}

std::string AnthropicWire::body(const Response& response) const {
  if (!response.details().body_error.empty()) return std::string(response.details().body_error);  // masked error
  std::string text;
  for (std::int64_t i = 0; i < response.output_tokens; ++i) text += token_text(i);
  const Json body{{"id", ids_.id},
                  {"type", "message"},
                  {"role", "assistant"},
                  {"model", ids_.model},
                  {"content", Json::array({Json{{"type", "text"}, {"text", text}}})},
                  {"stop_reason", stop_reason(response)},
                  {"stop_sequence", nullptr},
                  {"usage", {{"input_tokens", response.input_tokens}, {"output_tokens", response.output_tokens}}}};
  return body.dump();
}

WireError AnthropicWire::error(const Response& response) const {
  const int status = response.status;
  // A fault's own words (FaultConfig::error_message) replace the status's usual ones.
  const std::string_view said = response.details().error_message;
  const auto make = [&](std::string_view type, std::string_view usual) {
    return WireError{status, anthropic_error_body(type, said.empty() ? usual : said, request_id_)};
  };
  if (response.details().error_code == "insufficient_quota") {
    // Anthropic has no quota code: spent prepaid credit is a 400 invalid_request_error,
    // which its SDKs do not retry (a 429 they would).
    return WireError{400, anthropic_error_body("invalid_request_error",
                                               said.empty() ? "Your credit balance is too low to access the Anthropic "
                                                              "API. Please go to Plans & Billing to upgrade or "
                                                              "purchase credits."
                                                            : said,
                                               request_id_)};
  }
  if (status == 429) {
    return make("rate_limit_error",
                "This request would exceed your organization's rate limit. For details, refer to: "
                "https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. "
                "Please reduce the prompt length or the maximum tokens requested, or try again later.");
  }
  if (response.details().error_code == "context_length_exceeded") {
    return WireError{status, anthropic_error_body("invalid_request_error",
                                                  fmt::format("prompt is too long: {} tokens > {} maximum",
                                                              input_tokens_, context_window_),
                                                  request_id_)};
  }
  if (status == 529 || status == 503) return make("overloaded_error", "Overloaded");
  if (status >= 500) return make("api_error", "Internal server error");
  if (status == 401) return make("authentication_error", "invalid x-api-key");
  if (status == 403)
    return make("permission_error", "Your API key does not have permission to use the specified resource.");
  if (status == 404) return make("not_found_error", fmt::format("model: {}", ids_.model));
  if (status == 413) return make("request_too_large", "Request exceeds the maximum allowed number of bytes.");
  return make("invalid_request_error", "Invalid request.");
}

std::string AnthropicWire::stream_start() const {
  const Json message{{"id", ids_.id},
                     {"type", "message"},
                     {"role", "assistant"},
                     {"model", ids_.model},
                     {"content", Json::array()},
                     {"stop_reason", nullptr},
                     {"stop_sequence", nullptr},
                     {"usage", {{"input_tokens", input_tokens_}, {"output_tokens", 0}}}};
  return event("message_start", Json{{"type", "message_start"}, {"message", message}}) +
         event(
             "content_block_start",
             Json{{"type", "content_block_start"}, {"index", 0}, {"content_block", {{"type", "text"}, {"text", ""}}}}) +
         event("ping", Json{{"type", "ping"}});
}

std::string AnthropicWire::stream_token(std::int64_t index) const {
  return event("content_block_delta",
               Json{{"type", "content_block_delta"},
                    {"index", 0},
                    {"delta", {{"type", "text_delta"}, {"text", std::string(token_text(index))}}}});
}

std::string AnthropicWire::stream_end(const Response& response) const {
  return event("content_block_stop", Json{{"type", "content_block_stop"}, {"index", 0}}) +
         event("message_delta", Json{{"type", "message_delta"},
                                     {"delta", {{"stop_reason", stop_reason(response)}, {"stop_sequence", nullptr}}},
                                     {"usage", {{"output_tokens", response.output_tokens}}}}) +
         event("message_stop", Json{{"type", "message_stop"}});
}

std::string AnthropicWire::stream_error(const Response& response) const {
  return fmt::format("event: error\ndata: {}\n\n", error(response).body);
}

void AnthropicWire::add_headers(boost::beast::http::response_header<>& head, const Response& response,
                                const HeaderTimes& times) const {
  head.set("request-id", request_id_);
  for (const auto& [name, value] : anthropic_rate_limit_headers(response.rate_limit, times)) head.set(name, value);
}

}  // namespace squall::live

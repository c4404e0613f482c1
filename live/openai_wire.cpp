#include "live/openai_wire.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "engine/token_estimate.hpp"
#include "live/request_json.hpp"

namespace squall::live {
namespace {

using Json = nlohmann::ordered_json;  // the API's own key order

WireError invalid_request(std::string_view message, std::string_view param, std::string_view code) {
  return WireError{400, error_body(message, "invalid_request_error", param, code)};
}

Json null_or(std::string_view text) { return text.empty() ? Json(nullptr) : Json(std::string(text)); }

// A message's text: its content string, or the text parts of a content array.
std::string_view message_text(const Json& message, std::string& scratch) {
  const auto content = message.find("content");
  if (content == message.end()) return {};
  if (content->is_string()) return content->get_ref<const std::string&>();
  if (!content->is_array()) return {};
  for (const Json& part : *content) {
    const auto text = part.find("text");
    if (text != part.end() && text->is_string()) scratch += text->get_ref<const std::string&>();
  }
  return scratch;
}

// A present field that is not null (the API treats null as absent).
const Json* field(const Json& object, const char* name) {
  const auto it = object.find(name);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::optional<WireError> read_messages(const Json& body, ChatRequest& request) {
  const Json* messages = field(body, "messages");
  if (messages == nullptr) {
    return invalid_request("Missing required parameter: 'messages'.", "messages", "missing_required_parameter");
  }
  if (!messages->is_array()) return invalid_type("messages", "an array of objects", *messages);
  if (messages->empty()) {
    return invalid_request(
        "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
        "messages", "empty_array");
  }
  request.prompt_tokens = 3;
  for (std::size_t i = 0; i < messages->size(); ++i) {
    const Json& message = (*messages)[i];
    if (!message.is_object()) return invalid_type(fmt::format("messages[{}]", i), "an object", message);
    const Json* content = field(message, "content");
    if (content != nullptr && !content->is_string() && !content->is_array()) {
      return invalid_type(fmt::format("messages[{}].content", i), "a string or an array of content parts", *content);
    }
    std::string scratch;
    request.prompt_tokens += 3 + estimate_tokens(message_text(message, scratch));
  }
  return std::nullopt;
}

// max_completion_tokens, else the deprecated max_tokens: integers >= 1 when present.
std::optional<WireError> read_output_cap(const Json& body, ChatRequest& request) {
  for (const char* key : {"max_completion_tokens", "max_tokens"}) {
    const Json* cap = field(body, key);
    if (cap == nullptr) continue;
    if (!cap->is_number_integer()) return invalid_type(key, "an integer", *cap);
    // JSON's non-negative integers are number_unsigned in nlohmann::json, negative ones not.
    if (!cap->is_number_unsigned() || cap->get<std::uint64_t>() == 0) {
      return invalid_request(fmt::format("Invalid '{}': integer below minimum value. Expected a value >= 1, but got "
                                         "{} instead.",
                                         key, cap->dump()),
                             key, "integer_below_min_value");
    }
    if (request.max_output_tokens == 0) {
      request.max_output_tokens =
          static_cast<std::int64_t>(std::min<std::uint64_t>(cap->get<std::uint64_t>(), INT64_MAX));
    }
  }
  return std::nullopt;
}

std::optional<WireError> read_stream(const Json& body, ChatRequest& request) {
  if (const Json* stream = field(body, "stream")) {
    if (!stream->is_boolean()) return invalid_type("stream", "a boolean", *stream);
    request.stream = stream->get<bool>();
  }
  const Json* options = field(body, "stream_options");
  if (options == nullptr) return std::nullopt;
  if (!options->is_object()) return invalid_type("stream_options", "an object", *options);
  if (const Json* usage = field(*options, "include_usage")) {
    if (!usage->is_boolean()) return invalid_type("stream_options.include_usage", "a boolean", *usage);
    request.include_usage = usage->get<bool>();
  }
  return std::nullopt;
}

Json chunk_head(const CompletionIds& ids) {
  return Json{{"id", ids.id},
              {"object", "chat.completion.chunk"},
              {"created", ids.created},
              {"model", ids.model},
              {"system_fingerprint", nullptr}};
}

std::string sse(const Json& data) { return fmt::format("data: {}\n\n", data.dump()); }

// `text` as a JSON string, quotes included, escaped as dump() escapes it: `"`, `\` and the
// control characters, by their short escapes where JSON has one, else \u00xx. Bytes from
// 0x7f up are copied, as dump() copies valid UTF-8 (what it would refuse, invalid UTF-8,
// cannot reach here: the strings are ASCII or read by nlohmann's parser, which checks).
std::string json_string(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

Json usage_of(const Response& response) {
  return Json{{"prompt_tokens", response.input_tokens},
              {"completion_tokens", response.output_tokens},
              {"total_tokens", response.input_tokens + response.output_tokens}};
}

Json choice_chunk(Json delta, const char* finish_reason) {
  return Json{{"index", 0},
              {"delta", std::move(delta)},
              {"logprobs", nullptr},
              {"finish_reason", finish_reason != nullptr ? Json(finish_reason) : Json(nullptr)}};
}

}  // namespace

std::string error_body(std::string_view message, std::string_view type, std::string_view param, std::string_view code) {
  const Json body{{"error",
                   {{"message", std::string(message)},
                    {"type", std::string(type)},
                    {"param", null_or(param)},
                    {"code", null_or(code)}}}};
  // A message may quote what a client sent (a path, a header); bytes that are not UTF-8
  // are printed as U+FFFD rather than failing the answer.
  return body.dump(-1, ' ', false, Json::error_handler_t::replace);
}

WireError json_parse_error() {
  return invalid_request(
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP "
      "library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have "
      "trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
      "", "");
}

std::optional<WireError> read_json_object(std::string_view text, Json& body) {
  const RequestJsonError error = parse_request_json(text, body);
  if (error == RequestJsonError::too_deep) return invalid_request(too_deep_message(), "", "");
  if (error != RequestJsonError::none || !body.is_object()) return json_parse_error();
  return std::nullopt;
}

WireError invalid_type(std::string_view param, std::string_view expected, const Json& found) {
  return invalid_request(
      fmt::format("Invalid type for '{}': expected {}, but got {} instead.", param, expected, json_type_name(found)),
      param, "invalid_type");
}

std::variant<ChatRequest, WireError> parse_chat_request(std::string_view text) {
  Json body;
  if (auto error = read_json_object(text, body)) return std::move(*error);
  ChatRequest request;
  const Json* model = field(body, "model");
  if (model == nullptr) return invalid_request("you must provide a model parameter", "", "");
  if (!model->is_string()) return invalid_type("model", "a string", *model);
  request.model = model->get<std::string>();
  if (auto error = read_messages(body, request)) return std::move(*error);
  if (auto error = read_output_cap(body, request)) return std::move(*error);
  if (auto error = read_stream(body, request)) return std::move(*error);
  return request;
}

WireError unknown_model(std::string_view model) {
  return WireError{404, error_body(fmt::format("The model `{}` does not exist or you do not have access to it.", model),
                                   "invalid_request_error", "", "model_not_found")};
}

// A 429: OpenAI's quota error when the fault's code says so (not retryable by its meaning,
// though the SDKs retry a 429 unless x-should-retry says not to), else a rate limit.
WireError too_many_requests(const ErrorDetails& details, std::string_view model) {
  const auto message = [&](std::string fallback) {
    return details.error_message.empty() ? fallback : std::string(details.error_message);
  };
  if (details.error_code == "insufficient_quota") {
    return WireError{429, error_body(message("You exceeded your current quota, please check your plan and billing "
                                             "details. For more information on this error, read the docs: "
                                             "https://platform.openai.com/docs/guides/error-codes/api-errors."),
                                     "insufficient_quota", "", "insufficient_quota")};
  }
  const std::string wait = !details.retry_after_ms.empty() ? fmt::format("{}ms", details.retry_after_ms)
                           : !details.retry_after.empty()  ? fmt::format("{}s", details.retry_after)
                                                           : std::string("a moment");
  return WireError{
      429, error_body(message(fmt::format("Rate limit reached for {} on requests per min (RPM). Please "
                                          "try again in {}. Visit https://platform.openai.com/account/"
                                          "rate-limits to learn more.",
                                          model, wait)),
                      "requests", "",
                      details.error_code.empty() ? std::string_view("rate_limit_exceeded") : details.error_code)};
}

WireError provider_error(const Response& response, std::string_view model) {
  const ErrorDetails& details = response.details();
  const int status = response.status;
  if (status == 429) return too_many_requests(details, model);
  if (details.error_code == "context_length_exceeded") {
    return WireError{status,
                     error_body(details.error_message, "invalid_request_error", "messages", "context_length_exceeded")};
  }
  // A fault's own words (FaultConfig::error_message) replace the status's usual ones.
  const auto said = [&](std::string_view usual) {
    return details.error_message.empty() ? usual : details.error_message;
  };
  if (status == 503 || status == 529) {
    return WireError{
        status, error_body(said("The server is overloaded or not ready yet."), "server_error", "", details.error_code)};
  }
  if (status >= 500) {
    // A cut stream's "stream_error" is squall's own name: OpenAI's error event has no code.
    const std::string_view code = details.error_code == "stream_error" ? "" : details.error_code;
    return WireError{status,
                     error_body(said("The server had an error while processing your request. Sorry about that!"),
                                "server_error", "", code)};
  }
  if (status == 401) {
    return WireError{status, error_body(said("Incorrect API key provided. You can find your API key at "
                                             "https://platform.openai.com/account/api-keys."),
                                        "invalid_request_error", "", "invalid_api_key")};
  }
  if (status == 404) return unknown_model(model);
  if (status == 403) {
    return WireError{
        status, error_body(details.error_message.empty() ? fmt::format("You are not allowed to sample from {}.", model)
                                                         : std::string(details.error_message),
                           "invalid_request_error", "", details.error_code)};
  }
  return WireError{status, error_body(said("Invalid request."), "invalid_request_error", "", details.error_code)};
}

std::string_view token_text(std::int64_t index) {
  // Four-character pieces: estimate_tokens counts each as one token.
  static constexpr std::array<std::string_view, 8> kPieces{"The ", "mock", " is ", "calm",
                                                           ", an", "d it", " ans", "wers"};
  return kPieces[static_cast<std::size_t>(index) % kPieces.size()];
}

std::string completion_body(const CompletionIds& ids, const Response& response) {
  if (!response.details().body_error.empty()) return std::string(response.details().body_error);  // masked error
  std::string content;
  content.reserve(4 * static_cast<std::size_t>(std::max<std::int64_t>(response.output_tokens, 0)));
  for (std::int64_t i = 0; i < response.output_tokens; ++i) content += token_text(i);
  // Written as text rather than built as an ordered_json tree and dumped: every whole
  // answer has this body, and the tree (a node and a key string per field) cost a fifth of
  // the server's time under load (bench/README.md, "Live mode"). The same bytes as the
  // tree's dump() (tests/live/openai_wire_test.cpp compares the two).
  return fmt::format(
      FMT_COMPILE(
          R"({{"id":{},"object":"chat.completion","created":{},"model":{},"choices":[{{"index":0,"message":)"
          R"({{"role":"assistant","content":{},"refusal":null}},"logprobs":null,"finish_reason":"{}"}}],)"
          R"("usage":{{"prompt_tokens":{},"completion_tokens":{},"total_tokens":{}}},"system_fingerprint":null}})"),
      json_string(ids.id), ids.created, json_string(ids.model), json_string(content),
      response.truncated ? "length" : "stop", response.input_tokens, response.output_tokens,
      response.input_tokens + response.output_tokens);
}

std::string role_chunk(const CompletionIds& ids, bool include_usage) {
  Json chunk = chunk_head(ids);
  chunk["choices"] =
      Json::array({choice_chunk(Json{{"role", "assistant"}, {"content", ""}, {"refusal", nullptr}}, nullptr)});
  if (include_usage) chunk["usage"] = nullptr;
  return sse(chunk);
}

std::string content_chunk(const CompletionIds& ids, std::string_view text, bool include_usage) {
  Json chunk = chunk_head(ids);
  chunk["choices"] = Json::array({choice_chunk(Json{{"content", std::string(text)}}, nullptr)});
  if (include_usage) chunk["usage"] = nullptr;
  return sse(chunk);
}

std::string finish_chunk(const CompletionIds& ids, bool truncated, bool include_usage) {
  Json chunk = chunk_head(ids);
  chunk["choices"] = Json::array({choice_chunk(Json::object(), truncated ? "length" : "stop")});
  if (include_usage) chunk["usage"] = nullptr;
  return sse(chunk);
}

std::string usage_chunk(const CompletionIds& ids, const Response& response) {
  Json chunk = chunk_head(ids);
  chunk["choices"] = Json::array();
  chunk["usage"] = usage_of(response);
  return sse(chunk);
}

std::string stream_error_event(const WireError& error) { return fmt::format("data: {}\n\n", error.body); }

std::string go_duration(Nanos duration) {
  const std::int64_t ms = (duration + kMillisecond - 1) / kMillisecond;
  if (ms <= 0) return "0s";
  if (ms < 1000) return fmt::format("{}ms", ms);
  const std::int64_t minutes = ms / 60'000;
  const std::int64_t rest_ms = ms % 60'000;
  std::string seconds = rest_ms % 1000 == 0 ? fmt::format("{}s", rest_ms / 1000)
                                            : fmt::format("{}.{:03}s", rest_ms / 1000, rest_ms % 1000);
  if (seconds.find('.') != std::string::npos) {
    while (seconds[seconds.size() - 2] == '0') seconds.erase(seconds.size() - 2, 1);
  }
  return minutes > 0 ? fmt::format("{}m{}", minutes, seconds) : seconds;
}

std::vector<std::pair<std::string, std::string>> rate_limit_headers(const RateLimitHeaders& limits) {
  std::vector<std::pair<std::string, std::string>> headers;
  if (limits.limit_requests >= 0) {
    headers.emplace_back("x-ratelimit-limit-requests", fmt::format("{}", limits.limit_requests));
    headers.emplace_back("x-ratelimit-remaining-requests", fmt::format("{}", limits.remaining_requests));
    headers.emplace_back("x-ratelimit-reset-requests", go_duration(limits.reset_requests));
  }
  if (limits.limit_tokens >= 0) {
    headers.emplace_back("x-ratelimit-limit-tokens", fmt::format("{}", limits.limit_tokens));
    headers.emplace_back("x-ratelimit-remaining-tokens", fmt::format("{}", limits.remaining_tokens));
    headers.emplace_back("x-ratelimit-reset-tokens", go_duration(limits.reset_tokens));
  }
  return headers;
}

std::string models_body(const std::vector<std::string>& models, std::int64_t created) {
  Json data = Json::array();
  for (const std::string& model : models) {
    data.push_back(Json{{"id", model}, {"object", "model"}, {"created", created}, {"owned_by", "squall"}});
  }
  return Json{{"object", "list"}, {"data", std::move(data)}}.dump();
}

std::string OpenAiWire::stream_token(std::int64_t index) const {
  return content_chunk(ids_, token_text(index), include_usage_);
}

std::string OpenAiWire::stream_end(const Response& response) const {
  std::string events = finish_chunk(ids_, response.truncated, include_usage_);
  if (include_usage_) events += usage_chunk(ids_, response);
  return events += kDoneEvent;
}

std::string OpenAiWire::stream_error(const Response& response) const {
  return stream_error_event(provider_error(response, ids_.model));
}

void OpenAiWire::add_headers(boost::beast::http::response_header<>& head, const Response& response,
                             const HeaderTimes& times) const {
  add_openai_headers(head, request_id_, response, times);
}

void add_openai_headers(boost::beast::http::response_header<>& head, std::string_view request_id,
                        const Response& response, const HeaderTimes& times) {
  head.set("x-request-id", boost::beast::string_view(request_id.data(), request_id.size()));
  head.set("openai-processing-ms", fmt::format("{}", times.processing_real / kMillisecond));
  for (const auto& [name, value] : rate_limit_headers(response.rate_limit)) head.set(name, value);
}

}  // namespace squall::live

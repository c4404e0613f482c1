#include "live/mcp_wire.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "live/request_json.hpp"
#include "sim/run.hpp"

namespace squall::live {
namespace {

using nlohmann::json;

WireError invalid(std::string_view message) {
  return WireError{400, rpc_error(nullptr, McpErrorCode::invalid_request, message)};
}

json server_info() { return json{{"name", "squall"}, {"version", std::string(squall_version())}}; }

json tools_capability() { return json{{"tools", json{{"listChanged", false}}}}; }

bool is_2xx(const Response& response) { return response.status >= 200 && response.status < 300; }

json call_tool_result(std::string text, bool is_error, bool stateless) {
  json result{{"content", json::array({json{{"type", "text"}, {"text", std::move(text)}}})}, {"isError", is_error}};
  if (stateless) result["resultType"] = "complete";
  return result;
}

}  // namespace

std::variant<McpMessage, WireError> parse_mcp_message(std::string_view body) {
  json doc;
  const RequestJsonError parsed = parse_request_json(body, doc);
  if (parsed == RequestJsonError::too_deep) {
    return WireError{400,
                     rpc_error(nullptr, McpErrorCode::parse_error, fmt::format("Parse error: {}", too_deep_message()))};
  }
  if (parsed != RequestJsonError::none)
    return WireError{400, rpc_error(nullptr, McpErrorCode::parse_error, "Parse error")};
  if (doc.is_array()) return invalid("Invalid Request: batches are not supported");
  if (!doc.is_object()) return invalid("Invalid Request: a message is a JSON object");
  const auto version = doc.find("jsonrpc");
  if (version == doc.end() || *version != "2.0") return invalid("Invalid Request: jsonrpc must be \"2.0\"");
  McpMessage message;
  if (const auto id = doc.find("id"); id != doc.end()) {
    if (!id->is_string() && !id->is_number_integer()) {
      return invalid("Invalid Request: id must be a string or an integer");
    }
    message.id = *id;
  }
  const auto method = doc.find("method");
  if (method == doc.end()) {
    if (message.id.is_null() || (!doc.contains("result") && !doc.contains("error"))) {
      return invalid("Invalid Request: a message has a method, or a result or an error");
    }
    message.response = true;
    return message;
  }
  if (!method->is_string()) return invalid("Invalid Request: method must be a string");
  message.method = method->get<std::string>();
  if (const auto params = doc.find("params"); params != doc.end() && !params->is_null()) {
    if (!params->is_object()) return invalid("Invalid Request: params must be an object");
    message.params = std::move(*params);
  }
  message.notification = message.id.is_null();
  return message;
}

std::string rpc_error(const json& id, McpErrorCode code, std::string_view message, const json& data) {
  nlohmann::ordered_json error{{"code", static_cast<int>(code)}, {"message", message}};
  // A message or data may quote a header the client sent: bytes that are not UTF-8 are
  // printed as U+FFFD rather than failing the answer.
  constexpr auto kReplace = json::error_handler_t::replace;
  if (!data.is_null()) error["data"] = nlohmann::ordered_json::parse(data.dump(-1, ' ', false, kReplace));
  return fmt::format(R"({{"jsonrpc":"2.0","id":{},"error":{}}})", id.dump(), error.dump(-1, ' ', false, kReplace));
}

std::string rpc_result(const json& id, const json& result) {
  return fmt::format(R"({{"jsonrpc":"2.0","id":{},"result":{}}})", id.dump(), result.dump());
}

bool is_session_version(std::string_view version) {
  return std::find(kMcpSessionVersions.begin(), kMcpSessionVersions.end(), version) != kMcpSessionVersions.end();
}

std::string_view negotiate_session_version(std::string_view requested) {
  return is_session_version(requested) ? requested : kMcpSessionVersions.front();
}

json initialize_result(std::string_view version, std::string_view provider) {
  return json{{"protocolVersion", version},
              {"capabilities", tools_capability()},
              {"serverInfo", server_info()},
              {"instructions", fmt::format("squall serves the scenario's tool provider `{}`: its latency and "
                                           "faults are the scenario's.",
                                           provider)}};
}

json discover_result(std::string_view provider) {
  json result{{"supportedVersions", json::array({kMcpStatelessVersion})},
              {"capabilities", tools_capability()},
              {"serverInfo", server_info()},
              {"instructions", initialize_result(kMcpStatelessVersion, provider)["instructions"]}};
  result["resultType"] = "complete";
  return result;
}

json tools_list_result(std::span<const std::string_view> tools, std::string_view provider, bool stateless) {
  json list = json::array();
  for (const std::string_view name : tools) {
    list.push_back(
        json{{"name", name},
             {"description", fmt::format("The scenario's tool `{}`, served by provider `{}`.", name, provider)},
             {"inputSchema", json{{"type", "object"}}}});
  }
  json result{{"tools", std::move(list)}};
  if (stateless) result["resultType"] = "complete";
  return result;
}

json unsupported_version_data(std::string_view requested) {
  json supported = json::array({kMcpStatelessVersion});
  for (const std::string_view version : kMcpSessionVersions) supported.push_back(version);
  return json{{"supported", std::move(supported)}, {"requested", requested}};
}

std::string decode_mcp_header_value(std::string_view value) {
  constexpr std::string_view kPrefix = "=?base64?";
  constexpr std::string_view kSuffix = "?=";
  if (value.size() < kPrefix.size() + kSuffix.size() || !value.starts_with(kPrefix) || !value.ends_with(kSuffix)) {
    return std::string(value);
  }
  const std::string_view encoded = value.substr(kPrefix.size(), value.size() - kPrefix.size() - kSuffix.size());
  static constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::uint32_t group = 0;
  int bits = 0;
  std::size_t i = 0;
  for (; i < encoded.size() && encoded[i] != '='; ++i) {
    const std::size_t digit = kAlphabet.find(encoded[i]);
    if (digit == std::string_view::npos) return {};
    group = (group << 6) | static_cast<std::uint32_t>(digit);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((group >> bits) & 0xFF);
    }
  }
  for (; i < encoded.size(); ++i) {
    if (encoded[i] != '=') return {};
  }
  if (encoded.size() % 4 != 0) return {};
  return out;
}

std::string tool_answer_text(const Response& response, std::string_view tool) {
  const ErrorDetails& details = response.details();
  if (is_2xx(response)) {
    if (!details.body_error.empty()) return std::string(details.body_error);  // masked error
    return std::string(response.tool_result());
  }
  const int status = response.status;
  if (!details.error_message.empty()) {
    return fmt::format("The tool {} failed with HTTP {}: {}", tool, status, details.error_message);
  }
  if (status == 429) return fmt::format("The tool {} is rate limited (HTTP 429).", tool);
  if (status == 503 || status == 529) return fmt::format("The tool {} is overloaded (HTTP {}).", tool, status);
  if (status >= 500) return fmt::format("The tool {} had an internal error (HTTP {}).", tool, status);
  return fmt::format("The tool {} rejected the request (HTTP {}).", tool, status);
}

std::string McpToolWire::body(const Response& response) const {
  return rpc_result(id_, call_tool_result(tool_answer_text(response, tool_), false, stateless_));
}

WireError McpToolWire::error(const Response& response) const {
  if (!stateless_ && response.status == 404) {
    if (on_session_expired_) on_session_expired_();
    return WireError{404, rpc_error(id_, McpErrorCode::session_not_found, "Session not found")};
  }
  return WireError{200, rpc_result(id_, call_tool_result(tool_answer_text(response, tool_), true, stateless_))};
}

}  // namespace squall::live

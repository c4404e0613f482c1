// LiveService's MCP endpoint, /p/{provider}/mcp (docs/live.md, "MCP tools"): the HTTP
// rules of the Streamable HTTP transport (Origin, methods, media types, sessions, the
// stateless era's headers), then JSON-RPC dispatch. tools/call goes through
// LiveService::begin, as every other endpoint's call, so that the tool provider's faults,
// latency and capacity decide its answer.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "engine/runtime/rng.hpp"
#include "live/live_service.hpp"
#include "live/mcp_wire.hpp"

namespace squall::live {
namespace {

using nlohmann::json;

constexpr std::string_view kSessionHeader = "mcp-session-id";
constexpr std::string_view kVersionHeader = "mcp-protocol-version";

std::optional<std::string_view> header(const HttpRequest& request, std::string_view name) {
  const auto it = request.find(boost::beast::string_view(name.data(), name.size()));
  if (it == request.end()) return std::nullopt;
  return std::string_view(it->value().data(), it->value().size());
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// Accept absent (curl, hand-written clients), or naming JSON or a wildcard that covers it.
bool accepts_json(const HttpRequest& request) {
  const auto accept = header(request, "accept");
  if (!accept) return true;
  const std::string value = lower(*accept);
  return value.find("application/json") != std::string::npos || value.find("application/*") != std::string::npos ||
         value.find("*/*") != std::string::npos;
}

bool json_content(const HttpRequest& request) {
  const auto type = header(request, "content-type");
  return type && lower(*type).starts_with("application/json");
}

// An Origin is allowed when its host is a loopback name or address, or is the Host the
// request was sent to (a page served by the same server): the DNS-rebinding defence the
// transport asks for.
bool origin_allowed(const HttpRequest& request) {
  const auto origin = header(request, "origin");
  if (!origin) return true;
  const std::size_t scheme = origin->find("://");
  if (scheme == std::string_view::npos) return false;
  const std::string_view authority = origin->substr(scheme + 3);
  if (authority.empty()) return false;
  const std::string_view host =
      authority.substr(0, authority[0] == '[' ? authority.find(']') + 1 : authority.find(':'));
  if (host == "localhost" || host == "127.0.0.1" || host == "[::1]") return true;
  const auto host_header = header(request, "host");
  return host_header && *host_header == authority;
}

HttpResponse rpc_response(http::status status, std::string body) {
  HttpResponse response{status, 11};
  response.set(http::field::content_type, "application/json");
  response.body() = std::move(body);
  return response;
}

void reply_rpc_error(HttpSession& session, http::status status, const json& id, McpErrorCode code,
                     std::string_view message, const json& data = nullptr) {
  session.reply(rpc_response(status, rpc_error(id, code, message, data)));
}

void reply_accepted(HttpSession& session) { session.reply(HttpResponse{http::status::accepted, 11}); }

void method_not_allowed(HttpSession& session, std::string_view why) {
  HttpResponse response =
      rpc_response(http::status::method_not_allowed,
                   rpc_error(nullptr, McpErrorCode::invalid_request, fmt::format("Method Not Allowed: {}", why)));
  response.set(http::field::allow, "POST, DELETE");
  session.reply(std::move(response));
}

// The stateless era is chosen by a request that says it speaks it (transports
// "Backward Compatibility": a dual-era server selects the era from how the client opens).
bool stateless_request(const HttpRequest& request, const McpMessage& message) {
  if (header(request, "mcp-method")) return true;
  if (header(request, kVersionHeader) == std::optional<std::string_view>(kMcpStatelessVersion)) return true;
  const auto meta = message.params.find("_meta");
  return meta != message.params.end() && meta->is_object() && meta->contains(kMcpVersionMetaKey);
}

}  // namespace

void LiveService::mcp(const std::shared_ptr<HttpSession>& session, const HttpRequest& request, std::string_view name) {
  LiveProvider* provider = world_.find(name);
  if (provider == nullptr) {
    return reply_rpc_error(*session, http::status::not_found, nullptr, McpErrorCode::invalid_request,
                           fmt::format("The provider `{}` does not exist in this scenario.", name));
  }
  const ProviderKind kind = describe(*provider->config).kind;
  if (kind != ProviderKind::tool) {
    return reply_rpc_error(*session, http::status::bad_request, nullptr, McpErrorCode::invalid_request,
                           fmt::format("The provider `{}` is a {} provider: /p/{}/mcp serves tool providers.", name,
                                       to_string(kind), name));
  }
  if (!origin_allowed(request)) {
    return reply_rpc_error(*session, http::status::forbidden, nullptr, McpErrorCode::invalid_request,
                           fmt::format("Forbidden: Origin {} is not allowed", *header(request, "origin")));
  }
  if (request.method() == http::verb::get) return method_not_allowed(*session, "squall opens no SSE stream");
  if (request.method() == http::verb::delete_) return mcp_delete(*session, request, *provider);
  if (request.method() != http::verb::post) return method_not_allowed(*session, "the MCP endpoint takes POST");
  if (!json_content(request)) {
    return reply_rpc_error(*session, http::status::unsupported_media_type, nullptr, McpErrorCode::invalid_request,
                           "Unsupported Media Type: Content-Type must be application/json");
  }
  if (!accepts_json(request)) {
    return reply_rpc_error(*session, http::status::not_acceptable, nullptr, McpErrorCode::invalid_request,
                           "Not Acceptable: the client must accept application/json");
  }
  auto parsed = parse_mcp_message(request.body());
  if (auto* error = std::get_if<WireError>(&parsed)) {
    return session->reply(rpc_response(static_cast<http::status>(error->status), std::move(error->body)));
  }
  McpMessage& message = std::get<McpMessage>(parsed);
  if (message.method == "initialize" && !message.notification) return mcp_initialize(*session, *provider, message);
  if (stateless_request(request, message)) return mcp_stateless(session, request, *provider, std::move(message));
  mcp_session_era(session, request, *provider, std::move(message));
}

void LiveService::mcp_initialize(HttpSession& session, const LiveProvider& provider, const McpMessage& message) {
  const auto requested = message.params.find("protocolVersion");
  if (requested == message.params.end() || !requested->is_string()) {
    return reply_rpc_error(session, http::status::ok, message.id, McpErrorCode::invalid_params,
                           "Invalid params: protocolVersion must be a string");
  }
  const std::string_view version = negotiate_session_version(requested->get_ref<const std::string&>());
  const std::string id = mcp_sessions_.open(provider.config->name, version);
  HttpResponse response =
      rpc_response(http::status::ok, rpc_result(message.id, initialize_result(version, provider.config->name)));
  response.set(boost::beast::string_view(kSessionHeader.data(), kSessionHeader.size()), id);
  session.reply(std::move(response));
}

void LiveService::mcp_session_era(const std::shared_ptr<HttpSession>& session, const HttpRequest& request,
                                  LiveProvider& provider, McpMessage message) {
  const auto id = header(request, kSessionHeader);
  if (!id) {
    return reply_rpc_error(*session, http::status::bad_request, nullptr, McpErrorCode::invalid_request,
                           "Bad Request: Mcp-Session-Id header is required");
  }
  if (mcp_sessions_.find(*id, provider.config->name) == nullptr) {
    return reply_rpc_error(*session, http::status::not_found, nullptr, McpErrorCode::session_not_found,
                           "Session not found");
  }
  if (const auto version = header(request, kVersionHeader); version && !is_session_version(*version)) {
    return reply_rpc_error(*session, http::status::bad_request, nullptr, McpErrorCode::invalid_request,
                           fmt::format("Bad Request: Unsupported protocol version: {} (supported versions: {})",
                                       *version, fmt::join(kMcpSessionVersions, ", ")));
  }
  if (message.notification || message.response) return reply_accepted(*session);
  if (message.method == "ping")
    return session->reply(rpc_response(http::status::ok, rpc_result(message.id, json::object())));
  if (message.method == "tools/list") {
    const std::vector<std::string_view> tools = world_.tool_names(provider);
    return session->reply(
        rpc_response(http::status::ok, rpc_result(message.id, tools_list_result(tools, provider.config->name, false))));
  }
  if (message.method == "tools/call") return mcp_tool_call(session, request, provider, message, std::string(*id));
  reply_rpc_error(*session, http::status::ok, message.id, McpErrorCode::method_not_found,
                  fmt::format("Method not found: {}", message.method));
}

void LiveService::mcp_stateless(const std::shared_ptr<HttpSession>& session, const HttpRequest& request,
                                LiveProvider& provider, McpMessage message) {
  const auto mismatch = [&](std::string_view why) {
    reply_rpc_error(*session, http::status::bad_request, message.id, McpErrorCode::header_mismatch,
                    fmt::format("Header mismatch: {}", why));
  };
  const auto version = header(request, kVersionHeader);
  if (!version) return mismatch("the MCP-Protocol-Version header is required");
  const json& meta = message.params.contains("_meta") ? message.params["_meta"] : json();
  const auto stated = meta.is_object() ? meta.find(kMcpVersionMetaKey) : meta.end();
  if (!meta.is_object() || stated == meta.end() || !stated->is_string()) {
    return reply_rpc_error(*session, http::status::bad_request, message.id, McpErrorCode::invalid_params,
                           fmt::format("Invalid params: _meta[\"{}\"] is required", kMcpVersionMetaKey));
  }
  if (stated->get_ref<const std::string&>() != *version) {
    return mismatch(fmt::format("MCP-Protocol-Version header value '{}' does not match body value '{}'", *version,
                                stated->get_ref<const std::string&>()));
  }
  if (*version != kMcpStatelessVersion) {
    return reply_rpc_error(*session, http::status::bad_request, message.id, McpErrorCode::unsupported_protocol_version,
                           "Unsupported protocol version", unsupported_version_data(*version));
  }
  if (message.notification || message.response) return reply_accepted(*session);
  const auto method = header(request, "mcp-method");
  if (!method) return mismatch("the Mcp-Method header is required");
  if (*method != message.method) {
    return mismatch(
        fmt::format("Mcp-Method header value '{}' does not match body value '{}'", *method, message.method));
  }
  if (message.method == "server/discover") {
    return session->reply(
        rpc_response(http::status::ok, rpc_result(message.id, discover_result(provider.config->name))));
  }
  if (message.method == "tools/list") {
    const std::vector<std::string_view> tools = world_.tool_names(provider);
    return session->reply(
        rpc_response(http::status::ok, rpc_result(message.id, tools_list_result(tools, provider.config->name, true))));
  }
  if (message.method == "tools/call") {
    const auto name = header(request, "mcp-name");
    const auto body_name = message.params.find("name");
    const std::string decoded = name ? decode_mcp_header_value(*name) : std::string();
    if (!name) return mismatch("the Mcp-Name header is required for tools/call");
    if (body_name == message.params.end() || !body_name->is_string() ||
        body_name->get_ref<const std::string&>() != decoded) {
      return mismatch(fmt::format("Mcp-Name header value '{}' does not match body value '{}'", decoded,
                                  body_name == message.params.end() ? std::string() : body_name->dump()));
    }
    return mcp_tool_call(session, request, provider, message, {});
  }
  reply_rpc_error(*session, http::status::not_found, message.id, McpErrorCode::method_not_found,
                  fmt::format("Method not found: {}", message.method));
}

void LiveService::mcp_tool_call(const std::shared_ptr<HttpSession>& session, const HttpRequest& request,
                                LiveProvider& provider, const McpMessage& message, std::string session_id) {
  const auto invalid = [&](std::string message_text) {
    reply_rpc_error(*session, http::status::ok, message.id, McpErrorCode::invalid_params, message_text);
  };
  const auto name = message.params.find("name");
  if (name == message.params.end() || !name->is_string()) return invalid("Invalid params: name must be a string");
  const auto arguments = message.params.find("arguments");
  if (arguments != message.params.end() && !arguments->is_object() && !arguments->is_null()) {
    return invalid("Invalid params: arguments must be an object");
  }
  const std::vector<std::string_view> tools = world_.tool_names(provider);
  const std::string& wanted = name->get_ref<const std::string&>();
  const auto tool = std::find(tools.begin(), tools.end(), wanted);
  if (tool == tools.end()) return invalid(fmt::format("Unknown tool: {}", wanted));
  const bool stateless = session_id.empty();
  auto on_expired = [this, id = std::move(session_id)] { mcp_sessions_.end(id); };
  begin(session, request, provider, *tool, Request{}, false, [&](std::uint64_t who, std::int64_t) {
    return std::make_unique<McpToolWire>(message.id, std::string(*tool), stateless, std::move(on_expired),
                                         fmt::format("req_{:016x}", who));
  });
}

void LiveService::mcp_delete(HttpSession& session, const HttpRequest& request, const LiveProvider& provider) {
  const auto id = header(request, kSessionHeader);
  if (!id) return method_not_allowed(session, "no session to end (the stateless era has none)");
  if (mcp_sessions_.find(*id, provider.config->name) == nullptr) {
    return reply_rpc_error(session, http::status::not_found, nullptr, McpErrorCode::session_not_found,
                           "Session not found");
  }
  mcp_sessions_.end(*id);
  session.reply(HttpResponse{http::status::ok, 11});
}

}  // namespace squall::live

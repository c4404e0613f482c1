// The wire shapes of squall's MCP endpoint (docs/live.md, "MCP tools"): JSON-RPC 2.0
// messages of the Model Context Protocol over Streamable HTTP, as the specification
// (modelcontextprotocol.io/specification, revisions 2025-03-26 to 2025-11-25 and
// 2026-07-28) defines them, for a scenario's `tool` providers at POST /p/{provider}/mcp.
//
//   session era   initialize -> InitializeResult (+ Mcp-Session-Id), notifications/initialized,
//                 ping, tools/list, tools/call; versions kMcpSessionVersions
//   stateless era every request carries params._meta["io.modelcontextprotocol/protocolVersion"]
//                 and the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers; methods
//                 server/discover, tools/list, tools/call; version kMcpStatelessVersion
//
// A tool failure (the provider's non-2xx answer) is a result with `isError: true` and a
// text content naming it; protocol failures are JSON-RPC errors (McpErrorCode) with the
// HTTP status the transport section gives each (live/mcp_routes.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "engine/call.hpp"
#include "live/openai_wire.hpp"
#include "live/wire_format.hpp"

namespace squall::live {

// The handshake-era revisions squall speaks, newest first: the one an initialize names,
// else the newest (the lifecycle's "Version Negotiation").
inline constexpr std::array<std::string_view, 3> kMcpSessionVersions{"2025-11-25", "2025-06-18", "2025-03-26"};
// The stateless revision (no initialize, no Mcp-Session-Id; per-request _meta).
inline constexpr std::string_view kMcpStatelessVersion = "2026-07-28";
// The _meta key of a stateless request's protocol version.
inline constexpr std::string_view kMcpVersionMetaKey = "io.modelcontextprotocol/protocolVersion";

// JSON-RPC 2.0's codes (jsonrpc.org/specification, section 5.1), the code the MCP SDKs'
// servers answer for an unknown session, and the 2026-07-28 protocol errors.
enum class McpErrorCode : int {
  parse_error = -32700,
  invalid_request = -32600,
  method_not_found = -32601,
  invalid_params = -32602,
  session_not_found = -32001,
  header_mismatch = -32020,
  unsupported_protocol_version = -32022,
};

// One JSON-RPC message a client posted.
struct McpMessage {
  nlohmann::json id;  // a string or an integer; null for a notification or a response
  std::string method;
  nlohmann::json params = nlohmann::json::object();  // always an object
  bool notification = false;                         // a method without an id
  bool response = false;                             // a result or an error (to a server request)
};

// Parses one JSON-RPC message. Errors, with HTTP 400: not JSON (-32700 "Parse error"),
// nested deeper than kMaxRequestJsonDepth (-32700 "Parse error: " too_deep_message()); a
// batch (an array: removed in 2025-06-18, "Invalid Request: batches are not supported"),
// not an object, `jsonrpc` other than "2.0", an id that is neither a string nor an
// integer, a method that is not a string, params that are not an object (-32600).
std::variant<McpMessage, WireError> parse_mcp_message(std::string_view body);

// `{"jsonrpc":"2.0","id":ID,"error":{"code","message"[,"data"]}}` and `{"jsonrpc":"2.0",
// "id":ID,"result":RESULT}`, in that order (RESULT's keys sorted, as nlohmann prints them).
std::string rpc_error(const nlohmann::json& id, McpErrorCode code, std::string_view message,
                      const nlohmann::json& data = nullptr);
std::string rpc_result(const nlohmann::json& id, const nlohmann::json& result);

// The protocol version an initialize asks for, as the server answers it: the same when
// squall speaks it, else the newest session-era version.
std::string_view negotiate_session_version(std::string_view requested);
bool is_session_version(std::string_view version);
// InitializeResult: protocolVersion, capabilities {tools: {listChanged: false}},
// serverInfo {name: "squall", version}, instructions naming the provider.
nlohmann::json initialize_result(std::string_view version, std::string_view provider);
// DiscoverResult (2026-07-28): supportedVersions, capabilities, serverInfo.
nlohmann::json discover_result(std::string_view provider);
// ListToolsResult: one tool per name, inputSchema {"type": "object"} (any arguments);
// `stateless` adds resultType "complete".
nlohmann::json tools_list_result(std::span<const std::string_view> tools, std::string_view provider, bool stateless);
// The UnsupportedProtocolVersionError's data: {"supported": [...], "requested"}.
nlohmann::json unsupported_version_data(std::string_view requested);

// An Mcp-Name or Mcp-Param-* header's value: `=?base64?B64?=` decoded (the transport's
// "Value Encoding"), any other value as it is; a sentinel whose base64 is invalid decodes
// to the empty string, which matches no body value.
std::string decode_mcp_header_value(std::string_view value);

// The text of a tool's answer: its result body on a 2xx (a masked error's body as the
// scenario gave it), else a sentence naming the tool, the status and the reason.
std::string tool_answer_text(const Response& response, std::string_view tool);

// A tools/call's answer as a WireFormat (never streamed): a 2xx is a CallToolResult with
// isError false, a non-2xx one with isError true (HTTP 200 both), except in the session
// era a provider's 404 (a `client_error` fault with status 404): the session has expired,
// `on_session_expired` is called and the answer is HTTP 404 with -32001 "Session not
// found", which tells the client to initialize again (transport section, "Session
// Management"). Headers: x-request-id and openai-processing-ms (add_openai_headers).
class McpToolWire final : public UnstreamedOpenAiWire {
 public:
  McpToolWire(nlohmann::json id, std::string tool, bool stateless, std::function<void()> on_session_expired,
              std::string request_id)
      : UnstreamedOpenAiWire(std::move(request_id)),
        id_(std::move(id)),
        tool_(std::move(tool)),
        stateless_(stateless),
        on_session_expired_(std::move(on_session_expired)) {}
  std::string body(const Response& response) const override;
  WireError error(const Response& response) const override;

 private:
  nlohmann::json id_;
  std::string tool_;
  bool stateless_;
  std::function<void()> on_session_expired_;
};

}  // namespace squall::live

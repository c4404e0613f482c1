// The MCP wire (live/mcp_wire.hpp) and its session table (live/mcp_sessions.hpp): JSON-RPC
// parsing and its exact errors, the result and error shapes, version negotiation, the
// header value decoding, a tool's answer as a CallToolResult or an expired session.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/error_details.hpp"
#include "live/mcp_sessions.hpp"
#include "live/mcp_wire.hpp"

namespace squall::live {
namespace {

using nlohmann::json;

std::string parse_error_body(std::string_view body) {
  auto parsed = parse_mcp_message(body);
  const auto* error = std::get_if<WireError>(&parsed);
  if (error == nullptr) return "parsed";
  EXPECT_EQ(error->status, 400) << body;
  return error->body;
}

TEST(McpWireTest, ParsesRequestsNotificationsAndResponses) {
  auto request = std::get<McpMessage>(
      parse_mcp_message(R"({"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"name":"crm_lookup"}})"));
  EXPECT_EQ(request.id, "a-1");
  EXPECT_EQ(request.method, "tools/call");
  EXPECT_EQ(request.params["name"], "crm_lookup");
  EXPECT_FALSE(request.notification);
  auto notification =
      std::get<McpMessage>(parse_mcp_message(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
  EXPECT_TRUE(notification.notification);
  EXPECT_TRUE(notification.params.is_object());
  auto response = std::get<McpMessage>(parse_mcp_message(R"({"jsonrpc":"2.0","id":7,"result":{}})"));
  EXPECT_TRUE(response.response);
  EXPECT_EQ(response.id, 7);
}

TEST(McpWireTest, RefusesWhatIsNotOneJsonRpcMessage) {
  EXPECT_EQ(parse_error_body("{nope"),
            R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})");
  const auto invalid = [](std::string_view message) {
    return std::string(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":")") + std::string(message) +
           "\"}}";
  };
  EXPECT_EQ(parse_error_body(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])"),
            invalid("Invalid Request: batches are not supported"));
  EXPECT_EQ(parse_error_body("3"), invalid("Invalid Request: a message is a JSON object"));
  EXPECT_EQ(parse_error_body(R"({"jsonrpc":"1.0","id":1,"method":"ping"})"),
            invalid(R"(Invalid Request: jsonrpc must be \"2.0\")"));
  EXPECT_EQ(parse_error_body(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})"),
            invalid("Invalid Request: id must be a string or an integer"));
  EXPECT_EQ(parse_error_body(R"({"jsonrpc":"2.0","id":1,"method":3})"),
            invalid("Invalid Request: method must be a string"));
  EXPECT_EQ(parse_error_body(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":[1]})"),
            invalid("Invalid Request: params must be an object"));
  EXPECT_EQ(parse_error_body(R"({"jsonrpc":"2.0","id":1})"),
            invalid("Invalid Request: a message has a method, or a result or an error"));
}

TEST(McpWireTest, ErrorsAndResultsKeepTheIdAndCarryData) {
  EXPECT_EQ(rpc_error(json("x"), McpErrorCode::method_not_found, "Method not found: nope"),
            R"({"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"Method not found: nope"}})");
  EXPECT_EQ(rpc_error(json(4), McpErrorCode::unsupported_protocol_version, "Unsupported protocol version",
                      unsupported_version_data("1900-01-01")),
            R"({"jsonrpc":"2.0","id":4,"error":{"code":-32022,"message":"Unsupported protocol version","data":)"
            R"({"requested":"1900-01-01","supported":["2026-07-28","2025-11-25","2025-06-18","2025-03-26"]}}})");
  EXPECT_EQ(rpc_result(json(1), json::object()), R"({"jsonrpc":"2.0","id":1,"result":{}})");
}

TEST(McpWireTest, NegotiatesTheAskedVersionOrTheNewest) {
  EXPECT_EQ(negotiate_session_version("2025-06-18"), "2025-06-18");
  EXPECT_EQ(negotiate_session_version("2025-03-26"), "2025-03-26");
  EXPECT_EQ(negotiate_session_version("2024-11-05"), "2025-11-25");
  EXPECT_EQ(negotiate_session_version("2026-07-28"), "2025-11-25");  // no initialize in that era
  const json result = initialize_result("2025-06-18", "crm");
  EXPECT_EQ(result["protocolVersion"], "2025-06-18");
  EXPECT_EQ(result["capabilities"], json::parse(R"({"tools":{"listChanged":false}})"));
  EXPECT_EQ(result["serverInfo"]["name"], "squall");
  EXPECT_EQ(discover_result("crm")["supportedVersions"], json::parse(R"(["2026-07-28"])"));
}

TEST(McpWireTest, ListsEachToolWithAnObjectSchema) {
  const std::vector<std::string_view> tools{"crm_lookup", "crm_update"};
  EXPECT_EQ(tools_list_result(tools, "crm", false).dump(),
            R"({"tools":[{"description":"The scenario's tool `crm_lookup`, served by provider `crm`.",)"
            R"("inputSchema":{"type":"object"},"name":"crm_lookup"},{"description":"The scenario's tool )"
            R"(`crm_update`, served by provider `crm`.","inputSchema":{"type":"object"},"name":"crm_update"}]})");
  EXPECT_EQ(tools_list_result(tools, "crm", true)["resultType"], "complete");
}

TEST(McpWireTest, DecodesTheBase64SentinelOfHeaderValues) {
  EXPECT_EQ(decode_mcp_header_value("crm_lookup"), "crm_lookup");
  EXPECT_EQ(decode_mcp_header_value("=?base64?SGVsbG8sIOS4lueVjA==?="), "Hello, \xe4\xb8\x96\xe7\x95\x8c");
  EXPECT_EQ(decode_mcp_header_value("=?base64?IHBhZGRlZCA=?="), " padded ");
  EXPECT_EQ(decode_mcp_header_value("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="), "=?base64?literal?=");
  EXPECT_EQ(decode_mcp_header_value("=?base64?not base64!?="), "");
  EXPECT_EQ(decode_mcp_header_value("=?base64?abc?="), "");  // not a multiple of 4
}

TEST(McpWireTest, AToolFailureIsAnIsErrorResult) {
  McpToolWire wire(json(3), "crm_lookup", /*stateless=*/false, nullptr, "req_1");
  Response ok;
  ok.body = Body::tool_result;
  ok.set_tool_result(R"({"status":"ok"})");
  EXPECT_EQ(wire.body(ok),
            R"({"jsonrpc":"2.0","id":3,"result":{"content":[{"text":"{\"status\":\"ok\"}","type":"text"}],)"
            R"("isError":false}})");
  Response failed;
  failed.status = 500;
  const WireError error = wire.error(failed);
  EXPECT_EQ(error.status, 200);
  EXPECT_EQ(error.body,
            R"({"jsonrpc":"2.0","id":3,"result":{"content":[{"text":"The tool crm_lookup had an internal error )"
            R"((HTTP 500).","type":"text"}],"isError":true}})");
  const ErrorDetails invalid{.error_code = "invalid_arguments", .error_message = "Invalid arguments for crm"};
  Response rejected;
  rejected.status = 400;
  rejected.error_details = &invalid;
  EXPECT_EQ(tool_answer_text(rejected, "crm_lookup"),
            "The tool crm_lookup failed with HTTP 400: Invalid arguments for crm");
  Response limited;
  limited.status = 429;
  EXPECT_EQ(tool_answer_text(limited, "crm_lookup"), "The tool crm_lookup is rate limited (HTTP 429).");
  limited.status = 529;
  EXPECT_EQ(tool_answer_text(limited, "crm_lookup"), "The tool crm_lookup is overloaded (HTTP 529).");
  limited.status = 403;
  EXPECT_EQ(tool_answer_text(limited, "crm_lookup"), "The tool crm_lookup rejected the request (HTTP 403).");
}

TEST(McpWireTest, A404ExpiresTheSessionInTheSessionEraOnly) {
  int expired = 0;
  McpToolWire session_era(
      json(5), "crm_lookup", false, [&] { ++expired; }, "req_1");
  Response gone;
  gone.status = 404;
  const WireError error = session_era.error(gone);
  EXPECT_EQ(error.status, 404);
  EXPECT_EQ(error.body, R"({"jsonrpc":"2.0","id":5,"error":{"code":-32001,"message":"Session not found"}})");
  EXPECT_EQ(expired, 1);
  McpToolWire stateless(
      json(5), "crm_lookup", true, [&] { ++expired; }, "req_1");
  const WireError result = stateless.error(gone);
  EXPECT_EQ(result.status, 200);
  EXPECT_EQ(json::parse(result.body)["result"]["isError"], true);
  EXPECT_EQ(json::parse(result.body)["result"]["resultType"], "complete");
  EXPECT_EQ(expired, 1);
}

TEST(McpSessionsTest, OpensFindsEndsAndStaysBounded) {
  McpSessions sessions(17);
  const std::string a = sessions.open("crm", "2025-11-25");
  EXPECT_EQ(a.size(), 32u);
  ASSERT_NE(sessions.find(a, "crm"), nullptr);
  EXPECT_EQ(sessions.find(a, "crm")->protocol_version, "2025-11-25");
  EXPECT_EQ(sessions.find(a, "billing"), nullptr);  // another provider's endpoint
  McpSessions again(17);
  EXPECT_EQ(again.open("crm", "2025-11-25"), a);  // the same seed gives the same ids
  sessions.end(a);
  EXPECT_EQ(sessions.find(a, "crm"), nullptr);
  for (std::size_t i = 0; i < McpSessions::kMaxSessions + 5; ++i) sessions.open("crm", "2025-11-25");
  EXPECT_EQ(sessions.size(), McpSessions::kMaxSessions);
}

}  // namespace
}  // namespace squall::live

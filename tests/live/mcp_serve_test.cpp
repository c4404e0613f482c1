// `squall serve`'s MCP endpoint reached with a Beast client (tests/live/scenarios/mcp.json):
// the transport's HTTP rules (statuses, sessions, Origin, media types), the stateless
// era's header validation and its calls, and tool failures under the scripted faults.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "serve_process.hpp"

namespace squall::live::testing {
namespace {

using nlohmann::json;
using Headers = std::vector<std::pair<std::string, std::string>>;

std::string scenario() { return std::string(SQUALL_SOURCE_DIR) + "/tests/live/scenarios/mcp.json"; }

const std::string kMcp = "/p/crm/mcp";
const std::string kInitialize =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},)"
    R"("clientInfo":{"name":"test","version":"1"}}})";

Headers with_json(Headers more = {}) {
  more.emplace_back("content-type", "application/json");
  more.emplace_back("accept", "application/json, text/event-stream");
  return more;
}

http::response<http::string_body> post(ServeProcess& server, const std::string& body, Headers headers = {},
                                       const std::string& target = kMcp) {
  return send(server.port(), http::verb::post, target, body, with_json(std::move(headers)));
}

std::string rpc_error(const std::string& id, int code, const std::string& message) {
  return R"({"jsonrpc":"2.0","id":)" + id + R"(,"error":{"code":)" + std::to_string(code) + R"(,"message":")" +
         message + "\"}}";
}

// A stateless-era request: the _meta version and the headers that mirror the body.
std::string stateless_body(const std::string& method, const std::string& params = "{") {
  return R"({"jsonrpc":"2.0","id":9,"method":")" + method + R"(","params":)" + params +
         R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})";
}

Headers stateless_headers(const std::string& method, const std::string& name = "") {
  Headers headers{{"mcp-protocol-version", "2026-07-28"}, {"mcp-method", method}};
  if (!name.empty()) headers.emplace_back("mcp-name", name);
  return headers;
}

TEST(McpServeTest, SessionEraNeedsTheSessionItWasGiven) {
  ServeProcess server({scenario()});
  ASSERT_TRUE(server.started());
  const auto init = post(server, kInitialize);
  EXPECT_EQ(init.result_int(), 200);
  const std::string session(init["mcp-session-id"]);
  EXPECT_EQ(session.size(), 32u);
  EXPECT_EQ(json::parse(init.body())["result"]["protocolVersion"], "2025-06-18");
  const std::string list = R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})";
  const auto missing = post(server, list);
  EXPECT_EQ(missing.result_int(), 400);
  EXPECT_EQ(missing.body(), rpc_error("null", -32600, "Bad Request: Mcp-Session-Id header is required"));
  const auto unknown = post(server, list, {{"mcp-session-id", "feed"}});
  EXPECT_EQ(unknown.result_int(), 404);
  EXPECT_EQ(unknown.body(), rpc_error("null", -32001, "Session not found"));
  const Headers in_session{{"mcp-session-id", session}};
  const auto initialized = post(server, R"({"jsonrpc":"2.0","method":"notifications/initialized"})", in_session);
  EXPECT_EQ(initialized.result_int(), 202);
  EXPECT_EQ(initialized.body(), "");
  EXPECT_EQ(post(server, R"({"jsonrpc":"2.0","id":3,"method":"ping"})", in_session).body(),
            R"({"jsonrpc":"2.0","id":3,"result":{}})");
  const auto tools = json::parse(post(server, list, in_session).body())["result"]["tools"];
  EXPECT_EQ(tools.size(), 2u);
  const auto nope = post(server, R"({"jsonrpc":"2.0","id":4,"method":"resources/list"})", in_session);
  EXPECT_EQ(nope.result_int(), 200);
  EXPECT_EQ(nope.body(), rpc_error("4", -32601, "Method not found: resources/list"));
  Headers old_version = in_session;
  old_version.emplace_back("mcp-protocol-version", "2024-11-05");
  const auto version = post(server, list, old_version);
  EXPECT_EQ(version.result_int(), 400);
  EXPECT_EQ(version.body(), rpc_error("null", -32600,
                                      "Bad Request: Unsupported protocol version: 2024-11-05 (supported versions: "
                                      "2025-11-25, 2025-06-18, 2025-03-26)"));
  const auto unknown_tool =
      post(server, R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x"}})", in_session);
  EXPECT_EQ(unknown_tool.body(), rpc_error("5", -32602, "Unknown tool: x"));
  const auto deleted = send(server.port(), http::verb::delete_, kMcp, "", in_session);
  EXPECT_EQ(deleted.result_int(), 200);
  EXPECT_EQ(post(server, list, in_session).result_int(), 404);
  EXPECT_EQ(send(server.port(), http::verb::delete_, kMcp, "", in_session).result_int(), 404);
  EXPECT_EQ(stop(server), 1);  // no tools/call reached crm: its threshold (count>=6) fails
}

TEST(McpServeTest, TransportRulesAnswerWithTheirStatuses) {
  ServeProcess server({scenario()});
  ASSERT_TRUE(server.started());
  const auto get = send(server.port(), http::verb::get, kMcp);
  EXPECT_EQ(get.result_int(), 405);
  EXPECT_EQ(get[http::field::allow], "POST, DELETE");
  EXPECT_EQ(get.body(), rpc_error("null", -32600, "Method Not Allowed: squall opens no SSE stream"));
  EXPECT_EQ(send(server.port(), http::verb::put, kMcp).result_int(), 405);
  EXPECT_EQ(send(server.port(), http::verb::delete_, kMcp).body(),
            rpc_error("null", -32600, "Method Not Allowed: no session to end (the stateless era has none)"));
  const auto text = send(server.port(), http::verb::post, kMcp, kInitialize, {{"content-type", "text/plain"}});
  EXPECT_EQ(text.result_int(), 415);
  EXPECT_EQ(text.body(), rpc_error("null", -32600, "Unsupported Media Type: Content-Type must be application/json"));
  const auto sse_only = send(server.port(), http::verb::post, kMcp, kInitialize,
                             {{"content-type", "application/json"}, {"accept", "text/event-stream"}});
  EXPECT_EQ(sse_only.result_int(), 406);
  EXPECT_EQ(sse_only.body(), rpc_error("null", -32600, "Not Acceptable: the client must accept application/json"));
  const auto evil = post(server, kInitialize, {{"origin", "http://evil.example"}});
  EXPECT_EQ(evil.result_int(), 403);
  EXPECT_EQ(evil.body(), rpc_error("null", -32600, "Forbidden: Origin http://evil.example is not allowed"));
  EXPECT_EQ(post(server, kInitialize, {{"origin", "http://localhost:5173"}}).result_int(), 200);
  EXPECT_EQ(post(server, kInitialize, {{"origin", "http://[::1]:8080"}}).result_int(), 200);
  const std::string own = "http://127.0.0.1:" + std::to_string(server.port());
  EXPECT_EQ(post(server, kInitialize, {{"origin", own}}).result_int(), 200);
  EXPECT_EQ(post(server, kInitialize, {{"origin", "http://"}}).result_int(), 403);
  EXPECT_EQ(post(server, kInitialize, {{"origin", "null"}}).result_int(), 403);
  const auto parse = post(server, "{");
  EXPECT_EQ(parse.result_int(), 400);
  EXPECT_EQ(parse.body(), rpc_error("null", -32700, "Parse error"));
  const auto nobody = post(server, kInitialize, {}, "/p/ghost/mcp");
  EXPECT_EQ(nobody.result_int(), 404);
  EXPECT_EQ(nobody.body(), rpc_error("null", -32600, "The provider `ghost` does not exist in this scenario."));
  const auto search = post(server, kInitialize, {}, "/p/search/mcp");
  EXPECT_EQ(search.result_int(), 400);
  EXPECT_EQ(search.body(), rpc_error("null", -32600,
                                     "The provider `search` is a web_search provider: /p/search/mcp serves tool "
                                     "providers."));
  stop(server);
}

TEST(McpServeTest, StatelessEraValidatesItsHeaders) {
  ServeProcess server({scenario()});
  ASSERT_TRUE(server.started());
  const auto no_version = post(server, stateless_body("tools/list"), {{"mcp-method", "tools/list"}});
  EXPECT_EQ(no_version.result_int(), 400);
  EXPECT_EQ(no_version.body(), rpc_error("9", -32020, "Header mismatch: the MCP-Protocol-Version header is required"));
  const auto no_meta =
      post(server, R"({"jsonrpc":"2.0","id":9,"method":"tools/list"})", stateless_headers("tools/list"));
  EXPECT_EQ(no_meta.result_int(), 400);
  EXPECT_EQ(
      no_meta.body(),
      rpc_error("9", -32602, R"(Invalid params: _meta[\"io.modelcontextprotocol/protocolVersion\"] is required)"));
  Headers other{{"mcp-protocol-version", "2025-11-25"}, {"mcp-method", "tools/list"}};
  const auto differs = post(server, stateless_body("tools/list"), other);
  EXPECT_EQ(differs.body(), rpc_error("9", -32020,
                                      "Header mismatch: MCP-Protocol-Version header value '2025-11-25' does not "
                                      "match body value '2026-07-28'"));
  const std::string future = R"({"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"_meta":)"
                             R"({"io.modelcontextprotocol/protocolVersion":"2099-01-01"}}})";
  const auto unsupported = post(server, future, {{"mcp-protocol-version", "2099-01-01"}, {"mcp-method", "tools/list"}});
  EXPECT_EQ(unsupported.result_int(), 400);
  EXPECT_EQ(json::parse(unsupported.body())["error"]["code"], -32022);
  EXPECT_EQ(json::parse(unsupported.body())["error"]["data"]["requested"], "2099-01-01");
  const auto method = post(server, stateless_body("tools/list"), stateless_headers("tools/call"));
  EXPECT_EQ(method.body(), rpc_error("9", -32020,
                                     "Header mismatch: Mcp-Method header value 'tools/call' does not match body "
                                     "value 'tools/list'"));
  const std::string call = stateless_body("tools/call", R"({"name":"crm_lookup",)");
  EXPECT_EQ(post(server, call, stateless_headers("tools/call")).body(),
            rpc_error("9", -32020, "Header mismatch: the Mcp-Name header is required for tools/call"));
  EXPECT_EQ(
      post(server, call, stateless_headers("tools/call", "crm_update")).body(),
      rpc_error("9", -32020,
                R"(Header mismatch: Mcp-Name header value 'crm_update' does not match body value '\"crm_lookup\"')"));
  const auto discover = post(server, stateless_body("server/discover"), stateless_headers("server/discover"));
  EXPECT_EQ(json::parse(discover.body())["result"]["supportedVersions"], json::parse(R"(["2026-07-28"])"));
  EXPECT_EQ(discover["mcp-session-id"], "");  // no sessions in this era
  const auto unknown = post(server, stateless_body("prompts/list"), stateless_headers("prompts/list"));
  EXPECT_EQ(unknown.result_int(), 404);
  EXPECT_EQ(unknown.body(), rpc_error("9", -32601, "Method not found: prompts/list"));
  stop(server);
}

TEST(McpServeTest, StatelessToolCallsMeetTheScriptedFaults) {
  ServeProcess server({scenario(), "--time-scale", "2"});
  ASSERT_TRUE(server.started());
  const std::string call = stateless_body("tools/call", R"({"name":"crm_lookup","arguments":{"id":1},)");
  // The Mcp-Name in its base64 form decodes to the body's name.
  const Headers headers = stateless_headers("tools/call", "=?base64?Y3JtX2xvb2t1cA==?=");
  std::vector<json> results;
  std::vector<std::string> retry_after;
  for (int i = 0; i < 6; ++i) {
    const auto answer = post(server, call, headers);
    EXPECT_EQ(answer.result_int(), 200) << i;  // a 404 fault is no session expiry here: no session
    results.push_back(json::parse(answer.body())["result"]);
    retry_after.emplace_back(answer[http::field::retry_after]);
  }
  EXPECT_EQ(results[0]["isError"], false);
  EXPECT_EQ(results[0]["resultType"], "complete");
  EXPECT_EQ(results[0]["content"][0]["text"], R"({"status":"ok"})");
  EXPECT_EQ(results[1]["content"][0]["text"], "The tool crm_lookup had an internal error (HTTP 500).");
  EXPECT_EQ(results[2]["isError"], true);
  EXPECT_EQ(results[3]["isError"], true);
  EXPECT_EQ(results[3]["content"][0]["text"], "The tool crm_lookup rejected the request (HTTP 404).");
  EXPECT_EQ(results[4]["isError"], false);
  EXPECT_EQ(results[5]["content"][0]["text"], "The tool crm_lookup is rate limited (HTTP 429).");
  EXPECT_EQ(retry_after[5], "1");  // 2 s of scenario time at --time-scale 2
  EXPECT_EQ(stop(server), 0);
}

}  // namespace
}  // namespace squall::live::testing

// The bounded parser of request bodies (live/request_json.hpp) and the wire parsers that
// use it: a body nested deeper than 512 levels is refused, in each API's error shape,
// without building (or copying, printing, destroying) anything deeper.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "live/anthropic_wire.hpp"
#include "live/embeddings_wire.hpp"
#include "live/mcp_wire.hpp"
#include "live/openai_wire.hpp"
#include "live/request_json.hpp"
#include "live/retrieval_wire.hpp"

namespace squall::live {
namespace {

using nlohmann::json;

// `depth` arrays, one inside the other: "[[...]]".
std::string nested(int depth) {
  const auto n = static_cast<std::size_t>(depth);
  return std::string(n, '[') + std::string(n, ']');
}

template <class Parsed>
WireError error_of(Parsed parsed) {
  EXPECT_TRUE(std::holds_alternative<WireError>(parsed));
  return std::holds_alternative<WireError>(parsed) ? std::get<WireError>(parsed) : WireError{};
}

TEST(RequestJsonTest, ParsesUpToTheDepthLimit) {
  json value;
  ASSERT_EQ(parse_request_json(nested(kMaxRequestJsonDepth), value), RequestJsonError::none);
  int depth = 0;
  for (const json* at = &value; at->is_array(); at = &(*at)[0]) {
    ++depth;
    if (at->empty()) break;
  }
  EXPECT_EQ(depth, kMaxRequestJsonDepth);
  nlohmann::ordered_json ordered;
  EXPECT_EQ(parse_request_json(R"({"a": [1, {"b": null}], "c": "d"})", ordered), RequestJsonError::none);
  EXPECT_EQ(ordered.dump(), R"({"a":[1,{"b":null}],"c":"d"})");
}

TEST(RequestJsonTest, OneLevelMoreIsTooDeepAndObjectsCountAsLevels) {
  json value = json::object();
  EXPECT_EQ(parse_request_json(nested(kMaxRequestJsonDepth + 1), value), RequestJsonError::too_deep);
  EXPECT_TRUE(value.is_null());
  std::string objects;
  for (int i = 0; i < kMaxRequestJsonDepth; ++i) objects += R"({"a":)";
  objects += "[]";  // level 513
  objects += std::string(static_cast<std::size_t>(kMaxRequestJsonDepth), '}');
  EXPECT_EQ(parse_request_json(objects, value), RequestJsonError::too_deep);
}

TEST(RequestJsonTest, AHundredThousandBracketsAreRefusedNotACrash) {
  // Unbalanced (as an attacker sends them) and balanced: both stop at level 513.
  const std::string open(100'000, '[');
  json value;
  EXPECT_EQ(parse_request_json(open, value), RequestJsonError::too_deep);
  EXPECT_EQ(parse_request_json(nested(100'000), value), RequestJsonError::too_deep);
  EXPECT_EQ(too_deep_message(), "The JSON body of the request is nested deeper than the server's limit of 512 levels.");
}

TEST(RequestJsonTest, SyntaxErrorsAndBytesThatAreNotUtf8) {
  json value;
  EXPECT_EQ(parse_request_json("{not json", value), RequestJsonError::syntax);
  EXPECT_EQ(parse_request_json("{} {}", value), RequestJsonError::syntax);  // one value only
  EXPECT_EQ(parse_request_json("", value), RequestJsonError::syntax);
  EXPECT_EQ(parse_request_json("\"\xff\xfe\"", value), RequestJsonError::syntax);
  EXPECT_EQ(parse_request_json("\"\\udc00\"", value), RequestJsonError::syntax);  // a lone low surrogate
  EXPECT_TRUE(value.is_null());
}

TEST(RequestJsonTest, TypeNamesAreTheApisWords) {
  EXPECT_EQ(json_type_name(json("x")), "a string");
  EXPECT_EQ(json_type_name(json(true)), "a boolean");
  EXPECT_EQ(json_type_name(json(5)), "an integer");
  EXPECT_EQ(json_type_name(json(-5)), "an integer");
  EXPECT_EQ(json_type_name(json(0.5)), "a number");
  EXPECT_EQ(json_type_name(json::array()), "an array");
  EXPECT_EQ(json_type_name(json::object()), "an object");
  EXPECT_EQ(json_type_name(json()), "null");
}

TEST(RequestJsonTest, EveryWireAnswersTooDeepInItsOwnShape) {
  const std::string deep = R"({"model": "m", "messages": )" + nested(100'000) + "}";
  EXPECT_EQ(error_of(parse_chat_request(deep)).body,
            R"({"error":{"message":"The JSON body of the request is nested deeper than the server's limit of 512 )"
            R"(levels.","type":"invalid_request_error","param":null,"code":null}})");
  EXPECT_EQ(error_of(parse_embeddings_request(deep)).body, error_of(parse_chat_request(deep)).body);
  EXPECT_EQ(error_of(parse_retrieval_request(RetrievalKind::web_search, deep)).body,
            error_of(parse_chat_request(deep)).body);
  EXPECT_EQ(error_of(parse_messages_request(deep)).body,
            R"({"type":"error","error":{"type":"invalid_request_error","message":"The JSON body of the request is )"
            R"(nested deeper than the server's limit of 512 levels."}})");
  const WireError mcp = error_of(parse_mcp_message(deep));
  EXPECT_EQ(mcp.status, 400);
  EXPECT_EQ(mcp.body,
            R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: The JSON body of the request )"
            R"(is nested deeper than the server's limit of 512 levels."}})");
}

TEST(RequestJsonTest, ErrorBodiesPrintBytesThatAreNotUtf8AsReplacementCharacters) {
  // A path or a header quoted in a message used to make dump() throw (type_error 316).
  EXPECT_EQ(error_body("Invalid URL (GET /\xff)", "invalid_request_error", "", ""),
            "{\"error\":{\"message\":\"Invalid URL (GET /\xef\xbf\xbd)\",\"type\":\"invalid_request_error\","
            "\"param\":null,\"code\":null}}");
  EXPECT_EQ(anthropic_error_body("not_found_error", "model: \xc3", ""),
            "{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"model: \xef\xbf\xbd\"}}");
  EXPECT_EQ(rpc_error(nullptr, McpErrorCode::header_mismatch, "Header mismatch: '\xff'", json{{"requested", "\xfe"}}),
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32020,\"message\":\"Header mismatch: "
            "'\xef\xbf\xbd'\",\"data\":{\"requested\":\"\xef\xbf\xbd\"}}}");
}

}  // namespace
}  // namespace squall::live

// The one parser of request bodies for every endpoint of `squall serve` (docs/live.md,
// "Limits"), bounded in nesting depth, and the words its callers' errors share.
//
// nlohmann::json parses iteratively, but copying, comparing and printing a value recurse
// once per level, so a body of 100,000 `[` that one of those reached overflowed the stack
// and killed the server. A body nested deeper than kMaxRequestJsonDepth is refused while
// it is parsed (a SAX handler that stops at the first array or object too deep), before
// any value deeper than that exists; each endpoint answers that refusal in its API's own
// error shape (OpenAI's and Anthropic's invalid_request_error, JSON-RPC's parse error).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace squall::live {

// Levels of arrays and objects a request body may nest: 512, as many as any API request
// needs many times over, and few enough that the recursive operations stay far from the
// stack's end (a level takes under 200 bytes of stack in them; the main thread has 8 MiB).
inline constexpr int kMaxRequestJsonDepth = 512;

enum class RequestJsonError {
  none,
  syntax,    // not JSON (or not UTF-8: the JSON grammar is over UTF-8 text)
  too_deep,  // nested deeper than kMaxRequestJsonDepth
};

// Parses `text` as one JSON value into `out`; on an error `out` is null. Instantiated for
// nlohmann::json and nlohmann::ordered_json.
template <class Json>
RequestJsonError parse_request_json(std::string_view text, Json& out);

// "The JSON body of the request is nested deeper than the server's limit of 512 levels."
std::string too_deep_message();

// The JSON type of `value` as the OpenAI API's invalid_type messages name it: "a string",
// "a boolean", "an integer", "a number", "an array", "an object", "null".
template <class Json>
std::string_view json_type_name(const Json& value);

}  // namespace squall::live

// Parsing JSON text that users write (scenario files, policy files, corpus lines) more
// strictly and more safely than nlohmann's Json::parse does, and describing values in
// error messages.
//
// What it adds to nlohmann's parser (whose grammar and syntax messages it keeps):
//   - a key repeated in one object is reported (nlohmann keeps the last value silently);
//     the document still keeps the last value, as nlohmann does;
//   - nesting deeper than kMaxJsonDepth arrays and objects is a syntax error: no real
//     input comes close, and a bound keeps every later walk of the document shallow;
//   - a number too large for a double (1e999) is a syntax error with its position, where
//     nlohmann throws out_of_range.406 without one; so is a non-zero number too small for
//     one (1e-400), which nlohmann reads silently as 0 (a seed 1e-400 was seed 0);
//   - the work is linear in the text: objects are built with a hash index of their keys
//     (nlohmann's ordered_json looks every key up linearly, quadratic for wide objects),
//     and a duplicate's JSON Pointer is built only when one is found.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

namespace squall {

// Objects keep their keys in file order, so that errors and file-ordered lists
// (thresholds) follow the file.
using Json = nlohmann::ordered_json;

// The deepest nesting of arrays and objects accepted: the format's own deepest value is
// 6 levels (/providers/x/faults/0/latency/median), a corpus line 1.
inline constexpr std::size_t kMaxJsonDepth = 256;

// A syntax error: the 1-based line and column (counted in bytes) of the character the
// parser stopped at, and what is wrong. Messages are nlohmann's descriptions, e.g.
//   syntax error while parsing object separator - unexpected number literal; expected ':'
// (with the token quoted after "last read:" cut to 60 bytes as describe() cuts values),
// and these of our own, located at the number's first character and at the bracket
// that opens the level too many:
//   expected a number of magnitude at most 1.8e308, got 1e999
//   expected 0 or a number of magnitude at least 4.9e-324, got 1e-400
//   expected at most 256 levels of nested arrays and objects, got more
struct JsonSyntaxError {
  std::size_t line = 0;
  std::size_t column = 0;
  std::string message;

  friend bool operator==(const JsonSyntaxError&, const JsonSyntaxError&) = default;
};

enum class JsonComments : std::uint8_t { rejected, allowed };  // `//` and `/* */`

// Called for each key that repeats a key of the same object, in reading order, with the
// JSON Pointer (RFC 6901) of the member and the key as written. It may throw to stop
// the parse.
using DuplicateKeyHandler = std::function<void(const std::string& pointer, const std::string& key)>;

// Parses one JSON value filling the whole of `text` (surrounding whitespace allowed; a
// UTF-8 byte order mark is skipped, as nlohmann does).
std::variant<Json, JsonSyntaxError> parse_strict_json(std::string_view text, JsonComments comments,
                                                      const DuplicateKeyHandler& on_duplicate_key);

// Whether the number literal `text`, read as `value`, is non-zero but underflowed to 0
// (1e-400): its digits before any exponent are not all zeros.
bool underflowed_to_zero(double value, std::string_view text);

// The syntax error message for such a literal (also YAML's, sim/scenario/yaml_document.cpp).
std::string underflow_message(std::string_view text);

// The "got ..." part of a message: the value as JSON text ("high" with its quotes, 250,
// null, ["a",1]) cut to 60 bytes, ending in "..." when cut, at a UTF-8 character
// boundary. Only what is shown is written: a huge or deeply nested value costs no more
// than a small one, and no recursion goes deeper than the 60 bytes shown.
std::string describe(const Json& value);

}  // namespace squall

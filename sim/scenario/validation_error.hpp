// ValidationError: one problem found in a scenario or policy file, located by JSON Pointer.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace squall {

struct ValidationError {
  std::string file;     // the file as it was named to the loader
  std::string path;     // RFC 6901 JSON Pointer into that file; "" is the whole document
  std::string message;  // what was expected and what was found
  // Syntax errors: 1-based line and column (in bytes for JSON) of the character the
  // parser stopped at. YAML files: also the start of the node at `path`. 0 otherwise.
  std::size_t line = 0;
  std::size_t column = 0;

  friend bool operator==(const ValidationError&, const ValidationError&) = default;
};

// One line in the form of compilers and linters, in which every control character
// (control_character_at) is written as a JSON escape (\u001b), since paths hold keys as
// written and a raw newline or ANSI escape sequence would break the line or the terminal:
//   `scenarios/x.json: /providers/web_search/faults/2/probability: expected a number in [0, 1], got "high"`
//   `scenarios/x.json:3:7: syntax error while parsing object key - ...` (syntax errors)
//   `scenarios/x.yaml:12:5: /workload/rate: expected ...` (errors located in a YAML file)
//   `scenarios/x.json: file not found` (errors about the whole document)
std::string to_string(const ValidationError& error);

// The code point of the control character (Unicode's Cc: U+0000-U+001F, U+007F-U+009F)
// that starts at byte `i` of UTF-8 `text`, or nullopt. C1 controls take two bytes.
std::optional<char32_t> control_character_at(std::string_view text, std::size_t i);

// `text` with each control character (control_character_at) written as \u and its four
// hex digits, as to_string() writes lines: the one escape for every line squall prints
// that holds text read from a file (names, paths), so that a raw newline or ANSI escape
// sequence (ECMA-48 CSI, ESC [) in it can neither break the line nor drive the terminal.
// `a\x1b[31mred\nX` prints as `a\u001b[31mred\u000aX`.
std::string escape_controls(std::string_view text);

}  // namespace squall

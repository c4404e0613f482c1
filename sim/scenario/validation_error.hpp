// ValidationError: one problem found in a scenario or policy file, located by JSON Pointer.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "engine/text.hpp"  // control_character_at, escape_controls

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

}  // namespace squall

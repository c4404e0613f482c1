// Checks of a YAML file's text that yaml-cpp does not make, or makes with a message that names
// something else: characters YAML does not allow, tabs in indentation, comments. Each error is
// located at the character (1-based line, and column in characters: a UTF-8 sequence counts one).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "sim/scenario/json_reader.hpp"

namespace squall {

// A syntax error found while reading the document; it ends the parse.
struct YamlSyntaxError {
  SourceMark mark;
  std::string message;
};

// Whether the text holds a comment: a '#' at a line's start or after a blank.
bool has_comment(std::string_view text);

// The first character YAML 1.2 does not allow anywhere in a stream (sections 5.1 and 5.2):
// a C0 control other than tab, LF and CR, DEL, or a byte that does not start well-formed UTF-8.
std::optional<YamlSyntaxError> unreadable_character(std::string_view text);

// The first tab in a line's indentation at or before 1-based line `last_line` (YAML 1.2
// section 6.1: indentation is spaces only).
std::optional<YamlSyntaxError> tab_in_indentation(std::string_view text, std::size_t last_line);

}  // namespace squall

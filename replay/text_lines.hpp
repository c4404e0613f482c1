// Line-oriented JSON input shared by the readers: the non-blank lines of a text with their
// 1-based numbers, and the message for a JSON syntax error ("file:line:col: not JSON: ...").
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace squall::replay {

// Calls fn(line_number, line) for every line holding more than blanks, in order.
template <class Fn>
void for_each_nonblank_line(std::string_view text, Fn fn) {
  std::size_t number = 0;
  for (std::size_t pos = 0; pos <= text.size();) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view row = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    if (row.find_first_not_of(" \t\r") != std::string_view::npos) fn(number, row);
  }
}

// Throws TraceInputError for `e`, raised parsing `text`, whose first line is line
// `first_line` of `file`: "trace.json:2:4: not JSON: syntax error while parsing ...".
[[noreturn]] void throw_not_json(const std::string& file, std::string_view text, const nlohmann::json::parse_error& e,
                                 std::size_t first_line);

}  // namespace squall::replay

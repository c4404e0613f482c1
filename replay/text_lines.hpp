// Line-oriented JSON input shared by the readers: the non-blank lines of a text with their
// 1-based numbers, and parsing one JSON value with every failure reported as
// "file:line:col: not JSON: ..." (a TraceInputError), never as nlohmann's own exception.
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

// Parses `text`, whose first line is line `first_line` of `file`, as one JSON value.
// Throws TraceInputError: "trace.json:2:4: not JSON: syntax error while parsing ..." for
// a syntax error; for a number beyond a double's range (1e999, which nlohmann reports as
// out_of_range.406 with no position) "...:L:C: not JSON: expected a number of magnitude
// at most 1.8e308, got 1e999", the wording of the scenario reader (mocks/strict_json.hpp).
nlohmann::json parse_json_text(std::string_view text, const std::string& file, std::size_t first_line);

// The TraceInputError for a syntax error `e` raised parsing `text` as above (for a reader
// that looks at `e` before giving up).
[[noreturn]] void throw_not_json(const std::string& file, std::string_view text, const nlohmann::json::parse_error& e,
                                 std::size_t first_line);

}  // namespace squall::replay

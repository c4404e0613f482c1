#include "replay/text_lines.hpp"

#include <fmt/core.h>

#include <utility>

#include "replay/attempt_record.hpp"

namespace squall::replay {
namespace {

// The line and column (1-based) of byte `byte` (1-based, as nlohmann counts it) of `text`.
std::pair<std::size_t, std::size_t> line_col(std::string_view text, std::size_t byte) {
  std::size_t line = 1;
  std::size_t col = 1;
  for (std::size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {line, col};
}

// nlohmann's message without its "[json.exception...] parse error at line L, column C: ".
std::string parse_problem(const nlohmann::json::parse_error& e) {
  const std::string what = e.what();
  const std::size_t column = what.find("column ");
  const std::size_t colon = column == std::string::npos ? std::string::npos : what.find(": ", column);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

}  // namespace

void throw_not_json(const std::string& file, std::string_view text, const nlohmann::json::parse_error& e,
                    std::size_t first_line) {
  const auto [line, col] = line_col(text, e.byte);
  throw TraceInputError(fmt::format("{}:{}:{}: not JSON: {}", file, first_line + line - 1, col, parse_problem(e)));
}

}  // namespace squall::replay

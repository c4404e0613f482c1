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

// Finds where nlohmann's parse of `text` fails: it reports out_of_range.406 (a number
// beyond a double's range) without a position, but hands its SAX handler one.
class ErrorLocator final : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::size_t byte = 0;  // 1-based, the failing token's first byte
  std::string token;

  bool null() override { return true; }
  bool boolean(bool /*val*/) override { return true; }
  bool number_integer(number_integer_t /*val*/) override { return true; }
  bool number_unsigned(number_unsigned_t /*val*/) override { return true; }
  bool number_float(number_float_t /*val*/, const string_t& /*s*/) override { return true; }
  bool string(string_t& /*val*/) override { return true; }
  bool binary(binary_t& /*val*/) override { return true; }
  bool start_object(std::size_t /*elements*/) override { return true; }
  bool key(string_t& /*val*/) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t /*elements*/) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& /*ex*/) override {
    byte = position >= last_token.size() ? position - last_token.size() + 1 : 1;
    token = last_token;
    return false;
  }
};

[[noreturn]] void throw_number_out_of_range(const std::string& file, std::string_view text, std::size_t first_line) {
  ErrorLocator locator;
  nlohmann::json::sax_parse(text, &locator);
  const auto [line, col] = line_col(text, locator.byte);
  throw TraceInputError(fmt::format("{}:{}:{}: not JSON: expected a number of magnitude at most 1.8e308, got {}", file,
                                    first_line + line - 1, col, locator.token.substr(0, 60)));
}

}  // namespace

nlohmann::json parse_json_text(std::string_view text, const std::string& file, std::size_t first_line) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw_not_json(file, text, e, first_line);
  } catch (const nlohmann::json::out_of_range&) {
    throw_number_out_of_range(file, text, first_line);
  }
}

void throw_not_json(const std::string& file, std::string_view text, const nlohmann::json::parse_error& e,
                    std::size_t first_line) {
  const auto [line, col] = line_col(text, e.byte);
  throw TraceInputError(fmt::format("{}:{}:{}: not JSON: {}", file, first_line + line - 1, col, parse_problem(e)));
}

}  // namespace squall::replay

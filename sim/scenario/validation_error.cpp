#include "sim/scenario/validation_error.hpp"

#include <fmt/format.h>

namespace squall {

std::optional<char32_t> control_character_at(std::string_view text, std::size_t i) {
  const auto byte = static_cast<unsigned char>(text[i]);
  if (byte < 0x20 || byte == 0x7F) return byte;
  if (byte == 0xC2 && i + 1 < text.size()) {
    const auto next = static_cast<unsigned char>(text[i + 1]);
    if (next >= 0x80 && next <= 0x9F) return next;  // U+0080-U+009F
  }
  return std::nullopt;
}

std::string to_string(const ValidationError& error) {
  if (error.line > 0 && !error.path.empty()) {
    return escape_controls(
        fmt::format("{}:{}:{}: {}: {}", error.file, error.line, error.column, error.path, error.message));
  }
  if (error.line > 0) {
    return escape_controls(fmt::format("{}:{}:{}: {}", error.file, error.line, error.column, error.message));
  }
  if (error.path.empty()) return escape_controls(fmt::format("{}: {}", error.file, error.message));
  return escape_controls(fmt::format("{}: {}: {}", error.file, error.path, error.message));
}

std::string escape_controls(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (const auto code = control_character_at(line, i)) {
      out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(*code));
      if (*code >= 0x80) ++i;  // the second byte of a C1 control's UTF-8 sequence
    } else {
      out += line[i];
    }
  }
  return out;
}

}  // namespace squall

#include "engine/text.hpp"

#include <fmt/format.h>

namespace squall {

void append_normalized(std::string_view text, std::string& out) {
  const std::size_t begin = out.size();
  bool pending_space = false;
  for (const char c : text) {
    if (is_space_byte(c)) {
      pending_space = out.size() > begin;  // no leading space
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(ascii_lower(c));
  }
}

std::optional<char32_t> control_character_at(std::string_view text, std::size_t i) {
  const auto byte = static_cast<unsigned char>(text[i]);
  if (byte < 0x20 || byte == 0x7F) return byte;
  if (byte == 0xC2 && i + 1 < text.size()) {
    const auto next = static_cast<unsigned char>(text[i + 1]);
    if (next >= 0x80 && next <= 0x9F) return next;  // U+0080-U+009F
  }
  if (byte == 0xE2 && i + 2 < text.size()) {
    const auto second = static_cast<unsigned char>(text[i + 1]);
    const auto third = static_cast<unsigned char>(text[i + 2]);
    if ((second == 0x80 && third >= 0xAA && third <= 0xAE) ||  // U+202A-U+202E
        (second == 0x81 && third >= 0xA6 && third <= 0xA9)) {  // U+2066-U+2069
      return 0x2000 | ((second & 0x3Fu) << 6) | (third & 0x3Fu);
    }
  }
  return std::nullopt;
}

namespace {
// The bytes of a control character's UTF-8 sequence (control_character_at's code points).
std::size_t utf8_length(char32_t code) { return code < 0x80 ? 1 : code < 0x800 ? 2 : 3; }
}  // namespace

std::string escape_controls(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (const auto code = control_character_at(line, i)) {
      out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(*code));
      i += utf8_length(*code) - 1;  // the rest of a C1 or bidirectional control's UTF-8 sequence
    } else {
      out += line[i];
    }
  }
  return out;
}

std::optional<std::string> printable_problem(std::string_view text, bool newline_and_tab) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto code = control_character_at(text, i);
    if (!code || (newline_and_tab && (*code == U'\n' || *code == U'\t'))) continue;
    return fmt::format("expected text without control characters{}, got U+{:04X} at byte {}",
                       newline_and_tab ? " other than newline and tab" : "", static_cast<std::uint32_t>(*code), i + 1);
  }
  return std::nullopt;
}

}  // namespace squall

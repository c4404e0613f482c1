#include "engine/text.hpp"

#include <algorithm>

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

// The length of the well-formed UTF-8 sequence starting at byte `i` (RFC 3629 section 4:
// no overlong form, no surrogate, nothing past U+10FFFF), or 0 when there is none.
std::size_t utf8_sequence_at(std::string_view text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  if (lead < 0x80) return 1;
  const std::size_t length = lead >= 0xC2 && lead <= 0xDF   ? 2
                             : lead >= 0xE0 && lead <= 0xEF ? 3
                             : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                            : 0;
  if (length == 0 || i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  }
  const auto second = static_cast<unsigned char>(text[i + 1]);
  if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F) || (lead == 0xF0 && second < 0x90) ||
      (lead == 0xF4 && second > 0x8F)) {
    return 0;
  }
  return length;
}

// Where the word (run of bytes other than space) starting at `i` ends.
std::size_t word_end(std::string_view text, std::size_t i) {
  const std::size_t end = text.find(' ', i);
  return end == std::string_view::npos ? text.size() : end;
}
}  // namespace

std::string escape_controls(std::string_view line) {
  std::string out;
  out.reserve(std::min(line.size(), std::size_t{1} << 16));
  std::size_t word_ends = 0;  // the current word's end, once it is known to be too long
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (i >= word_ends && (i == 0 || line[i - 1] == ' ')) {
      const std::size_t end = word_end(line, i);
      if (end - i > kLongestShownWord) {
        // Its first bytes, whole characters only, then the cut and the length of what
        // stands between the punctuation around it (`"key";` keeps its quotes and `;`).
        const auto is_mark = [](char c) { return std::string_view("\"'()[]{}:;,.").find(c) != std::string_view::npos; };
        std::size_t head = i;
        while (head < i + 4 && is_mark(line[head])) ++head;
        std::size_t tail = end;
        while (tail > end - 4 && is_mark(line[tail - 1])) --tail;
        std::size_t cut = head + kShownOfLongWord;
        while (cut > head && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
        out += escape_controls(line.substr(i, cut - i));
        out += fmt::format("...({} bytes)", tail - head);
        out += escape_controls(line.substr(tail, end - tail));
        i = end - 1;
        continue;
      }
      word_ends = end;
    }
    if (const auto code = control_character_at(line, i)) {
      out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(*code));
      i += utf8_length(*code) - 1;  // the rest of a C1 or bidirectional control's UTF-8 sequence
    } else if (const std::size_t length = utf8_sequence_at(line, i); length == 0) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(line[i]));
    } else {
      out.append(line.substr(i, length));
      i += length - 1;
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

#include "reports/writers/xml_text.hpp"

#include <cstdint>

#include <fmt/format.h>

namespace squall {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// The length of the well-formed UTF-8 sequence at the start of `s` (Unicode 15, table
// 3-7), or 0 when its first byte does not start one.
std::size_t sequence_length(std::string_view s, char32_t& code_point) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b0 = byte(0);
  std::size_t n = 0;
  char32_t min = 0;
  if (b0 < 0x80) {
    code_point = b0;
    return 1;
  } else if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
    min = 0x80;
    code_point = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    min = 0x800;
    code_point = b0 & 0x0F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    min = 0x10000;
    code_point = b0 & 0x07;
  } else {
    return 0;
  }
  if (s.size() < n) return 0;
  for (std::size_t i = 1; i < n; ++i) {
    if (!continuation(byte(i))) return 0;
    code_point = (code_point << 6) | (byte(i) & 0x3F);
  }
  // Overlong forms, surrogates and code points past U+10FFFF are ill-formed.
  if (code_point < min || (code_point >= 0xD800 && code_point <= 0xDFFF) || code_point > 0x10FFFF) return 0;
  return n;
}

}  // namespace

std::string xml_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    char32_t c = 0;
    const std::size_t n = sequence_length(text, c);
    if (n == 0) {
      out += kReplacement;
      text.remove_prefix(1);
      continue;
    }
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      out += fmt::format("\\x{:02X}", static_cast<std::uint32_t>(c));
    } else if (c == 0xFFFE || c == 0xFFFF) {
      out += kReplacement;
    } else {
      out.append(text.substr(0, n));
    }
    text.remove_prefix(n);
  }
  return out;
}

}  // namespace squall

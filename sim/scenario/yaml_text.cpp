#include "sim/scenario/yaml_text.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>
#include <boost/locale/utf.hpp>

namespace squall {
namespace {

// The names of the C0 control characters (ISO 646 / ECMA-6), for messages.
constexpr std::array<std::string_view, 32> kControlNames{
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS",  "HT", "LF",  "VT",  "FF", "CR", "SO", "SI",
    "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"};

}  // namespace

// Whether the text holds a comment: a '#' at a line's start or after a blank.
bool has_comment(std::string_view text) {
  for (std::size_t i = text.find('#'); i != std::string_view::npos; i = text.find('#', i + 1)) {
    if (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n' || text[i - 1] == '\r') {
      return true;
    }
  }
  return false;
}

// The first character YAML 1.2 does not allow anywhere in a stream (section 5.1,
// c-printable): a C0 control other than tab, LF and CR, or DEL; or the first byte that
// does not start a well-formed UTF-8 sequence (section 5.2: a stream is Unicode, and
// squall reads UTF-8), which yaml-cpp would pass on into the document's strings, where
// JSON rejects it. yaml-cpp reads a NUL as the end of its input or reports it as an
// "unknown escape character" a few columns on; a binary file gives the same. Returns its
// error, located at the character (1-based line, and column in characters: a UTF-8
// sequence counts one).
std::optional<YamlSyntaxError> unreadable_character(std::string_view text) {
  using Utf8 = boost::locale::utf::utf_traits<char>;
  std::size_t line = 1;
  std::size_t column = 1;
  for (auto p = text.begin(); p != text.end(); ++column) {
    const auto c = static_cast<unsigned char>(*p);
    if (c >= 0x80) {
      // Overlong forms, surrogates and code points past U+10FFFF are refused too.
      auto next = p;
      const boost::locale::utf::code_point decoded = Utf8::decode(next, text.end());
      if (decoded == boost::locale::utf::illegal || decoded == boost::locale::utf::incomplete) {
        return YamlSyntaxError{SourceMark{line, column},
                               fmt::format("expected UTF-8 text, got the ill-formed UTF-8 byte 0x{:02X} (YAML 1.2 "
                                           "section 5.2): is the file in another encoding?",
                                           c)};
      }
      p = next;
      continue;
    }
    ++p;
    if (c == '\n') {
      ++line;
      column = 0;
      continue;
    }
    if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7F) {
      const std::string_view name = c == 0x7F ? "DEL" : kControlNames[c];
      return YamlSyntaxError{SourceMark{line, column},
                             fmt::format("expected printable text, got the control character U+{:04X} ({}), which YAML "
                                         "does not allow (YAML 1.2 section 5.1): is this a binary file?",
                                         c, name)};
    }
  }
  return std::nullopt;
}

// The first tab in a line's indentation at or before 1-based line `last_line`, where
// yaml-cpp stopped: YAML indents with spaces only (YAML 1.2 section 6.1), and yaml-cpp's
// own message for a tab ("illegal map value", "end of map not found") names something else.
std::optional<YamlSyntaxError> tab_in_indentation(std::string_view text, std::size_t last_line) {
  std::size_t line = 1;
  for (std::size_t start = 0; start < text.size() && line <= last_line; ++line) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    for (std::size_t i = start; i < end && (text[i] == ' ' || text[i] == '\t'); ++i) {
      if (text[i] == '\t') {
        return YamlSyntaxError{SourceMark{line, i - start + 1},
                               "expected spaces for indentation, got a tab: YAML indents with spaces only (YAML 1.2 "
                               "section 6.1)"};
      }
    }
    start = end + 1;
  }
  return std::nullopt;
}

}  // namespace squall

#include "reports/writers/xml_text.hpp"

#include <cstdint>

#include <fmt/format.h>
#include <boost/locale/utf.hpp>

namespace squall {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

// xml_text, and with `attribute` tab, LF and CR as "\xNN" too.
std::string safe_text(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    // Boost.Locale's decoder refuses overlong forms, surrogates and code points past
    // U+10FFFF (Unicode 15, table 3-7), as XML does.
    auto next = text.begin();
    const boost::locale::utf::code_point c = boost::locale::utf::utf_traits<char>::decode(next, text.end());
    if (c == boost::locale::utf::illegal || c == boost::locale::utf::incomplete) {
      out += kReplacement;
      text.remove_prefix(1);
      continue;
    }
    const auto n = static_cast<std::size_t>(next - text.begin());
    if (c < 0x20 && (attribute || (c != '\t' && c != '\n' && c != '\r'))) {
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

}  // namespace

std::string xml_text(std::string_view text) { return safe_text(text, false); }

std::string xml_attribute_text(std::string_view text) { return safe_text(text, true); }

}  // namespace squall

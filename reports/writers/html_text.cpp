#include "reports/writers/html_text.hpp"

#include "reports/writers/xml_text.hpp"

namespace squall {

std::string html_text(std::string_view text) {
  const std::string clean = xml_text(text);
  std::string out;
  out.reserve(clean.size());
  for (const char c : clean) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string script_json(std::string_view json) {
  // U+2028 and U+2029 in UTF-8: E2 80 A8 and E2 80 A9.
  constexpr std::string_view kLineSeparator = "\xE2\x80\xA8";
  constexpr std::string_view kParagraphSeparator = "\xE2\x80\xA9";
  std::string out;
  out.reserve(json.size());
  for (std::size_t i = 0; i < json.size(); ++i) {
    const std::string_view rest = json.substr(i);
    if (rest.starts_with(kLineSeparator)) {
      out += "\\u2028";
      i += kLineSeparator.size() - 1;
    } else if (rest.starts_with(kParagraphSeparator)) {
      out += "\\u2029";
      i += kParagraphSeparator.size() - 1;
    } else if (json[i] == '<') {
      out += "\\u003c";
    } else if (json[i] == '>') {
      out += "\\u003e";
    } else if (json[i] == '&') {
      out += "\\u0026";
    } else {
      out += json[i];
    }
  }
  return out;
}

}  // namespace squall

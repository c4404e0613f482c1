#include "reports/writers/markdown_text.hpp"

#include <algorithm>

namespace squall {
namespace {

// The characters that are markup wherever they stand. Others (. - + ! ( ) { }) are markup
// only at the start of a line or after one of these, which an escaped text never is.
constexpr std::string_view kMarkup = "\\`*_[]<>#|~&";

bool is_control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; }

}  // namespace

std::string markdown_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (is_control(c)) {
      out += ' ';
      continue;
    }
    if (kMarkup.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string markdown_code(std::string_view text) {
  std::string body;
  std::size_t longest = 0;
  std::size_t run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (is_control(c)) {
      body += ' ';
    } else {
      if (c == '|') body += '\\';
      body += c;
    }
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

}  // namespace squall

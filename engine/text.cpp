#include "engine/text.hpp"

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

}  // namespace squall

#include "cli/terminal.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string_view>

#include <fmt/core.h>

namespace squall::cli {

bool use_color(bool is_terminal, const char* no_color, const char* term) {
  if (!is_terminal) return false;
  if (no_color != nullptr && no_color[0] != '\0') return false;
  return term == nullptr || std::string_view(term) != "dumb";
}

bool is_terminal(std::FILE* stream) { return ::isatty(::fileno(stream)) != 0; }

std::string counted(std::size_t n, std::string_view noun) { return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s"); }

bool use_color(std::FILE* stream) {
  return use_color(is_terminal(stream), std::getenv("NO_COLOR"), std::getenv("TERM"));
}

}  // namespace squall::cli

#include "cli/repro.hpp"

#include <fmt/core.h>
#include <algorithm>

namespace squall::cli {

std::string shell_quote(std::string_view word) {
  const auto plain = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_-./:=@%+,").find(c) != std::string_view::npos;
  };
  if (!word.empty() && std::all_of(word.begin(), word.end(), plain)) return std::string(word);
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  quoted += '\'';
  return quoted;
}

std::string repro_command(const RunOptions& options, std::uint64_t seed) {
  std::string cmd =
      fmt::format("{} run {} --seed {}", shell_quote(options.program), shell_quote(options.scenario.string()), seed);
  if (options.policy) cmd += fmt::format(" --policy {}", shell_quote(options.policy->string()));
  return cmd;
}

}  // namespace squall::cli

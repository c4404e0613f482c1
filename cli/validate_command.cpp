#include <fmt/core.h>

#include "cli/commands.hpp"
#include "sim/scenario_loader.hpp"

namespace squall::cli {

int validate_command(const std::vector<std::filesystem::path>& files) {
  bool all_valid = true;
  for (const auto& file : files) {
    const LoadResult result = load_scenario(file);
    if (result.errors.empty()) {
      fmt::print("{}: ok\n", file.string());
      continue;
    }
    all_valid = false;
    for (const ValidationError& error : result.errors) fmt::print(stderr, "{}\n", to_string(error));
  }
  return all_valid ? kExitOk : kExitBadInput;
}

}  // namespace squall::cli

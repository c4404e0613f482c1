#include <fmt/core.h>

#include "cli/commands.hpp"
#include "sim/scenario_loader.hpp"

namespace squall::cli {

namespace {

// Prints "<file>: ok" or every error; returns whether the file was valid.
bool report(const std::filesystem::path& file, const std::vector<ValidationError>& errors) {
  if (errors.empty()) {
    fmt::print("{}: ok\n", file.string());
    return true;
  }
  for (const ValidationError& error : errors) fmt::print(stderr, "{}\n", to_string(error));
  return false;
}

}  // namespace

int validate_command(const std::vector<std::filesystem::path>& scenarios,
                     const std::vector<std::filesystem::path>& policies) {
  bool all_valid = true;
  for (const auto& file : scenarios) all_valid = report(file, load_scenario(file).errors) && all_valid;
  for (const auto& file : policies) all_valid = report(file, load_policy_file(file).errors) && all_valid;
  return all_valid ? kExitOk : kExitBadInput;
}

}  // namespace squall::cli

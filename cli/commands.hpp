// The `squall` subcommands. Each returns the process exit code:
//   0  every threshold holds (run) / every file is valid (validate)
//   1  a threshold failed
//   2  bad input or usage; nothing was written
//   3  internal error
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/world.hpp"

namespace squall::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitThresholdFailed = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInternalError = 3;

struct RunOptions {
  std::string program = "squall";           // how squall was invoked (argv[0]), for the repro line
  std::filesystem::path scenario;
  std::optional<std::uint64_t> seed;         // overrides the scenario's seed
  std::optional<std::filesystem::path> policy;  // replaces the scenario's policy block
  std::optional<std::filesystem::path> out;     // where the JSON report goes
  // Stop with exit 2 when more tasks than this are in flight (sim/world.hpp RunLimits).
  std::uint64_t max_in_flight = RunLimits{}.max_tasks_in_flight;
};

int run_command(const RunOptions& options);

// A seed as decimal digits only (no sign, no base prefix), within uint64; nullopt otherwise.
std::optional<std::uint64_t> parse_seed(std::string_view text);
// Checks scenario files and policy files (the files `run --policy` takes); every error of
// every file is printed. A policy file is also checked against every valid scenario given
// with it, exactly as `run SCENARIO --policy FILE` checks it (sim::check_policy).
int validate_command(const std::vector<std::filesystem::path>& scenarios,
                     const std::vector<std::filesystem::path>& policies);

}  // namespace squall::cli

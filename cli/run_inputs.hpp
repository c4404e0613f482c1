// The files a run reads, which no output of squall may overwrite: `run` checks its
// reports against them, `ci` its JUnit file, Markdown summary and $GITHUB_STEP_SUMMARY
// against those of every scenario it runs, and `compare` its comparison files against
// those of its scenario and policies (or its two reports).
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "sim/scenario.hpp"

namespace squall::cli {

// The scenario file, the policy file when given, and each corpus a provider of `scenario`
// reads (sim/scenario.hpp corpus_path), in that order.
std::vector<std::filesystem::path> run_inputs(const std::filesystem::path& scenario_file,
                                              const std::optional<std::filesystem::path>& policy_file,
                                              const Scenario& scenario);

// The same for a scenario file not loaded yet: loads it to learn its corpora. A file that
// does not load (its errors are reported when it runs) is its own only input.
std::vector<std::filesystem::path> run_inputs(const std::filesystem::path& scenario_file);

}  // namespace squall::cli

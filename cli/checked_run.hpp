// What `run` checks before it starts, shared by one run (cli/run_command.cpp) and many
// seeds (cli/run_seeds.cpp): the scenario, --policy applied to it, the report requests and
// $GITHUB_STEP_SUMMARY. A usage error (exit 2) is found here, and nothing is written.
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "cli/commands.hpp"
#include "cli/report_requests.hpp"
#include "sim/scenario.hpp"
#include "sim/scenario/validation_error.hpp"

namespace squall::cli {

// Everything a run reads and writes, checked before it starts.
struct CheckedRun {
  Scenario scenario;
  ReportRequests reports;
  std::optional<std::filesystem::path> step_summary;
  std::vector<std::string> policy_notes;  // how --policy merged (Provenance::policy_notes)
};

// Loads the scenario, applies --policy (its notes on stderr), and checks the report
// requests and $GITHUB_STEP_SUMMARY. Prints why on stderr and returns nullopt when any is
// refused.
std::optional<CheckedRun> check_run(const RunOptions& options);

// Each error on its own line of stderr.
void print_errors(const std::vector<ValidationError>& errors);

}  // namespace squall::cli

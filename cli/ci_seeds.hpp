// `squall ci DIR... --seeds N|LIST|RANGE`: every scenario on every seed (cli/seed_list.hpp;
// a count starts at each scenario's own seed), all runs on one pool of --jobs threads
// (sim/seed_runs.hpp run_seed_batches), the same bytes for any --jobs. Prints a line per
// scenario in input order as it finishes, e.g.
//   PASS  scenarios/ci/llm-budget-guard.json (seeds 5..12, 3 thresholds met, 8/8 seeds passed all)
//   FAIL  x.json (seeds 42..49, 1 of 2 thresholds below the required pass rate, 6/8 seeds passed all)
//   ERROR scenarios/bad.json (exit 2, not run)
// then one table: per scenario the seeds that passed every threshold and pass^k
// (reports/pass_k.hpp), under it each threshold's seeds passed and required pass rate
// (reports/pass_rate.hpp); then each failed scenario's thresholds and a repro line (the
// first failed seed), and the verdict. A scenario passes when every threshold meets its
// pass-rate requirement (exit 1 otherwise). JUnit, Markdown and json-dir as ci_outputs.hpp
// writes them from the seed summaries.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/ci_outputs.hpp"
#include "cli/commands.hpp"

namespace squall::cli {

// Why options.seeds cannot be used as given, or nullopt: its syntax (parse_seed_list's
// messages, e.g. "--seeds 0: expected at least one seed"), and the flags that describe one
// run per scenario:
//   --baseline cannot be combined with --seeds: a baseline report is one run's; with --seeds,
//   gate on the thresholds' pass rates ("pass_rate")
//   --progress cannot be combined with --seeds: it follows one run per scenario
std::optional<std::string> ci_seeds_problem(const CiOptions& options);

// Runs `files` on their seeds and writes `outputs`; returns the worst exit code.
int ci_seeds_command(const CiOptions& options, const std::vector<std::filesystem::path>& files, std::size_t jobs,
                     const CiOutputs& outputs);

}  // namespace squall::cli

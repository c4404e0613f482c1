// `squall replay TRACE... --out-dir DIR --policy NEW`: the new policy on the fitted world,
// on the calibration's seeds (common random numbers: seed s meets the same draws under both
// policies wherever their calls coincide), printed beside the recorded trace and the
// as-deployed simulation with 95% intervals (reports/sweep_stats.hpp interval_of: Student's
// t on the seeds' values, and on the per-seed differences for the paired interval).
#pragma once

#include <string>
#include <vector>

#include "cli/replay_simulate.hpp"
#include "replay/calibration.hpp"

namespace squall::cli {

// The headline figures of the whole run: tasks_finished, task_success,
// task_latency_p50_ms, task_latency_p99_ms, tokens, and attempts (every provider and outcome).
std::vector<std::pair<std::string, double>> headline_figures(const replay::Figures& whole);

// The table: figure | recorded | as-deployed | new | new - as-deployed (paired), one line each.
std::string counterfactual_table(const replay::Figures& recorded, const std::vector<SeedFigures>& as_deployed,
                                 const std::vector<SeedFigures>& candidate);

}  // namespace squall::cli

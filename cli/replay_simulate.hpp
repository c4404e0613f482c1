// The simulated side of calibration and of the counterfactual: the fitted scenario run
// under a policy on seeds 1..N (sim/parallel_runs.hpp, the pool `run --seeds` uses), each
// run exported as OTLP in memory (reports/writers/otlp_writer.hpp) and read back through
// replay's own reader and grouping, so its figures (replay/calibration.hpp) are computed
// exactly as the trace's are. The same seeds for every policy: common random numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/policy.hpp"
#include "replay/calibration.hpp"
#include "sim/scenario.hpp"

namespace squall::cli {

struct SeedFigures {
  std::vector<replay::Figures> windows;  // per calibration window
  replay::Figures whole;                 // the whole run as one window
};

// Seed s + 1's figures at index s. Throws what a run throws (RunLimitExceeded, a bug).
std::vector<SeedFigures> simulate_figures(const Scenario& scenario, const PolicyConfig& policy, std::size_t seeds,
                                          std::size_t jobs, const std::vector<std::int64_t>& edges);

}  // namespace squall::cli

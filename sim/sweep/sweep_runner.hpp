// Running a sweep (sim/sweep/sweep_spec.hpp): every (variant, seed) of it, or of one shard
// of it, on a thread pool (sim/parallel_runs.hpp), into the measurements every output is
// computed from (reports/sweep_result.hpp).
//
// The scenario is prepared once (its corpora loaded once) and shared read-only by every
// run; each run builds its own World (sim/run.hpp), so runs share nothing mutable and the
// result is the same for any number of jobs: runs are numbered variant-major (k = variant
// · seeds + seed index) and their values kept by number, whatever thread ran them.
//
// With a fixed seed count, shard i of n (1-based) runs the runs whose number k has
// k mod n = i - 1 (round robin, so every shard gets a share of every variant's cost).
// With a target (replicate until the 95% interval of a metric is narrower than a width),
// the seeds are run in rounds over every variant: first min_seeds, then, while some
// variant's interval is wider than the target and max_seeds is not reached, up to the
// count the widest interval asks for, n' = ceil((2 · t(0.975, n - 1) · s / width)^2) (the
// sample-size estimate of Law, "Simulation Modeling and Analysis", 5th ed., 9.4.1, from
// the variance seen so far), at least one more and at most max_seeds. Which rounds run
// depends only on the values, so it too is the same for any number of jobs.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>

#include "reports/sweep_result.hpp"
#include "sim/run.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace squall {

struct SweepShard {
  std::size_t index = 1;  // 1-based
  std::size_t count = 1;
};

struct SweepRunOptions {
  std::size_t jobs = 1;
  std::optional<SweepShard> shard;  // only with a fixed seed count
  // Told, from one thread at a time, how many runs are finished of how many planned so far.
  std::function<void(std::size_t done, std::size_t planned)> progress;
};

// A run that could not finish: the message names the variant and seed. `limit` is true
// when it was stopped by the run limits (bad input, exit 2), false for an internal error.
class SweepRunFailed : public std::runtime_error {
 public:
  SweepRunFailed(const std::string& what, bool limit) : std::runtime_error(what), limit_(limit) {}
  bool limit() const { return limit_; }

 private:
  bool limit_;
};

// The header of the sweep's result: everything but the runs (and the target's `reached`).
SweepResult sweep_header(const SweepSpec& spec);

// Runs the sweep (or its shard) on `prepared` (the spec's scenario, prepared). A variant
// with "/scenario/..." grid settings runs its own scenario, prepared here once per distinct
// setting (CorpusError as PreparedScenario throws it). Throws SweepRunFailed;
// std::invalid_argument for a shard of a target sweep.
SweepResult run_sweep(const SweepSpec& spec, const PreparedScenario& prepared, const SweepRunOptions& options);

}  // namespace squall

// One prepared scenario run on many seeds at once (`run --seeds`), or many scenarios each on
// its seeds (`ci --seeds`), on the thread pool of sim/parallel_runs.hpp. Each seed's run
// builds its own World from the read-only PreparedScenario, so its report depends only on
// (scenario, policy, seed): the results, in seed-list order, are the same for any number
// of jobs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "reports/report.hpp"
#include "reports/seed_summary.hpp"
#include "sim/run.hpp"

namespace squall {

// One seed's run: its outcome (reports/seed_summary.hpp) and, for the first seed only, its
// whole report (what `run --seeds --out` writes, the seeds section added); or the exception
// that stopped it (RunLimitExceeded, or a bug in squall), for the caller to classify.
struct SeedRunResult {
  std::optional<SeedOutcome> outcome;
  std::optional<Report> report;
  std::exception_ptr error;
};

// Runs `prepared` under `policy` on each of `seeds` with `jobs` threads; `provenance(seed)`
// is what the seed's report records. `on_ready(i, result)`, when given, sees results in
// seed order as soon as they and every one before them are finished (parallel_runs.hpp).
std::vector<SeedRunResult> run_seeds(const PreparedScenario& prepared, const PolicyConfig& policy,
                                     std::span<const std::uint64_t> seeds, std::size_t jobs,
                                     const std::function<Provenance(std::uint64_t)>& provenance,
                                     const std::function<void(std::size_t, const SeedRunResult&)>& on_ready = {});

// One scenario's seeds in a run of many (`ci --seeds`). The pointed-to objects outlive the
// call of run_seed_batches.
struct SeedBatch {
  const PreparedScenario* prepared = nullptr;
  const PolicyConfig* policy = nullptr;
  std::vector<std::uint64_t> seeds;
  std::function<Provenance(std::uint64_t)> provenance;
};

// Every batch's seeds as one list of runs on one pool of `jobs` threads, so that a few
// seeds of many scenarios keep every thread busy. Element b of the result holds batch b's
// results in seed order, each as run_seeds gives them (the first seed's report kept).
// `on_batch_ready(b, results)`, when given, sees batch b as soon as it and every batch
// before it are finished, in batch order, without the first seed's report (it is in the
// returned results).
std::vector<std::vector<SeedRunResult>> run_seed_batches(
    std::span<const SeedBatch> batches, std::size_t jobs,
    const std::function<void(std::size_t, std::span<const SeedRunResult>)>& on_batch_ready = {});

}  // namespace squall

#include "sim/seed_runs.hpp"

#include "sim/parallel_runs.hpp"

namespace squall {
namespace {

// Seed `i` of `prepared`: run_parallel's tasks must not throw, so the run's exception
// travels in its result. Only the first seed keeps its report (SeedRunResult).
SeedRunResult run_one_seed(const PreparedScenario& prepared, const PolicyConfig& policy, std::uint64_t seed,
                           bool keep_report, const std::function<Provenance(std::uint64_t)>& provenance) {
  SeedRunResult result;
  try {
    Report report = prepared.run(policy, seed, provenance(seed));
    result.outcome = seed_outcome(report);
    if (keep_report) result.report = std::move(report);
  } catch (...) {
    result.error = std::current_exception();
  }
  return result;
}

}  // namespace

std::vector<SeedRunResult> run_seeds(const PreparedScenario& prepared, const PolicyConfig& policy,
                                     std::span<const std::uint64_t> seeds, std::size_t jobs,
                                     const std::function<Provenance(std::uint64_t)>& provenance,
                                     const std::function<void(std::size_t, const SeedRunResult&)>& on_ready) {
  const std::function<SeedRunResult(std::size_t)> run = [&](std::size_t i) {
    return run_one_seed(prepared, policy, seeds[i], i == 0, provenance);
  };
  return run_parallel<SeedRunResult>(seeds.size(), jobs, run, on_ready);
}

std::vector<std::vector<SeedRunResult>> run_seed_batches(
    std::span<const SeedBatch> batches, std::size_t jobs,
    const std::function<void(std::size_t, std::span<const SeedRunResult>)>& on_batch_ready) {
  // Run r of the flat list is seed seed_of[r] of batch batch_of[r].
  std::vector<std::size_t> batch_of;
  std::vector<std::size_t> seed_of;
  std::vector<std::size_t> starts;  // each batch's first run
  for (std::size_t b = 0; b < batches.size(); ++b) {
    starts.push_back(batch_of.size());
    for (std::size_t s = 0; s < batches[b].seeds.size(); ++s) {
      batch_of.push_back(b);
      seed_of.push_back(s);
    }
  }
  const std::function<SeedRunResult(std::size_t)> run = [&](std::size_t r) {
    const SeedBatch& batch = *(batches.begin() + static_cast<std::ptrdiff_t>(batch_of[r]));
    return run_one_seed(*batch.prepared, *batch.policy, batch.seeds[seed_of[r]], seed_of[r] == 0, batch.provenance);
  };
  // Results reach on_ready in flat order: a batch is complete at its last run, and so is
  // every batch before it. Empty batches are handed out with the next completed one.
  std::vector<SeedRunResult> ready;
  std::size_t next_batch = 0;
  const auto hand_out = [&](std::size_t up_to) {
    for (; next_batch < up_to; ++next_batch) {
      const std::size_t n = batches[next_batch].seeds.size();
      if (on_batch_ready) {
        on_batch_ready(next_batch, std::span<const SeedRunResult>(ready).subspan(starts[next_batch], n));
      }
    }
  };
  std::vector<SeedRunResult> flat =
      run_parallel<SeedRunResult>(batch_of.size(), jobs, run, [&](std::size_t r, const SeedRunResult& result) {
        ready.push_back({result.outcome, std::nullopt, result.error});  // the report stays in `flat`
        if (seed_of[r] + 1 == batches[batch_of[r]].seeds.size()) hand_out(batch_of[r] + 1);
      });
  hand_out(batches.size());
  std::vector<std::vector<SeedRunResult>> results(batches.size());
  for (std::size_t r = 0; r < flat.size(); ++r) results[batch_of[r]].push_back(std::move(flat[r]));
  return results;
}

}  // namespace squall

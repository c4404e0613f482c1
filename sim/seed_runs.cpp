#include "sim/seed_runs.hpp"

#include "sim/parallel_runs.hpp"

namespace squall {

std::vector<SeedRunResult> run_seeds(const PreparedScenario& prepared, const PolicyConfig& policy,
                                     std::span<const std::uint64_t> seeds, std::size_t jobs,
                                     const std::function<Provenance(std::uint64_t)>& provenance,
                                     const std::function<void(std::size_t, const SeedRunResult&)>& on_ready) {
  const std::function<SeedRunResult(std::size_t)> run = [&](std::size_t i) {
    SeedRunResult result;
    // run_parallel's tasks must not throw: the run's exception travels in its result.
    try {
      Report report = prepared.run(policy, seeds[i], provenance(seeds[i]));
      result.outcome = seed_outcome(report);
      if (i == 0) result.report = std::move(report);
    } catch (...) {
      result.error = std::current_exception();
    }
    return result;
  };
  return run_parallel<SeedRunResult>(seeds.size(), jobs, run, on_ready);
}

}  // namespace squall

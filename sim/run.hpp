// Run orchestration: a scenario prepared once, run for any (policy,
// seed) into a Report. The CLI's `run` calls it; sweeps, `ci`, compare and replay will too.
//
// Preparing loads every corpus the scenario's providers name, once, and shares it
// read-only between runs, so a sweep of many seeds or policies reads each file once. A
// run builds a fresh sim::World, so runs share nothing mutable: the same (policy, seed)
// gives the same report whatever ran before it, and runs may go to separate threads.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/policy.hpp"
#include "reports/report.hpp"
#include "sim/corpora.hpp"
#include "sim/scenario.hpp"
#include "sim/world.hpp"

namespace squall {

// squall's version (CMake's PROJECT_VERSION), as reports record it.
std::string_view squall_version();

class PreparedScenario {
 public:
  // Takes a validated scenario (sim/scenario_loader.hpp). Throws CorpusError when a
  // corpus cannot be loaded (the loader checked it, but the file may have changed since)
  // or a ground-truth link is in no corpus (check_ground_truth, sim/corpora.hpp).
  explicit PreparedScenario(Scenario scenario);

  const Scenario& scenario() const { return scenario_; }
  // The bounds every later run() keeps (sim/world.hpp); default RunLimits{}.
  void set_limits(RunLimits limits) { limits_ = limits; }

  // Simulates the scenario under `seed` with `policy` (the scenario's own policy block, or
  // a policy file's that check_policy accepted for it). The report records `provenance`
  // with squall_version filled in. `observer`, when given, sees every event of the run in
  // the order the recorder does (the JSONL trace, reports/writers/trace_writer.hpp); it
  // costs nothing when absent. `progress`, when given, is told how far the run has got
  // (sim/world.hpp RunProgress) and changes nothing in the report.
  Report run(const PolicyConfig& policy, std::uint64_t seed, Provenance provenance, EventSink* observer = nullptr,
             ProgressCallback progress = {}) const;
  Report run(std::uint64_t seed, Provenance provenance, EventSink* observer = nullptr,
             ProgressCallback progress = {}) const {
    return run(scenario_.policy, seed, std::move(provenance), observer, std::move(progress));
  }

 private:
  Scenario scenario_;
  Corpora corpora_;
  RunLimits limits_;
};

}  // namespace squall

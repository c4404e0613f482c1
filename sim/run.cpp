#include "sim/run.hpp"

#include <algorithm>

#include "mocks/chaos/fault.hpp"
#include "sim/world.hpp"

#ifndef SQUALL_VERSION
#error "SQUALL_VERSION is defined by CMakeLists.txt from the project's version"
#endif

namespace squall {

std::string_view squall_version() { return SQUALL_VERSION; }

namespace {

// The fault rules that hold over part of the run, and the bursts (Report::schedule).
ScenarioSchedule schedule_of(const Scenario& scenario) {
  ScenarioSchedule schedule;
  for (const ProviderConfig& p : scenario.providers) {
    for (const FaultConfig& f : p.faults) {
      if (f.from == 0 && f.to == kNever) continue;
      schedule.faults.push_back(
          {p.name, std::string(to_string(f.kind)), f.outage, f.from, f.to, f.probability, f.flap_period > 0});
    }
  }
  for (const Burst& b : scenario.workload.arrivals.bursts) schedule.bursts.push_back({b.from, b.to, b.rate_per_s});
  std::sort(schedule.bursts.begin(), schedule.bursts.end(),
            [](const BurstRow& a, const BurstRow& b) { return a.from < b.from; });
  return schedule;
}

}  // namespace

PreparedScenario::PreparedScenario(Scenario scenario)
    : scenario_(std::move(scenario)), corpora_(load_corpora(scenario_)) {
  check_ground_truth(scenario_, corpora_);
}

Report PreparedScenario::run(const PolicyConfig& policy, std::uint64_t seed, Provenance provenance, EventSink* observer,
                             ProgressCallback progress) const {
  World world(scenario_, policy, corpora_, seed, observer, limits_);
  if (progress) world.set_progress(std::move(progress));
  Report report = world.run();
  provenance.squall_version = std::string(squall_version());
  report.produced_by = std::move(provenance);
  report.schedule = schedule_of(scenario_);
  return report;
}

}  // namespace squall

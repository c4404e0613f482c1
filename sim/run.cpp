#include "sim/run.hpp"

#include "sim/world.hpp"

#ifndef SQUALL_VERSION
#error "SQUALL_VERSION is defined by CMakeLists.txt from the project's version"
#endif

namespace squall {

std::string_view squall_version() { return SQUALL_VERSION; }

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
  return report;
}

}  // namespace squall

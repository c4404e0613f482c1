#include "cli/expected_tasks.hpp"

#include <fmt/core.h>

#include "sim/arrivals.hpp"

namespace squall::cli {

double expected_tasks(const Scenario& scenario) {
  return expected_arrivals(scenario.workload.arrivals, scenario.duration);
}

std::optional<std::string> many_tasks_warning(const Scenario& scenario) {
  const double expected = expected_tasks(scenario);
  if (expected <= kManyTasks) return std::nullopt;
  return fmt::format(
      "warning: {}: about {:.0f} tasks, above {:.0f}: the run will take a long time; lower "
      "workload.arrivals.rate_per_s, the duration, or set workload.arrivals.max_tasks",
      scenario.source.string(), expected, kManyTasks);
}

std::string run_limit_message(const RunLimitExceeded& e) {
  if (e.limit() == RunLimitExceeded::Limit::tasks_in_flight) {
    return fmt::format("{} (--max-in-flight sets the limit)", e.what());
  }
  return e.what();
}

}  // namespace squall::cli

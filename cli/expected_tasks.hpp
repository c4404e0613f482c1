// How many tasks a scenario will start, the warning a user should see before a run that
// long, and what a run stopped by a limit says (issue 10: no silent runaway). Shared by
// `validate`, `run` and `ci`.
#pragma once

#include <optional>
#include <string>

#include "sim/scenario.hpp"
#include "sim/world.hpp"

namespace squall::cli {

// Above this many expected tasks a run takes minutes and more (bench/README.md gives
// squall's tasks per second).
inline constexpr double kManyTasks = 10'000'000;

// The expected number of tasks: the arrival rate integrated over the duration, bursts
// clipped, max_tasks applied (sim/arrivals.hpp expected_arrivals).
double expected_tasks(const Scenario& scenario);

// "warning: <file>: about N tasks, above 10000000: ..." when expected_tasks > kManyTasks.
std::optional<std::string> many_tasks_warning(const Scenario& scenario);

// What a run stopped by a limit says after "run stopped, no report written: ": the
// limit's message, and for the tasks-in-flight limit the flag that sets it.
std::string run_limit_message(const RunLimitExceeded& e);

}  // namespace squall::cli

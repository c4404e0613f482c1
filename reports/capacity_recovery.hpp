// Recovery time after a capacity drop: how long a provider's goodput takes to come back
// once the scheduled drop (mocks/capacity/capacity_config.hpp, CapacityDrop) has ended.
// It is what tells a metastable failure from a transient one (Bronson et al., "Metastable
// Failures in Distributed Systems", HotOS 2021: a system is metastable when it stays in
// the bad state after the trigger is removed). The AWS us-east-1 event of 7 December 2021
// (aws.amazon.com/message/12721) is the pattern: retries kept the network congested long
// after the scaling activity that started it.
//
// Definition, over the report's time windows (CapacityReport::windows, `window` wide):
// - baseline: the mean goodput of the windows that end at or before the first drop's
//   start; none (no recovery time) when no whole window precedes it. Recovery means a
//   return to the pre-trigger state (Bronson et al.; Huang et al., "Metastable Failures in
//   the Wild", OSDI 2022: a metastable failure keeps goodput low after the trigger is
//   removed, low against what it was before), so without a measured pre-trigger window
//   there is nothing to recover to. A part window is not used:
//   its goodput mixes the start-up ramp (answers delivered only after a service time) with
//   the drop. The loader rejects a threshold on this metric for such a provider rather than
//   let it fail on "no samples" (sim/scenario/threshold_reader.hpp);
// - recovered: at the end of the first window that starts at or after the last drop's end
//   and whose goodput is at least kRecoveredFraction of the baseline;
// - recovery time: from the last drop's end to that window's end, so a provider that is
//   back at once has a recovery time of at most one window; never recovered within the
//   run: from the drop's end to the end of the run, with `recovered` false;
// - a drop still in force when the run ends (the last drop's end at or after it): not
//   recovered either, with the time from the first drop's start to the end of the run, the
//   time the run spent degraded (a drop's end is never reached, so no time after it
//   exists). Before, this case had no recovery at all, and a threshold on
//   capacity_recovery_time said only "no samples"; the loader now also rejects such a
//   threshold (sim/scenario/threshold_reader.hpp), since it could only ever fail.
// Goodput is counted per window (reports/capacity_report.hpp), so the figure has the
// window's resolution (10 s by default).
#pragma once

#include <optional>
#include <vector>

#include "engine/runtime/time.hpp"
#include "reports/capacity_report.hpp"

namespace squall {

// 90%: a window's goodput under Poisson arrivals varies by about 1/sqrt(n) of its mean, so
// 0.9 sits below the noise of a recovered window of a few hundred answers and far above
// the goodput of one still overloaded.
inline constexpr double kRecoveredFraction = 0.9;

// `drops_from` is the first drop's start, `drops_to` the last one's end; `run_end` the
// run's duration. None when there is no baseline window.
std::optional<CapacityRecovery> capacity_recovery(const std::vector<CapacityWindowRow>& windows, Nanos window,
                                                  TimePoint drops_from, TimePoint drops_to, TimePoint run_end);

}  // namespace squall

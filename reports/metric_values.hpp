// Metric values: what a threshold observes, computed from the Recorder's aggregates for a
// metric of the catalogue (reports/metric_catalogue.hpp) and its tag selectors.
#pragma once

#include <optional>

#include "engine/runtime/time.hpp"
#include "reports/recorder.hpp"
#include "reports/threshold.hpp"

namespace squall {

// The value of `threshold`'s aggregation over its (sub-)metric. `duration` is the
// simulated time the run covered, the denominator of a counter's `rate` (per second).
// A tag selector that names no recorded provider/tool/template selects nothing.
//
// Returns nullopt when the value is undefined: a rate or a trend without samples, a
// counter's rate over a zero duration, a counter's per-task avg with no finished task.
// Such a threshold fails: k6 let thresholds on metrics without samples pass silently and
// called it a bug (grafana/k6 issues #1346 and #4283); a CI gate must not pass on no data.
// Counters without samples are 0, which is defined.
std::optional<double> observe(const Recorder& recorder, const Threshold& threshold, Nanos duration);

}  // namespace squall

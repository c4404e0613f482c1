// Reading the `thresholds` block of a scenario: metric -> [expression, ...], k6's shape:
//   { "task_success": ["rate>=0.95"], "task_latency": ["p(99)<20s", "avg<5s"] }
#pragma once

#include <vector>

#include "reports/threshold.hpp"
#include "sim/scenario/json_reader.hpp"

namespace squall {

// Thresholds in file order. Each key is checked once with parse_metric (its error is
// reported at `/thresholds/<metric>`), each expression with parse_threshold (at
// `/thresholds/<metric>/<i>`); their messages are reports/threshold.hpp's. A metric's
// list must be a non-empty array of strings.
std::vector<Threshold> read_thresholds(const Json& value, const std::string& path, Diagnostics& diag);

}  // namespace squall

// `compare --fail-on METRIC:MARGIN` and `ci --baseline`: a gate on one headline metric of
// a comparison (reports/compare.hpp), failing when B is worse than A by more than a margin.
//
// Grammar: METRIC:+N, METRIC:-N (absolute, in the metric's unit) or METRIC:+N%, METRIC:-N%
// (relative to A's value, |A|). The sign says which way is worse, and must agree with the
// metric's direction (better_direction, reports/sweep_stats.hpp): "-" for metrics where
// higher is better (task_success, tasks.succeeded, thresholds_passed), "+" for the rest;
// tasks.total and tasks.degraded have no direction, and the sign picks the one to gate.
//   latency_ms.p99:+10%    fails when B's p99 exceeds A's by more than 10% of A's
//   task_success:-0.01     fails when B's success rate is more than 0.01 below A's
// A gate fails when B - A, in the worse direction, exceeds the allowed change (N, or
// N% of |A|, so with A = 0 a relative gate allows no worsening at all), comparing values
// rounded to 6 decimals as the report has them. A gate whose metric is missing from A or B
// (a percentile without samples) fails: it cannot say the change is within the margin.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "reports/compare.hpp"

namespace squall {

struct FailOn {
  std::string expression;  // as given, e.g. "latency_ms.p99:+10%"
  std::string metric;      // a headline metric name
  bool worse_is_higher = true;
  double margin = 0;  // >= 0: in the metric's unit, or a percentage of |A| when relative
  bool relative = false;
};

// Parses one expression, or returns the message saying what is wrong, e.g.
//   --fail-on "latency:+10%": unknown metric "latency"; the metrics are tasks.total, ...
//   --fail-on "task_success": expected METRIC:+MARGIN or METRIC:-MARGIN (a number, or a percentage
//   with %), e.g. latency_ms.p99:+10% or task_success:-0.01
//   --fail-on "task_success:0.01": the margin "0.01" has no sign: write task_success:-0.01 (B is worse
//   when task_success is lower)
//   --fail-on "task_success:+0.01": B is worse when task_success is lower: write task_success:-0.01
//   --fail-on "latency_ms.p99:+ten": the margin "+ten" is not a number (digits with an optional point, e.g.
//   +10 or +2.5%)
std::variant<FailOn, std::string> parse_fail_on(const std::string& expression);

// Every expression parsed, or the first message (in the order given).
std::variant<std::vector<FailOn>, std::string> parse_fail_ons(const std::vector<std::string>& expressions);

struct GateResult {
  const FailOn* gate = nullptr;
  std::optional<double> a;
  std::optional<double> b;
  bool passed = false;
};

// Each gate checked against the comparison's rows (compare_reports), in the gates' order.
std::vector<GateResult> check_gates(const std::vector<FailOn>& gates, const std::vector<MetricComparison>& rows);

// The margin as written without the metric: "+10%", "-0.01".
std::string margin_text(const FailOn& gate);

// One line per gate, then a verdict line, for the terminal:
//   gate latency_ms.p99:+10%: pass (A 812.5, B 840.25, B - A +27.75, +3.42%)
//   gate task_success:-0.01: FAIL (A 0.852857, B 0.346786, B - A -0.506071, -59.34%)
//   gate latency_ms.p99:+10%: FAIL (B has no value)
//   gates: 1 of 2 failed
std::string gates_text(const std::vector<GateResult>& results);

// The same as a Markdown table for a pull-request comment:
//   #### Gates: 1 of 2 failed
//
//   | gate | A | B | B − A | (B − A) / A | margin | result |
//   |:--|--:|--:|--:|--:|--:|:--|
//   | `task_success` | 0.852857 | 0.346786 | -0.506071 | -59.34% | -0.01 | ❌ fail |
std::string gates_markdown(const std::vector<GateResult>& results);

// How many of `results` failed.
std::size_t failed_gates(const std::vector<GateResult>& results);

}  // namespace squall

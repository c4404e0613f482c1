// The aggregations a threshold applies to a metric's samples (reports/threshold.hpp), shared
// by the simulator's metrics (reports/metric_values.cpp) and the live clients'
// (reports/client_metrics.cpp). None: the value is undefined (no samples, no duration, no
// finished task), and the threshold fails.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/runtime/time.hpp"
#include "reports/threshold.hpp"
#include "reports/trend.hpp"

namespace squall {

// Whether the threshold's tag `key` admits `value`; an absent tag admits every value.
bool admits(const Threshold& t, const std::string& key, std::string_view value);

// The sum of `field(row)` over the rows of a recorder table whose name the threshold's
// `tool` tag admits.
template <class Row, class Field>
double sum_by_tool(const std::vector<Row>& rows, const Threshold& t, Field field) {
  std::uint64_t n = 0;
  for (const Row& row : rows) {
    if (admits(t, "tool", row.name)) n += field(row);
  }
  return static_cast<double>(n);
}

// The aggregation of integer samples in the metric's unit, `per_unit` samples' units
// making one (kMillisecond ns per ms for latencies, 1 for counts).
std::optional<double> trend_value(std::vector<Trend::Part> samples, const ThresholdExpression& e, double per_unit);

// A counter's `total`: count and sum are it, rate is per second of `duration`, avg per
// finished task (`tasks`).
std::optional<double> counter_value(double total, const ThresholdExpression& e, Nanos duration, std::uint64_t tasks);

// trend_value of the samples that `counts` counts (counts[v] samples of value v).
std::optional<double> counted_value(const std::vector<std::uint64_t>& counts, const ThresholdExpression& e);

}  // namespace squall

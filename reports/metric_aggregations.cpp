#include "reports/metric_aggregations.hpp"

namespace squall {

bool admits(const Threshold& t, const std::string& key, std::string_view value) {
  const auto it = t.tags.find(key);
  return it == t.tags.end() || it->second == value;
}

// The aggregation of integer samples in the metric's unit, `per_unit` samples' units
// making one (kMillisecond ns per ms for latencies, 1 for counts).
std::optional<double> trend_value(std::vector<Trend::Part> samples, const ThresholdExpression& e, double per_unit) {
  const Trend trend(std::move(samples));
  if (trend.empty()) return std::nullopt;
  const auto scaled = [per_unit](std::int64_t x) { return static_cast<double>(x) / per_unit; };
  switch (e.aggregation) {
    case Aggregation::percentile: return scaled(trend.percentile(e.percentile));
    case Aggregation::med: return scaled(trend.median());
    case Aggregation::avg: return trend.mean() / per_unit;
    case Aggregation::min: return scaled(trend.min());
    case Aggregation::max: return scaled(trend.max());
    case Aggregation::rate:
    case Aggregation::count:
    case Aggregation::sum: break;  // rejected by parse_threshold for trends
  }
  return std::nullopt;
}

std::optional<double> counter_value(double total, const ThresholdExpression& e, Nanos duration, std::uint64_t tasks) {
  switch (e.aggregation) {
    case Aggregation::count:
    case Aggregation::sum: return total;
    case Aggregation::rate:  // per second of simulated time, as k6's counter rate
      if (duration <= 0) return std::nullopt;
      return total / (static_cast<double>(duration) / static_cast<double>(kSecond));
    case Aggregation::avg:  // per finished task
      if (tasks == 0) return std::nullopt;
      return total / static_cast<double>(tasks);
    case Aggregation::percentile:
    case Aggregation::min:
    case Aggregation::max:
    case Aggregation::med: break;  // rejected by parse_threshold for counters
  }
  return std::nullopt;
}

// trend_value of the samples that `counts` counts (counts[v] samples of value v), computed
// from the counts: the same values as a Trend of those samples (nearest rank, the mean of
// an exact sum), without writing out one sample per logical call (10 MB for a million
// calls, most of it fresh pages: bench/README.md).
std::optional<double> counted_value(const std::vector<std::uint64_t>& counts, const ThresholdExpression& e) {
  __extension__ using i128 = __int128;
  std::uint64_t n = 0;
  i128 sum = 0;
  for (std::size_t v = 0; v < counts.size(); ++v) {
    n += counts[v];
    sum += static_cast<i128>(v) * counts[v];
  }
  if (n == 0) return std::nullopt;
  // The value of the sample at 1-based rank `rank`.
  const auto at_rank = [&counts](std::uint64_t rank) {
    std::uint64_t seen = 0;
    std::size_t v = 0;
    while (seen + counts[v] < rank) seen += counts[v++];
    return static_cast<double>(v);
  };
  switch (e.aggregation) {
    case Aggregation::percentile: return at_rank(nearest_rank(e.percentile, n));
    case Aggregation::med: return at_rank(nearest_rank(50, n));
    case Aggregation::avg: return static_cast<double>(sum) / static_cast<double>(n);
    case Aggregation::min: return at_rank(1);
    case Aggregation::max: return at_rank(n);
    case Aggregation::rate:
    case Aggregation::count:
    case Aggregation::sum: break;  // rejected by parse_threshold for trends
  }
  return std::nullopt;
}

}  // namespace squall

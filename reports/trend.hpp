// Trend statistics over exact samples (no histogram buckets, no sampling).
//
// Percentile definition: nearest rank. p(N) of n sorted samples x[1..n] is x[k] with
// k = max(1, ceil(N / 100 * n)): the smallest sample such that at least N% of the samples
// are <= it. It is always a value that was observed, and on integer nanoseconds it is
// exact. This is the rank HdrHistogram's getValueAtPercentile computes (AbstractHistogram:
// countAtPercentile = max(1, ceil(percentile * totalCount / 100)), with the percentile
// first nudged down by one ulp so that floating-point error never skips a rank); we do the
// same. Note that k6 instead interpolates linearly between the two closest ranks
// (TrendSink.P), so on small samples squall's p(N) can differ from k6's.
// The median `med` is p(50) under the same rule (k6 also computes med as its P(0.5)).
#pragma once

#include <cstddef>
#include <vector>

namespace squall {

// The 1-based nearest rank of percentile `p` (in (0, 100]) among `n` > 0 samples.
std::size_t nearest_rank(double p, std::size_t n);

// The samples of one trend metric, sorted once at construction. Queries on an empty trend
// return 0; callers check empty() first when "no samples" matters (thresholds do).
class Trend {
 public:
  explicit Trend(std::vector<double> samples);

  bool empty() const { return sorted_.empty(); }
  std::size_t size() const { return sorted_.size(); }
  double percentile(double p) const;
  double median() const { return percentile(50); }
  double min() const;
  double max() const;
  // Arithmetic mean, summed in ascending order so that it does not depend on arrival order.
  double mean() const;

 private:
  std::vector<double> sorted_;
};

}  // namespace squall

// Trend statistics over exact samples, or over log-linear buckets past a documented count.
//
// Samples are integers in the metric's own unit: nanoseconds for latencies, counts for
// attempts per call. Callers convert the answers to the report's units (milliseconds), so
// every percentile is a value that was observed, exactly, and the mean is the exact sum
// divided by the count, which does not depend on the order the samples arrived in.
//
// Percentile definition: nearest rank. p(N) of n sorted samples x[1..n] is x[k] with
// k = max(1, ceil(N / 100 * n)): the smallest sample such that at least N% of the samples
// are <= it. This is the rank HdrHistogram's getValueAtPercentile computes
// (AbstractHistogram: countAtPercentile = max(1, ceil(percentile * totalCount / 100)), with
// the percentile first nudged down by one ulp so that floating-point error never skips a
// rank); we do the same. Note that k6 instead interpolates linearly between the two
// closest ranks (TrendSink.P), so on small samples squall's p(N) can differ from k6's.
// The median `med` is p(50) under the same rule (k6 also computes med as its P(0.5)).
//
// Bounded memory. A sample log keeps its first SampleLog::kExactSamples samples (2^20)
// exactly and counts every sample past that in a LogHistogram (reports/log_histogram.hpp)
// instead (reports/sample_log.hpp). When any part of a trend is such a histogram, its
// percentiles are answered from the buckets of all its parts together: within
// LogHistogram::kRelativeError (2^-11, 0.049%) of the exact nearest-rank sample, and still
// a deterministic function of the samples. The count, min, max and mean stay exact.
// exact() says which kind of answer a trend gives.
//
// Cost. A report asks for a few ranks (p50, p90, p99) of up to millions of samples. They
// are found by radix selection rather than by sorting (n log2 n comparisons, 20 n for a
// million, which dominated the run time of the throughput benchmark, bench/README.md):
// one pass counts the samples in 2048 buckets of the value range, and the search goes on
// among the samples of the bucket each rank falls in only, one 11-bit digit further down
// (at most 6 digits for 64 bits). The samples are read where they are, never copied or
// reordered: a trend views them in one or more parts (per outcome kind, per template), so
// a report over a million calls touches no new memory. Several ranks share the passes
// (percentiles()). A search among at most 2048 samples (a time-series window's, or a
// rank's bucket after the first pass) copies them and selects with std::nth_element
// instead: clearing 2048 counters per digit cost more than the few hundred samples (in the
// throughput benchmark the report's per-window percentiles spent most of their time in
// memset). The answer is the k-th smallest sample whatever the algorithm, so it is
// deterministic.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "reports/log_histogram.hpp"

namespace squall {

// The 1-based nearest rank of percentile `p` (in (0, 100]) among `n` > 0 samples.
std::size_t nearest_rank(double p, std::size_t n);

// The nearest-rank p(N) of `samples` for each N of `ps` (as Trend::percentiles, 0 for no
// samples), selecting in place: it reorders `samples`. For a caller that holds a copy it
// may reorder and needs nothing else (a time-series window's kept samples, whose count,
// max and mean the window keeps exactly): no second copy, no pass for a mean.
std::vector<std::int64_t> percentiles_in_place(std::span<std::int64_t> samples, std::span<const double> ps);

// The samples of one trend metric. Queries on an empty trend return 0; callers check
// empty() first when "no samples" matters (thresholds do).
class Trend {
 public:
  // One part of a trend's samples: a run of exact samples, or a histogram of samples.
  struct Part {
    std::span<const std::int64_t> samples;
    const LogHistogram* histogram = nullptr;  // when set, the part is its samples

    Part() = default;
    // Any contiguous range of int64 samples (a span, a vector, an array).
    template <class R>
    requires std::convertible_to<R&&, std::span<const std::int64_t>> Part(R&& range)
        : samples(std::forward<R>(range)) {}  // NOLINT(google-explicit-constructor)
    explicit Part(const LogHistogram& h) : histogram(&h) {}

    std::size_t size() const { return histogram != nullptr ? histogram->count() : samples.size(); }
  };

  // The samples are the concatenation of `parts`, which must outlive the trend.
  explicit Trend(std::vector<Part> parts);
  explicit Trend(Part samples) : Trend(std::vector<Part>{samples}) {}

  bool empty() const { return size_ == 0; }
  // True when every part is exact samples: the percentiles are observed samples. False
  // when a part is a histogram: they are within LogHistogram::kRelativeError of them.
  bool exact() const { return histograms_.empty(); }
  std::size_t size() const { return size_; }
  // p(N) for each N of `ps`, in the same order, in two passes over the samples for all.
  std::vector<std::int64_t> percentiles(std::span<const double> ps) const;
  std::int64_t percentile(double p) const;
  std::int64_t median() const { return percentile(50); }
  std::int64_t min() const { return min_; }
  std::int64_t max() const { return max_; }
  // Arithmetic mean: the exact (128-bit) sum divided by the count.
  double mean() const { return mean_; }

 private:
  std::vector<std::span<const std::int64_t>> samples_;  // the exact parts
  std::vector<const LogHistogram*> histograms_;         // the others
  std::size_t size_ = 0;
  std::int64_t min_ = 0;
  std::int64_t max_ = 0;
  double mean_ = 0;
};

}  // namespace squall

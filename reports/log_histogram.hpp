// LogHistogram: integer samples counted in log-linear buckets, for percentiles over more
// samples than reports/sample_log.hpp keeps exactly.
//
// The layout is HdrHistogram's (Gil Tene, hdrhistogram.org; AbstractHistogram's bucket
// and sub-bucket indices) at three significant decimal digits: each doubling [2^k, 2^(k+1))
// is cut into 2^kSubBucketBits = 1024 equal sub-buckets, and values below 2^11 have a
// bucket each. A bucket of a value x is at most x / 1024 wide, so any value of it is
// within x / 1024 of x. A query answers a bucket's midpoint (rounded down; HdrHistogram's
// medianEquivalentValue), clamped to the exact min and max, so an answer is within
// kRelativeError = 2^-11 (0.049%) of the exact sample of the same nearest rank: the k-th
// smallest sample lies in the bucket where k falls, and the midpoint is at most half a
// bucket from it.
//
// Negative samples (no metric has them today) are counted by magnitude in a mirrored set
// of buckets. Counters grow lazily up to the largest bucket recorded: latencies up to a
// minute (2^36 ns) take 27,648 counters, 216 KiB.
//
// Deterministic: the counts are a function of the multiset of samples, whatever their
// order, and so are the answers. The count, min, max and 128-bit sum stay exact.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace squall {

class LogHistogram {
 public:
  static constexpr int kSubBucketBits = 10;
  // The most an answer differs from the exact sample of its rank, relative to that sample.
  static constexpr double kRelativeError = 1.0 / (2 << kSubBucketBits);

  void record(std::int64_t x);
  // Adds every sample of `other`.
  void merge(const LogHistogram& other);

  std::uint64_t count() const { return count_; }
  std::int64_t min() const { return min_; }
  std::int64_t max() const { return max_; }
  // The exact sum of every sample recorded (128 bits: no overflow for 2^64 samples).
  __extension__ __int128 sum() const { return sum_; }

  // For each 0-based rank of `ranks` (ascending, each < count()), the bucket midpoint of
  // the sample of that rank, clamped to [min(), max()], written to `answers` in the same
  // order. One pass over the counters for all.
  void values_at_ranks(std::span<const std::uint64_t> ranks, std::span<std::int64_t> answers) const;

  // The bucket index of magnitude `m`, and the bucket's lowest magnitude and width.
  static std::size_t bucket_of(std::uint64_t m);
  static std::uint64_t bucket_low(std::size_t bucket);
  static std::uint64_t bucket_width(std::size_t bucket);

 private:
  std::vector<std::uint64_t> positive_;  // by bucket_of(x), x >= 0
  std::vector<std::uint64_t> negative_;  // by bucket_of(-x), x < 0
  std::uint64_t count_ = 0;
  std::int64_t min_ = 0;
  std::int64_t max_ = 0;
  __extension__ __int128 sum_ = 0;
};

}  // namespace squall

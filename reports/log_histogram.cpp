#include "reports/log_histogram.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <limits>

namespace squall {
namespace {

constexpr int kBits = LogHistogram::kSubBucketBits;
constexpr std::uint64_t kSub = std::uint64_t{1} << kBits;  // sub-buckets per doubling

void add(std::vector<std::uint64_t>& counts, std::size_t bucket, std::uint64_t n) {
  if (bucket >= counts.size()) counts.resize(bucket + 1, 0);
  counts[bucket] += n;
}

// The bucket's midpoint magnitude, rounded down.
std::uint64_t midpoint(std::size_t bucket) {
  return LogHistogram::bucket_low(bucket) + (LogHistogram::bucket_width(bucket) - 1) / 2;
}

// -m as a sample; a midpoint beyond 2^63 (the bucket of INT64_MIN) is below every sample
// and clamps to INT64_MIN.
std::int64_t negated(std::uint64_t m) {
  constexpr std::uint64_t kMinMagnitude = std::uint64_t{1} << 63;
  return m >= kMinMagnitude ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(m);
}

}  // namespace

std::size_t LogHistogram::bucket_of(std::uint64_t m) {
  // Magnitudes below 2^(kBits+1) are their own bucket. Above, with m in [2^k, 2^(k+1)) and
  // shift = k - kBits, the bucket is m's top kBits+1 bits (in [kSub, 2 kSub)) plus
  // shift * kSub, so the doublings follow each other without a gap.
  const int k = static_cast<int>(std::bit_width(m)) - 1;
  const int shift = std::max(0, k - kBits);
  return static_cast<std::size_t>(static_cast<std::uint64_t>(shift) * kSub + (m >> shift));
}

std::uint64_t LogHistogram::bucket_low(std::size_t bucket) {
  if (bucket < 2 * kSub) return bucket;
  const std::uint64_t shift = bucket / kSub - 1;
  const std::uint64_t top = bucket - shift * kSub;  // in [kSub, 2 kSub)
  return top << shift;
}

std::uint64_t LogHistogram::bucket_width(std::size_t bucket) {
  if (bucket < 2 * kSub) return 1;
  return std::uint64_t{1} << (bucket / kSub - 1);
}

void LogHistogram::record(std::int64_t x) {
  if (x >= 0) {
    add(positive_, bucket_of(static_cast<std::uint64_t>(x)), 1);
  } else {
    add(negative_, bucket_of(0 - static_cast<std::uint64_t>(x)), 1);
  }
  min_ = count_ == 0 ? x : std::min(min_, x);
  max_ = count_ == 0 ? x : std::max(max_, x);
  sum_ += x;
  ++count_;
}

void LogHistogram::merge(const LogHistogram& other) {
  if (other.count_ == 0) return;
  for (std::size_t b = 0; b < other.positive_.size(); ++b) {
    if (other.positive_[b] != 0) add(positive_, b, other.positive_[b]);
  }
  for (std::size_t b = 0; b < other.negative_.size(); ++b) {
    if (other.negative_[b] != 0) add(negative_, b, other.negative_[b]);
  }
  min_ = count_ == 0 ? other.min_ : std::min(min_, other.min_);
  max_ = count_ == 0 ? other.max_ : std::max(max_, other.max_);
  sum_ += other.sum_;
  count_ += other.count_;
}

void LogHistogram::values_at_ranks(std::span<const std::uint64_t> ranks, std::span<std::int64_t> answers) const {
  assert(ranks.size() == answers.size());
  std::size_t q = 0;
  std::uint64_t seen = 0;  // samples in the buckets walked so far
  const auto answer_bucket = [&](std::uint64_t n, std::int64_t value) {
    seen += n;
    for (; q < ranks.size() && ranks[q] < seen; ++q) answers[q] = std::clamp(value, min_, max_);
  };
  // Ascending values: negatives from the largest magnitude down, then the positives.
  for (std::size_t b = negative_.size(); b-- > 0 && q < ranks.size();) {
    if (negative_[b] != 0) answer_bucket(negative_[b], negated(midpoint(b)));
  }
  for (std::size_t b = 0; b < positive_.size() && q < ranks.size(); ++b) {
    if (positive_[b] != 0) answer_bucket(positive_[b], static_cast<std::int64_t>(midpoint(b)));
  }
  assert(q == ranks.size() && "a rank at or beyond count()");
}

}  // namespace squall

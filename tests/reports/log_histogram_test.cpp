#include "reports/log_histogram.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace squall {
namespace {

using Samples = std::vector<std::int64_t>;

Samples at_ranks(const LogHistogram& h, const std::vector<std::uint64_t>& ranks) {
  Samples answers(ranks.size());
  h.values_at_ranks(ranks, answers);
  return answers;
}

TEST(LogHistogramTest, SmallValuesHaveABucketEach) {
  // Below 2^11 every value is its own bucket, so answers are exact there.
  for (std::uint64_t m : {0ULL, 1ULL, 1023ULL, 1024ULL, 2047ULL}) {
    EXPECT_EQ(LogHistogram::bucket_of(m), m);
    EXPECT_EQ(LogHistogram::bucket_low(m), m);
    EXPECT_EQ(LogHistogram::bucket_width(m), 1U);
  }
  LogHistogram h;
  for (std::int64_t x : {5, 3, 2047, 0, 3}) h.record(x);
  EXPECT_EQ(at_ranks(h, {0, 1, 2, 3, 4}), (Samples{0, 3, 3, 5, 2047}));
}

TEST(LogHistogramTest, BucketsFollowEachOtherWithoutGaps) {
  // 2048 = 2^11 starts the first doubling cut into 1024 buckets of width 2: bucket
  // 1 * 1024 + (2048 >> 1) = 2048; 4095 is in bucket 1024 + 2047 / 2 = 3071; 4096 starts
  // buckets of width 4 at 2 * 1024 + 1024 = 3072.
  EXPECT_EQ(LogHistogram::bucket_of(2048), 2048U);
  EXPECT_EQ(LogHistogram::bucket_of(2049), 2048U);
  EXPECT_EQ(LogHistogram::bucket_of(4095), 3071U);
  EXPECT_EQ(LogHistogram::bucket_of(4096), 3072U);
  EXPECT_EQ(LogHistogram::bucket_width(3072), 4U);
  // Every bucket starts where the previous one ends, up to the largest magnitude.
  for (std::size_t b = 1; b < LogHistogram::bucket_of(UINT64_MAX); ++b) {
    ASSERT_EQ(LogHistogram::bucket_low(b), LogHistogram::bucket_low(b - 1) + LogHistogram::bucket_width(b - 1)) << b;
    ASSERT_EQ(LogHistogram::bucket_of(LogHistogram::bucket_low(b)), b);
  }
  // A bucket is at most 1/1024 of its lowest value wide.
  const std::size_t big = LogHistogram::bucket_of(60'000'000'000);  // a minute in ns
  EXPECT_LE(LogHistogram::bucket_width(big) * 1024, LogHistogram::bucket_low(big));
}

TEST(LogHistogramTest, AnswersABucketMidpointClampedToTheExtremes) {
  // 1,000,000 is in the doubling [2^19, 2^20): buckets 2^(19-10) = 512 wide, the bucket
  // [999,936, 1,000,447], midpoint 999,936 + 511 / 2 = 1,000,191.
  LogHistogram h;
  h.record(1'000'000);
  h.record(1'000'100);
  h.record(999'999);
  h.record(1'000'000);
  EXPECT_EQ(LogHistogram::bucket_low(LogHistogram::bucket_of(1'000'000)), 999'936U);
  // One bucket holds them all; the midpoint lies above the max, so every rank is the max.
  EXPECT_EQ(at_ranks(h, {0, 3}), (Samples{1'000'100, 1'000'100}));
  h.record(998'000);  // bucket [997,888, 998,399], midpoint 997,888 + 255 = 998,143
  EXPECT_EQ(at_ranks(h, {0}), (Samples{998'143}));
  EXPECT_EQ(h.min(), 998'000);
  EXPECT_EQ(h.max(), 1'000'100);
  EXPECT_EQ(h.count(), 5U);
  EXPECT_EQ(static_cast<std::int64_t>(h.sum()), 4'998'099);
}

TEST(LogHistogramTest, NegativeSamplesComeFirstInAscendingOrder) {
  LogHistogram h;
  for (std::int64_t x : {4, -7, 0, -1, 9}) h.record(x);
  EXPECT_EQ(at_ranks(h, {0, 1, 2, 3, 4}), (Samples{-7, -1, 0, 4, 9}));
  EXPECT_EQ(h.min(), -7);
}

TEST(LogHistogramTest, MergeAddsTheCounts) {
  LogHistogram a;
  LogHistogram b;
  for (std::int64_t x : {1, 2, 3}) a.record(x);
  for (std::int64_t x : {-5, 10}) b.record(x);
  a.merge(b);
  a.merge(LogHistogram{});
  EXPECT_EQ(a.count(), 5U);
  EXPECT_EQ(a.min(), -5);
  EXPECT_EQ(a.max(), 10);
  EXPECT_EQ(static_cast<std::int64_t>(a.sum()), 11);
  EXPECT_EQ(at_ranks(a, {0, 2, 4}), (Samples{-5, 2, 10}));
}

TEST(LogHistogramTest, ExtremeValuesDoNotOverflow) {
  LogHistogram h;
  h.record(std::numeric_limits<std::int64_t>::max());
  h.record(std::numeric_limits<std::int64_t>::min());
  const Samples got = at_ranks(h, {0, 1});
  // The lowest bucket's midpoint is beyond INT64_MIN and clamps to it; the highest one's,
  // 2047 * 2^52 + (2^52 - 1) / 2 (INT64_MAX is in [2^62, 2^63), buckets 2^52 wide), is
  // within 2^-11 of INT64_MAX.
  EXPECT_EQ(got[0], std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(got[1], 2047 * (std::int64_t{1} << 52) + ((std::int64_t{1} << 52) - 1) / 2);
  EXPECT_EQ(static_cast<std::int64_t>(h.sum()), -1);
}

}  // namespace
}  // namespace squall

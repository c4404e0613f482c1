#include "reports/latency_histogram.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "reports/log_histogram.hpp"

namespace squall {
namespace {

TEST(LatencyHistogramTest, EmptyWithoutSamples) {
  const LatencyHistogram h = latency_histogram({});
  EXPECT_EQ(h.bucket, 0);
  EXPECT_TRUE(h.counts.empty());
}

TEST(LatencyHistogramTest, TheSmallestNiceBucketThatCoversTheMaxInFortyBuckets) {
  const std::vector<std::int64_t> a{0, 39, 7};
  const std::vector<Trend::Part> one{Trend::Part(a)};
  LatencyHistogram h = latency_histogram(one);
  EXPECT_EQ(h.bucket, 1);  // 40 buckets of 1 ns: 0..39
  EXPECT_EQ(h.counts.size(), 40U);
  EXPECT_EQ(h.counts[0], 1U);
  EXPECT_EQ(h.counts[7], 1U);
  EXPECT_EQ(h.counts[39], 1U);
  // 40 needs a 41st bucket of 1: buckets of 2 instead, 21 of them.
  const std::vector<std::int64_t> b{40, 3, -5};
  const std::vector<Trend::Part> two{Trend::Part(a), Trend::Part(b)};
  h = latency_histogram(two);
  EXPECT_EQ(h.bucket, 2);
  EXPECT_EQ(h.counts, (std::vector<std::uint64_t>{2, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1}));
  // 10.3 s: buckets of 500 ms (250 ms would need 42).
  const std::vector<std::int64_t> c{10'300'000'000};
  const std::vector<Trend::Part> three{Trend::Part(c)};
  h = latency_histogram(three);
  EXPECT_EQ(h.bucket, 500'000'000);
  EXPECT_EQ(h.counts.size(), 21U);
}

TEST(LatencyHistogramTest, AHistogramPartKeepsItsCount) {
  LogHistogram log;
  for (std::int64_t i = 1; i <= 100'000; ++i) log.record(i * 1000);  // 1 us .. 100 ms
  const std::vector<Trend::Part> parts{Trend::Part(log)};
  const LatencyHistogram h = latency_histogram(parts);
  EXPECT_EQ(h.bucket, 5'000'000);  // 100 ms / 5 ms = 20 buckets (2 ms would need 51)
  ASSERT_EQ(h.counts.size(), 21U);
  std::uint64_t total = 0;
  for (const std::uint64_t n : h.counts) total += n;
  EXPECT_EQ(total, 100'000U);
  // Evenly spread samples: each full bucket holds about 5000 (the ranks are placed
  // within the log histogram's 0.05%: tens of samples at a bucket's edge).
  for (std::size_t i = 0; i < 20; ++i) EXPECT_NEAR(static_cast<double>(h.counts[i]), 5000.0, 100.0) << i;
}

}  // namespace
}  // namespace squall

#include "reports/trend.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "engine/runtime/rng.hpp"

namespace squall {
namespace {

using Samples = std::vector<std::int64_t>;

// Ten samples given out of order; sorted they are 1..10, so rank k is the value k.
const Samples kOneToTen{7, 3, 10, 1, 9, 2, 8, 4, 6, 5};

TEST(TrendTest, NearestRankOnTenSamples) {
  const Trend t(kOneToTen);
  // rank = max(1, ceil(p / 100 * 10))
  EXPECT_EQ(t.percentile(1), 1);     // ceil(0.1) = 1
  EXPECT_EQ(t.percentile(10), 1);    // ceil(1.0) = 1
  EXPECT_EQ(t.percentile(15), 2);    // ceil(1.5) = 2
  EXPECT_EQ(t.percentile(50), 5);    // ceil(5.0) = 5
  EXPECT_EQ(t.percentile(90), 9);    // ceil(9.0) = 9
  EXPECT_EQ(t.percentile(91), 10);   // ceil(9.1) = 10
  EXPECT_EQ(t.percentile(99), 10);   // ceil(9.9) = 10
  EXPECT_EQ(t.percentile(100), 10);  // ceil(10) = 10
}

TEST(TrendTest, PercentilesAnswersInTheOrderAsked) {
  const Trend t(kOneToTen);
  const double ps[] = {99, 15, 50, 15};
  EXPECT_EQ(t.percentiles(ps), (Samples{10, 2, 5, 2}));
}

TEST(TrendTest, PartsAreOneSequence) {
  // 1..10 split unevenly over three parts, one of them empty.
  const Samples a{7, 3, 10};
  const Samples b{};
  const Samples c{1, 9, 2, 8, 4, 6, 5};
  const Trend t({a, b, c});
  EXPECT_EQ(t.size(), 10U);
  EXPECT_EQ(t.percentile(50), 5);
  EXPECT_EQ(t.percentile(91), 10);
  EXPECT_EQ(t.min(), 1);
  EXPECT_DOUBLE_EQ(t.mean(), 5.5);
}

TEST(TrendTest, MedianIsTheLowerMiddleForAnEvenCount) {
  // Nearest rank: ceil(0.5 * 4) = 2, the sample 2. k6's interpolation would give 2.5.
  EXPECT_EQ(Trend(Samples{4, 1, 3, 2}).median(), 2);
  EXPECT_EQ(Trend(Samples{5, 1, 3}).median(), 3);  // ceil(1.5) = 2
}

TEST(TrendTest, NearestRankDoesNotSkipARankThroughBinaryRounding) {
  // 64.4 * 250 / 100 is 161 exactly, but in doubles it is 161.00000000000003 and a naive
  // ceil gives rank 162; nudging p down by one ulp (as HdrHistogram does) keeps 161.
  EXPECT_EQ(nearest_rank(64.4, 250), 161U);
  EXPECT_EQ(nearest_rank(8.8, 375), 33U);
  EXPECT_EQ(nearest_rank(99.9, 1000), 999U);
  EXPECT_EQ(nearest_rank(100, 1000), 1000U);
  EXPECT_EQ(nearest_rank(0.001, 1000), 1U);  // never below rank 1
}

TEST(TrendTest, MinMaxMeanAndSize) {
  const Trend t(kOneToTen);
  EXPECT_EQ(t.size(), 10U);
  EXPECT_EQ(t.min(), 1);
  EXPECT_EQ(t.max(), 10);
  EXPECT_DOUBLE_EQ(t.mean(), 5.5);  // 55 / 10
}

TEST(TrendTest, MeanIsExactBeyondSixtyFourBits) {
  // Four samples of 2^62 sum to 2^64, which overflows int64 but not the 128-bit sum.
  const std::int64_t big = std::int64_t{1} << 62;
  EXPECT_DOUBLE_EQ(Trend(Samples{big, big, big, big}).mean(), 0x1p62);
}

// Every rank of `samples`, asked all at once, must be the sorted sample of that rank.
void expect_every_rank(const Samples& samples) {
  Samples sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = samples.size();
  std::vector<double> ps;
  // p = 100 k / n, nudged up a little so that binary rounding never lands on rank k - 1;
  // the nearest rank of p is then k.
  for (std::size_t k = 1; k <= n; ++k) ps.push_back(100.0 * (static_cast<double>(k) - 0.5) / static_cast<double>(n));
  const Samples answers = Trend(samples).percentiles(ps);
  ASSERT_EQ(answers.size(), n);
  for (std::size_t k = 1; k <= n; ++k) ASSERT_EQ(answers[k - 1], sorted[k - 1]) << "rank " << k;
}

TEST(TrendTest, EveryRankMatchesTheSortedSamples) {
  // 5000 samples over a range of about a second in ns, with ties, in a scrambled order
  // (multiplication by 7919 permutes the residues modulo 5000): the radix selection
  // needs two digits below the range's top 11 bits.
  Samples samples;
  for (std::int64_t i = 0; i < 5000; ++i) samples.push_back((i * 7919) % 5000 * 199'999 / 3);
  expect_every_rank(samples);
}

TEST(TrendTest, ExtremeAndSkewedRangesStayExact) {
  // The full int64 range with most samples packed near one end: the top digit puts
  // nearly all of them in one bucket, and the search goes down digit by digit.
  constexpr std::int64_t lo = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t hi = std::numeric_limits<std::int64_t>::max();
  Samples samples{hi, lo, 0, -1, 1, hi - 1, lo + 1};
  for (std::int64_t i = 0; i < 300; ++i) samples.push_back(1000 + (i * 37) % 300);
  for (std::int64_t i = 0; i < 50; ++i) samples.push_back(42);  // ties
  expect_every_rank(samples);
}

TEST(TrendTest, PercentilesInPlaceOfAFewHundredSamplesAreTheSortedRanks) {
  // 65 to 2048 samples are selected after a counting pass (reports/trend.cpp): every
  // rank asked at once must still be the sorted samples' rank, for spreads that put one
  // value per bucket, most samples in one bucket (a far outlier), ties, negative values
  // and the whole int64 range.
  Xoshiro256 rng(2024);
  std::vector<double> ps;
  for (int p = 1; p <= 100; ++p) ps.push_back(p);
  ps.insert(ps.end(), {0.1, 99.9, 12.5, 50, 50});
  const auto check = [&ps](std::vector<std::int64_t> samples) {
    std::vector<std::int64_t> sorted_samples = samples;
    std::sort(sorted_samples.begin(), sorted_samples.end());
    const std::vector<std::int64_t> got = percentiles_in_place(samples, ps);
    for (std::size_t i = 0; i < ps.size(); ++i) {
      EXPECT_EQ(got[i], sorted_samples[nearest_rank(ps[i], sorted_samples.size()) - 1])
          << "p" << ps[i] << " of " << sorted_samples.size();
    }
  };
  for (const std::size_t n :
       {std::size_t{64}, std::size_t{65}, std::size_t{460}, std::size_t{1024}, std::size_t{2048}, std::size_t{2049}}) {
    std::vector<std::int64_t> uniform, narrow, outlier, ties, signed_values, extremes;
    for (std::size_t i = 0; i < n; ++i) {
      uniform.push_back(static_cast<std::int64_t>(rng.uniform_int(1'000'000'000)));
      narrow.push_back(static_cast<std::int64_t>(rng.uniform_int(n / 2 + 1)));  // shift 0: a value per bucket
      outlier.push_back(100'000'000 + static_cast<std::int64_t>(rng.uniform_int(1000)));
      ties.push_back(static_cast<std::int64_t>(rng.uniform_int(3)) * 1'000'000);
      signed_values.push_back(static_cast<std::int64_t>(rng.uniform_int(2'000'000)) - 1'000'000);
      extremes.push_back(static_cast<std::int64_t>(rng.next_u64()));
    }
    outlier.back() = 60'000'000'000;  // one far sample: nearly all the others share a bucket
    extremes.front() = std::numeric_limits<std::int64_t>::min();
    extremes.back() = std::numeric_limits<std::int64_t>::max();
    for (auto* samples : {&uniform, &narrow, &outlier, &ties, &signed_values, &extremes}) check(*samples);
    check(std::vector<std::int64_t>(n, 42));  // one value
  }
}

TEST(TrendTest, EmptyTrendAnswersZero) {
  const Trend t(std::vector<Trend::Part>{});
  EXPECT_TRUE(t.empty());
  EXPECT_EQ(t.percentile(99), 0);
  EXPECT_DOUBLE_EQ(t.mean(), 0);
  EXPECT_EQ(t.max(), 0);
  EXPECT_EQ(t.min(), 0);
}

TEST(TrendTest, SingleSampleIsEveryPercentile) {
  const Trend t(Samples{42});
  EXPECT_EQ(t.percentile(0.1), 42);
  EXPECT_EQ(t.percentile(100), 42);
}

TEST(TrendTest, PercentilesInPlaceAreTheTrendsNearestRanks) {
  std::vector<std::int64_t> samples = {50, 10, 40, 20, 30, 60, 70, 80, 90, 100};
  const std::vector<std::int64_t> copy = samples;
  static constexpr double kPs[] = {99, 50, 11, 10};  // any order, as Trend::percentiles
  EXPECT_EQ(percentiles_in_place(samples, kPs), (std::vector<std::int64_t>{100, 50, 20, 10}));
  EXPECT_EQ(percentiles_in_place(samples, kPs), Trend(Trend::Part(copy)).percentiles(kPs));
  std::vector<std::int64_t> none;
  EXPECT_EQ(percentiles_in_place(none, kPs), (std::vector<std::int64_t>{0, 0, 0, 0}));
}

}  // namespace
}  // namespace squall

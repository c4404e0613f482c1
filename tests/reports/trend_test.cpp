#include "reports/trend.hpp"

#include <gtest/gtest.h>

namespace squall {
namespace {

// Ten samples given out of order; sorted they are 1..10, so rank k is the value k.
Trend one_to_ten() { return Trend({7, 3, 10, 1, 9, 2, 8, 4, 6, 5}); }

TEST(TrendTest, NearestRankOnTenSamples) {
  const Trend t = one_to_ten();
  // rank = max(1, ceil(p / 100 * 10))
  EXPECT_DOUBLE_EQ(t.percentile(1), 1);     // ceil(0.1) = 1
  EXPECT_DOUBLE_EQ(t.percentile(10), 1);    // ceil(1.0) = 1
  EXPECT_DOUBLE_EQ(t.percentile(15), 2);    // ceil(1.5) = 2
  EXPECT_DOUBLE_EQ(t.percentile(50), 5);    // ceil(5.0) = 5
  EXPECT_DOUBLE_EQ(t.percentile(90), 9);    // ceil(9.0) = 9
  EXPECT_DOUBLE_EQ(t.percentile(91), 10);   // ceil(9.1) = 10
  EXPECT_DOUBLE_EQ(t.percentile(99), 10);   // ceil(9.9) = 10
  EXPECT_DOUBLE_EQ(t.percentile(100), 10);  // ceil(10) = 10
}

TEST(TrendTest, MedianIsTheLowerMiddleForAnEvenCount) {
  // Nearest rank: ceil(0.5 * 4) = 2, the sample 2. k6's interpolation would give 2.5.
  EXPECT_DOUBLE_EQ(Trend({4, 1, 3, 2}).median(), 2);
  EXPECT_DOUBLE_EQ(Trend({5, 1, 3}).median(), 3);  // ceil(1.5) = 2
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
  const Trend t = one_to_ten();
  EXPECT_EQ(t.size(), 10U);
  EXPECT_DOUBLE_EQ(t.min(), 1);
  EXPECT_DOUBLE_EQ(t.max(), 10);
  EXPECT_DOUBLE_EQ(t.mean(), 5.5);
}

TEST(TrendTest, EmptyTrendAnswersZero) {
  const Trend t({});
  EXPECT_TRUE(t.empty());
  EXPECT_DOUBLE_EQ(t.percentile(99), 0);
  EXPECT_DOUBLE_EQ(t.mean(), 0);
  EXPECT_DOUBLE_EQ(t.max(), 0);
}

TEST(TrendTest, SingleSampleIsEveryPercentile) {
  const Trend t({42});
  EXPECT_DOUBLE_EQ(t.percentile(0.1), 42);
  EXPECT_DOUBLE_EQ(t.percentile(100), 42);
}

}  // namespace
}  // namespace squall

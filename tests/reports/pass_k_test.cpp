#include "reports/pass_k.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace squall {
namespace {

// 7 of 8 seeds passed: C(7, k) / C(8, k) = (8 - k) / 8, by hand:
//   k=1 7/8, k=2 21/28, k=3 35/56, k=4 35/70, k=5 21/56, k=6 7/28, k=7 1/8, k=8 0/1.
TEST(PassKTest, SevenOfEight) {
  EXPECT_EQ(pass_hat_k(8, 7), (std::vector<double>{0.875, 0.75, 0.625, 0.5, 0.375, 0.25, 0.125, 0.0}));
}

// 2 of 3: k=1 2/3, k=2 C(2,2)/C(3,2) = 1/3, k=3 C(2,3)/C(3,3) = 0/1.
TEST(PassKTest, TwoOfThreeStopsAtN) {
  const std::vector<double> p = pass_hat_k(3, 2);
  ASSERT_EQ(p.size(), 3u);
  EXPECT_DOUBLE_EQ(p[0], 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(p[1], 1.0 / 3.0);
  EXPECT_EQ(p[2], 0.0);
}

TEST(PassKTest, AllOrNonePassed) {
  EXPECT_EQ(pass_hat_k(5, 5), (std::vector<double>(5, 1.0)));
  EXPECT_EQ(pass_hat_k(10, 0), (std::vector<double>(8, 0.0)));  // k stops at 8
  EXPECT_TRUE(pass_hat_k(0, 0).empty());
  EXPECT_EQ(pass_hat_k(1, 1), (std::vector<double>{1.0}));
}

// Binomials far beyond 64 bits stay exact: C(10000, 8) is about 2.5e27.
//   C(9999, 8) / C(10000, 8) = (10000 - 8) / 10000 = 0.9992
//   C(5000, 2) / C(10000, 2) = 5000 * 4999 / (10000 * 9999) = 4999 / 19998
//   C(5000, 8) / C(10000, 8) = prod_{i<8} (5000 - i) / (10000 - i), a product taken by hand
//   as 4999*...*4993 / (9999*...*9993) / 2
TEST(PassKTest, LargeCountsDoNotOverflow) {
  const std::vector<double> high = pass_hat_k(10000, 9999);
  ASSERT_EQ(high.size(), 8u);
  EXPECT_DOUBLE_EQ(high[7], 0.9992);
  const std::vector<double> half = pass_hat_k(10000, 5000);
  EXPECT_DOUBLE_EQ(half[1], 4999.0 / 19998.0);
  double expected = 0.5;
  for (int i = 1; i < 8; ++i) expected *= (5000.0 - i) / (10000.0 - i);
  EXPECT_NEAR(half[7], expected, 1e-15);
}

TEST(PassKTest, MaxKLimitsTheLength) { EXPECT_EQ(pass_hat_k(8, 8, 3), (std::vector<double>(3, 1.0))); }

}  // namespace
}  // namespace squall

#include "replay/change_points.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/runtime/rng.hpp"

namespace squall::replay {
namespace {

std::vector<bool> bernoulli_series(const std::vector<std::pair<std::size_t, double>>& phases, std::uint64_t seed) {
  Xoshiro256 rng(seed);
  std::vector<bool> out;
  for (const auto& [n, p] : phases) {
    for (std::size_t i = 0; i < n; ++i) out.push_back(rng.bernoulli(p));
  }
  return out;
}

TEST(BernoulliCost, IsTwiceTheNegativeLogLikelihood) {
  EXPECT_EQ(bernoulli_cost(0, 10), 0);
  EXPECT_EQ(bernoulli_cost(10, 10), 0);
  EXPECT_NEAR(bernoulli_cost(5, 10), -2 * 10 * std::log(0.5), 1e-12);
}

TEST(Pelt, FindsAWindowOfFailures) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const auto series = bernoulli_series({{300, 0.0}, {300, 0.3}, {300, 0.0}}, seed);
    const auto changes = pelt_bernoulli(series);
    ASSERT_EQ(changes.size(), 2u) << "seed " << seed;
    // The first failure of the window and the last one bound it: within a few trials.
    EXPECT_NEAR(static_cast<double>(changes[0]), 300, 15) << "seed " << seed;
    EXPECT_NEAR(static_cast<double>(changes[1]), 600, 15) << "seed " << seed;
  }
}

TEST(Pelt, AConstantRateHasNoChange) {
  for (std::uint64_t seed : {4u, 5u, 6u}) {
    const auto series = bernoulli_series({{1000, 0.1}}, seed);
    EXPECT_TRUE(pelt_bernoulli(series).empty()) << "seed " << seed;
  }
}

TEST(Pelt, MatchesTheExhaustiveOptimumOnSmallSeries) {
  // Optimal partitioning without pruning, over every split, for 40 trials.
  Xoshiro256 rng(11);
  for (int round = 0; round < 20; ++round) {
    std::vector<bool> raw(40);
    for (std::size_t i = 0; i < 40; ++i) raw[i] = rng.bernoulli(round % 2 == 0 ? 0.2 : 0.6);
    for (std::size_t i = 15; i < 25; ++i) raw[i] = rng.bernoulli(0.9);
    const double beta = 2 * std::log(40.0);
    std::vector<double> best(41, 0);
    std::vector<std::size_t> prev(41, 0);
    auto cost = [&](std::size_t s, std::size_t t) {
      double k = 0;
      for (std::size_t i = s; i < t; ++i) k += raw[i] ? 1 : 0;
      return bernoulli_cost(k, static_cast<double>(t - s));
    };
    best[0] = -beta;
    for (std::size_t t = 1; t <= 40; ++t) {
      best[t] = 1e300;
      for (std::size_t s = 0; s < t; ++s) {
        const double v = best[s] + cost(s, t) + beta;
        if (v < best[t]) {
          best[t] = v;
          prev[t] = s;
        }
      }
    }
    std::vector<std::size_t> expected;
    for (std::size_t t = prev[40]; t > 0; t = prev[t]) expected.insert(expected.begin(), t);
    EXPECT_EQ(pelt_bernoulli(raw), expected) << "round " << round;
  }
}

TEST(Pelt, CategoriesSeeAShiftBetweenKindsAtALevelFailureRate) {
  // 40% failures throughout: kind 1 for the first 500 trials, kind 2 for the next 500.
  Xoshiro256 rng(31);
  std::vector<std::uint8_t> categories;
  std::vector<bool> failed;
  for (std::size_t i = 0; i < 1000; ++i) {
    const bool fail = rng.bernoulli(0.4);
    failed.push_back(fail);
    categories.push_back(fail ? (i < 500 ? 1 : 2) : 0);
  }
  EXPECT_TRUE(pelt_bernoulli(failed).empty());
  const auto changes = pelt_categorical(categories);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_NEAR(static_cast<double>(changes[0]), 500, 10);
}

TEST(Pelt, MinimumSegmentLength) {
  std::vector<bool> raw(20, false);
  raw[10] = raw[11] = true;
  const auto changes = pelt_bernoulli(raw, {.penalty = 0.1, .min_size = 5});
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const std::size_t from = i == 0 ? 0 : changes[i - 1];
    EXPECT_GE(changes[i] - from, 5u);
  }
  EXPECT_GE(20 - (changes.empty() ? 0 : changes.back()), 5u);
  EXPECT_FALSE(changes.empty());
}

}  // namespace
}  // namespace squall::replay

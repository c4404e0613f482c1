#include "replay/bayesian_blocks.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "tests/replay/fit_test_data.hpp"

namespace squall::replay {
namespace {

using testing::kNsPerS;
using testing::poisson_events;

double seconds(std::int64_t ns) { return static_cast<double>(ns) / 1e9; }

TEST(BayesianBlocks, PriorIsEquation21) {
  // 4 - ln(73.53 * 0.05 * 1000^-0.478)
  EXPECT_NEAR(ncp_prior_events(1000, 0.05), 4.0 - std::log(73.53 * 0.05 * std::pow(1000.0, -0.478)), 1e-12);
  EXPECT_NEAR(ncp_prior_events(1000, 0.05), 6.0, 0.02);
}

TEST(BayesianBlocks, RecoversASurgeOfAPoissonProcess) {
  // 2/s for 60 s, 10/s for 30 s, 2/s for 60 s.
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const auto times = poisson_events({{60, 2}, {30, 10}, {60, 2}}, seed, 1'700'000'000 * kNsPerS);
    const BayesianBlocks fit = bayesian_blocks(times);
    ASSERT_EQ(fit.blocks.size(), 3u) << "seed " << seed;
    EXPECT_FALSE(fit.binned);
    const double origin = 1'700'000'000.0;
    EXPECT_NEAR(seconds(fit.blocks[1].from_ns) - origin, 60, 3) << "seed " << seed;
    EXPECT_NEAR(seconds(fit.blocks[1].to_ns) - origin, 90, 3) << "seed " << seed;
    EXPECT_NEAR(fit.blocks[0].rate_per_s, 2, 0.4) << "seed " << seed;
    EXPECT_NEAR(fit.blocks[1].rate_per_s, 10, 2) << "seed " << seed;
    EXPECT_NEAR(fit.blocks[2].rate_per_s, 2, 0.4) << "seed " << seed;
    std::uint64_t total = 0;
    for (const RateBlock& b : fit.blocks) total += b.events;
    EXPECT_EQ(total, times.size());
  }
}

TEST(BayesianBlocks, AConstantProcessIsOneBlock) {
  for (std::uint64_t seed : {4u, 5u, 6u}) {
    const auto times = poisson_events({{120, 5}}, seed);
    const BayesianBlocks fit = bayesian_blocks(times);
    ASSERT_EQ(fit.blocks.size(), 1u) << "seed " << seed;
    EXPECT_NEAR(fit.blocks[0].rate_per_s, 5, 1);
  }
}

TEST(BayesianBlocks, ManyEventsRunTheBinnedForm) {
  // 200,000 events: the binned form with 2,000 cells keeps the program at 4e6 steps.
  const auto times = poisson_events({{1000, 50}, {1000, 150}, {1000, 50}}, 7);
  const BayesianBlocks fit = bayesian_blocks(times, {.p0 = 0.05, .max_cells = 2000});
  EXPECT_TRUE(fit.binned);
  EXPECT_EQ(fit.cells, 2000u);
  // A bin that straddles a change holds a mixture of the two rates and may be a block of
  // its own (one bin, 1.5 s wide): the edges land within a bin of the true ones.
  const double bin_s = 3000.0 / 2000;
  auto holding = [&](double t) {
    for (const RateBlock& b : fit.blocks) {
      if (seconds(b.from_ns) <= t && t < seconds(b.to_ns)) return b;
    }
    return RateBlock{};
  };
  EXPECT_NEAR(holding(500).rate_per_s, 50, 5);
  EXPECT_NEAR(holding(1500).rate_per_s, 150, 15);
  EXPECT_NEAR(holding(2500).rate_per_s, 50, 5);
  EXPECT_NEAR(seconds(holding(1500).from_ns), 1000, 2 * bin_s);
  EXPECT_NEAR(seconds(holding(1500).to_ns), 2000, 2 * bin_s);
  for (const RateBlock& b : fit.blocks) {
    const double width = seconds(b.to_ns) - seconds(b.from_ns);
    if (width < 900) {
      EXPECT_LE(width, bin_s * 1.01);
    }
  }
  EXPECT_LE(fit.blocks.size(), 5u);
}

TEST(BayesianBlocks, EdgeCases) {
  EXPECT_TRUE(bayesian_blocks({}).blocks.empty());
  const std::vector<std::int64_t> same{5, 5, 5};
  const BayesianBlocks one = bayesian_blocks(same);
  ASSERT_EQ(one.blocks.size(), 1u);
  EXPECT_EQ(one.blocks[0].events, 3u);
  EXPECT_EQ(one.blocks[0].rate_per_s, 0);
  const std::vector<std::int64_t> unsorted{3, 1};
  try {
    bayesian_blocks(unsorted);
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "bayesian_blocks: event times must be sorted ascending");
  }
}

TEST(BayesianBlocks, SameInputSameBlocks) {
  const auto times = poisson_events({{60, 2}, {30, 10}}, 9);
  const BayesianBlocks a = bayesian_blocks(times);
  const BayesianBlocks b = bayesian_blocks(times);
  ASSERT_EQ(a.blocks.size(), b.blocks.size());
  for (std::size_t i = 0; i < a.blocks.size(); ++i) {
    EXPECT_EQ(a.blocks[i].from_ns, b.blocks[i].from_ns);
    EXPECT_EQ(a.blocks[i].events, b.blocks[i].events);
  }
}

}  // namespace
}  // namespace squall::replay

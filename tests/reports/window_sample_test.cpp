#include "reports/window_sample.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/runtime/rng.hpp"

namespace squall {
namespace {

using Samples = std::vector<std::int64_t>;

Samples sorted(Samples s) {
  std::sort(s.begin(), s.end());
  return s;
}

TEST(WindowSampleTest, KeepsEverySampleUpToTheBound) {
  WindowSample w;
  Samples all;
  for (std::uint64_t i = 0; i < WindowSample::kKept; ++i) {
    const auto x = static_cast<std::int64_t>((i * 7919) % 1000);
    w.add(i, x);
    all.push_back(x);
  }
  EXPECT_TRUE(w.exact());
  EXPECT_EQ(sorted(w.kept()), sorted(all));
  EXPECT_EQ(w.count(), WindowSample::kKept);
  EXPECT_EQ(w.max(), 999);
}

TEST(WindowSampleTest, PastTheBoundKeepsABoundedSampleAndExactCountMaxAndSum) {
  WindowSample w;
  const std::uint64_t n = 100'000;
  for (std::uint64_t i = 0; i < n; ++i) w.add(i, static_cast<std::int64_t>(i));
  EXPECT_FALSE(w.exact());
  EXPECT_EQ(w.kept().size(), WindowSample::kKept);
  EXPECT_EQ(w.count(), n);
  EXPECT_EQ(w.max(), static_cast<std::int64_t>(n - 1));
  EXPECT_EQ(static_cast<std::uint64_t>(w.sum()), n * (n - 1) / 2);
}

TEST(WindowSampleTest, TheSampleDependsOnTheKeysNotOnTheirOrder) {
  WindowSample forward;
  WindowSample backward;
  const std::uint64_t n = 20'000;
  for (std::uint64_t i = 0; i < n; ++i) forward.add(i, static_cast<std::int64_t>(3 * i));
  for (std::uint64_t i = n; i-- > 0;) backward.add(i, static_cast<std::int64_t>(3 * i));
  EXPECT_EQ(sorted(forward.kept()), sorted(backward.kept()));
}

TEST(WindowSampleTest, PastTheBoundKeepsTheSamplesOfTheLowestHashedKeys) {
  // Keys are hashed only once the bound is passed (reports/window_sample.hpp): the kept
  // samples must still be those of the kKept lowest splitmix64 hashes, whether the bound
  // was passed by one sample or by many.
  for (const std::uint64_t n : {WindowSample::kKept + 1, 3 * WindowSample::kKept + 7}) {
    WindowSample w;
    std::vector<std::pair<std::uint64_t, std::int64_t>> by_hash;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t key = 1000 + 17 * i;
      const auto sample = static_cast<std::int64_t>((i * 7919) % 5000);
      w.add(key, sample);
      std::uint64_t state = key;
      by_hash.emplace_back(splitmix64(state), sample);
    }
    std::sort(by_hash.begin(), by_hash.end());
    Samples expected;
    for (std::size_t i = 0; i < WindowSample::kKept; ++i) expected.push_back(by_hash[i].second);
    EXPECT_EQ(sorted(w.kept()), sorted(expected)) << "n = " << n;
    EXPECT_EQ(w.count(), n);
  }
}

TEST(WindowSampleTest, TheSampleIsUniformWithinTheDocumentedRankError) {
  // Samples equal to their rank among 0..n-1: the sample's p-quantile estimates rank
  // p*n, within 2*sqrt(p(1-p)/kKept) (reports/window_sample.hpp) of it.
  WindowSample w;
  const std::uint64_t n = 1'000'000;
  for (std::uint64_t i = 0; i < n; ++i) w.add(i, static_cast<std::int64_t>(i));
  const Samples kept = sorted(w.kept());
  for (const double p : {0.5, 0.9, 0.99}) {
    const auto at = kept[static_cast<std::size_t>(p * static_cast<double>(kept.size()))];
    const double observed = static_cast<double>(at) / static_cast<double>(n);
    const double bound = 2 * std::sqrt(p * (1 - p) / static_cast<double>(WindowSample::kKept));
    EXPECT_NEAR(observed, p, bound) << "p = " << p;
  }
}

}  // namespace
}  // namespace squall

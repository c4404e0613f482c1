#include "engine/runtime/rounding.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "engine/runtime/rng.hpp"

namespace squall {
namespace {

TEST(RoundingTest, HalvesAndEdgesAsLlround) {
  // Halves round away from zero; the largest double below 0.5 rounds down (x + 0.5 would
  // round it up); from 2^52 on every double is whole.
  for (const double x : {0.0, 0.25, 0.49999999999999994, 0.5, 1.5, 2.5, 1e9 + 0.5, 0x1.0p52 - 0.5, 0x1.0p52,
                         0x1.0p52 + 1, 0x1.0p53 + 2, 0x1.0p62, 0x1.fffffffffffffp62}) {
    EXPECT_EQ(round_non_negative(x), std::llround(x)) << x;
  }
}

TEST(RoundingTest, RandomDoublesAsLlround) {
  // Uniform bit patterns of non-negative doubles below 2^63 (every exponent), and uniform
  // values and latency-sized values (up to 10^12 ns), a million of each.
  Xoshiro256 rng(2026);
  for (int i = 0; i < 1'000'000; ++i) {
    const std::uint64_t bits = rng.next_u64() & ~(std::uint64_t{1} << 63);
    double x = 0;
    std::memcpy(&x, &bits, sizeof x);
    if (x < 0x1.0p63) {
      ASSERT_EQ(round_non_negative(x), std::llround(x)) << x;
    }
    const double u = rng.uniform01();
    ASSERT_EQ(round_non_negative(u), std::llround(u)) << u;
    const double ns = u * 1e12;
    ASSERT_EQ(round_non_negative(ns), std::llround(ns)) << ns;
  }
}

}  // namespace
}  // namespace squall

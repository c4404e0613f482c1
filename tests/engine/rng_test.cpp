#include "engine/runtime/rng.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

namespace squall {
namespace {

// Reference values below come from a direct transcription of the published algorithms
// (splitmix64.c and xoshiro256starstar.c by Blackman and Vigna, prng.di.unimi.it) in
// Python with 64-bit masking, independent of rng.cpp.

TEST(RngTest, Splitmix64KnownAnswer) {
  // splitmix64 from state 0: the sequence published with the reference implementation.
  std::uint64_t state = 0;
  EXPECT_EQ(splitmix64(state), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(splitmix64(state), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(splitmix64(state), 0x06c45d188009454fULL);
}

TEST(RngTest, Xoshiro256StarStarKnownAnswer) {
  // State = four splitmix64 outputs from the seed, then xoshiro256** 1.0.
  Xoshiro256 zero(0);
  EXPECT_EQ(zero.next_u64(), 0x99ec5f36cb75f2b4ULL);
  EXPECT_EQ(zero.next_u64(), 0xbf6e1f784956452aULL);
  EXPECT_EQ(zero.next_u64(), 0x1a5f849d4933e6e0ULL);
  EXPECT_EQ(zero.next_u64(), 0x6aa594f1262d2d2cULL);
  Xoshiro256 answer(42);
  EXPECT_EQ(answer.next_u64(), 0x15780b2e0c2ec716ULL);
  EXPECT_EQ(answer.next_u64(), 0x6104d9866d113a7eULL);
  EXPECT_EQ(answer.next_u64(), 0xae17533239e499a1ULL);
  EXPECT_EQ(answer.next_u64(), 0xecb8ad4703b360a1ULL);
}

// A Xoshiro256 reached only through the virtual next_u64(), as any other Rng is.
class VirtualXoshiro final : public Rng {
 public:
  explicit VirtualXoshiro(std::uint64_t seed) : inner_(seed) {}
  std::uint64_t next_u64() override { return inner_.next_u64(); }

 private:
  Xoshiro256 inner_;
};

TEST(RngTest, DistributionsOfAXoshiroDrawWhatTheVirtualCallDraws) {
  // The distributions step a Xoshiro256 inline (Rng::draw); every value, and the
  // stream's position after each, is what the same seed gives through next_u64().
  Xoshiro256 inline_draws(77);
  VirtualXoshiro virtual_draws(77);
  Rng& a = inline_draws;
  Rng& b = virtual_draws;
  const std::array<double, 3> weights{0.2, 0.5, 0.3};
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(a.uniform01(), b.uniform01());
    EXPECT_EQ(a.uniform_int(7), b.uniform_int(7));
    EXPECT_EQ(a.uniform_int((std::uint64_t{1} << 63) + 12345), b.uniform_int((std::uint64_t{1} << 63) + 12345));
    EXPECT_EQ(a.uniform_range(INT64_MIN, INT64_MAX), b.uniform_range(INT64_MIN, INT64_MAX));
    EXPECT_EQ(a.exponential(80.0), b.exponential(80.0));
    EXPECT_EQ(a.lognormal(100.0, 0.7), b.lognormal(100.0, 0.7));
    EXPECT_EQ(a.weighted_index(weights), b.weighted_index(weights));
    EXPECT_EQ(a.bernoulli(0.3), b.bernoulli(0.3));
    EXPECT_EQ(a.next_u64(), b.next_u64());
  }
}

TEST(RngTest, StreamSeedHashesTheNameWithCrc64Xz) {
  // CRC-64/XZ("policy/web_search/1/retry") xor 7, through one splitmix64 step.
  EXPECT_EQ(stream_seed(7, "policy/web_search/1/retry"), 0x68fe1d14290f5716ULL);
}

TEST(RngTest, StreamSeedSplitsIntoTheNamesCrcAndTheMix) {
  // CRC-64/XZ's check value (the CRC catalogue's "123456789"), and the empty text's 0.
  EXPECT_EQ(crc64_xz("123456789"), 0x995dc9bbdf1939faULL);
  EXPECT_EQ(crc64_xz(""), 0U);
  EXPECT_EQ(stream_seed_of_crc(7, crc64_xz("policy/web_search/1/retry")), 0x68fe1d14290f5716ULL);
}

TEST(RngTest, StreamSeedDiffersByNameAndSeed) {
  const std::uint64_t base = stream_seed(7, "mocks/web_search");
  EXPECT_EQ(stream_seed(7, "mocks/web_search"), base);
  EXPECT_NE(stream_seed(7, "mocks/vector_search"), base);
  EXPECT_NE(stream_seed(8, "mocks/web_search"), base);
  EXPECT_NE(stream_seed(7, ""), base);
}

TEST(RngTest, Uniform01AndFixedRng) {
  EXPECT_EQ(FixedRng::at_fraction(0.25).uniform01(), 0.25);
  EXPECT_EQ(FixedRng::at_fraction(0.0).uniform01(), 0.0);
  EXPECT_EQ(FixedRng(~0ULL).uniform01(), 1.0 - 0x1.0p-53);  // the largest value, below 1
  Xoshiro256 rng(1);
  for (int i = 0; i < 10'000; ++i) {
    const double u = rng.uniform01();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

TEST(RngTest, UniformIntIsInRangeAndUnbiased) {
  // 600k draws over 6 values: each count's standard deviation is sqrt(600k * 1/6 * 5/6)
  // ~ 289, so +-1% of 100k (1000, ~3.5 sigma) holds; the seed is fixed, so this cannot flake.
  Xoshiro256 rng(2024);
  std::array<int, 6> counts{};
  for (int i = 0; i < 600'000; ++i) {
    const std::uint64_t x = rng.uniform_int(6);
    ASSERT_LT(x, 6U);
    ++counts[x];
  }
  for (int c : counts) EXPECT_NEAR(c, 100'000, 1'000);

  // A range that forces rejections (n close to 2^63) still returns values below n.
  const std::uint64_t n = (1ULL << 63) + 1;
  for (int i = 0; i < 1'000; ++i) ASSERT_LT(rng.uniform_int(n), n);
  EXPECT_EQ(rng.uniform_int(1), 0U);
}

// Yields `zeros` zeros, then `value` forever, and counts its draws.
class ZerosThenValueRng final : public Rng {
 public:
  ZerosThenValueRng(int zeros, std::uint64_t value) : zeros_(zeros), value_(value) {}
  std::uint64_t next_u64() override { return draws_++ < zeros_ ? 0 : value_; }
  int draws() const { return draws_; }

 private:
  int zeros_;
  std::uint64_t value_;
  int draws_ = 0;
};

TEST(RngTest, UniformIntEndsWithAConstantSource) {
  // n = 6: the rejection threshold is 2^64 mod 6 = 4, and a zero draw gives the product
  // 0 * 6 = 0, whose low word 0 < 4 is rejected every time. The loop gives up after the
  // first draw and kMaxUniformIntRejections more, returning the last high word, 0.
  FixedRng fixed(0);
  EXPECT_EQ(fixed.uniform_int(6), 0U);

  ZerosThenValueRng zeros(1'000, 0);
  EXPECT_EQ(zeros.uniform_int(6), 0U);
  EXPECT_EQ(zeros.draws(), 1 + Rng::kMaxUniformIntRejections);
}

TEST(RngTest, UniformIntAcceptsADrawUpToTheBound) {
  // v = 2^62 + 1: v * 6 = 1.5 * 2^64 + 6, high word 1, low word 2^63 + 6 >= 4: accepted.
  constexpr std::uint64_t kAccepted = (1ULL << 62) + 1;
  // 64 zeros are rejected (the first draw and 63 retries); the 65th draw, the last one the
  // bound allows, is accepted and gives 1.
  ZerosThenValueRng last_chance(Rng::kMaxUniformIntRejections, kAccepted);
  EXPECT_EQ(last_chance.uniform_int(6), 1U);
  EXPECT_EQ(last_chance.draws(), 1 + Rng::kMaxUniformIntRejections);
  // One zero more and the bound is reached first: the fallback 0, and v is never drawn.
  ZerosThenValueRng too_late(Rng::kMaxUniformIntRejections + 1, kAccepted);
  EXPECT_EQ(too_late.uniform_int(6), 0U);
  EXPECT_EQ(too_late.draws(), 1 + Rng::kMaxUniformIntRejections);
}

// Yields `values` in order, then the last one forever, and counts its draws.
class SequenceRng final : public Rng {
 public:
  explicit SequenceRng(std::vector<std::uint64_t> values) : values_(std::move(values)) {}
  std::uint64_t next_u64() override { return values_[std::min<std::size_t>(draws_++, values_.size() - 1)]; }
  std::size_t draws() const { return draws_; }

 private:
  std::vector<std::uint64_t> values_;
  std::size_t draws_ = 0;
};

TEST(RngTest, UniformIntRejectsExactlyTheLowWordsBelowTheThreshold) {
  // Lemire's rule rejects a product whose low word is below 2^64 mod n, and only those:
  // for n = 6 the threshold is 4.
  //   v = 0x5555555555555556: 6v = 2^65 + 4, high word 2, low word 4 (= the threshold)
  //   u = 0x2AAAAAAAAAAAAAAB: 6u = 2^64 + 2, high word 1, low word 2 (< the threshold)
  constexpr std::uint64_t kLowFour = 0x5555555555555556ULL;
  constexpr std::uint64_t kLowTwo = 0x2AAAAAAAAAAAAAABULL;
  static_assert(static_cast<std::uint64_t>(kLowFour * 6) == 4 && static_cast<std::uint64_t>(kLowTwo * 6) == 2);
  SequenceRng at_threshold({kLowFour});
  EXPECT_EQ(at_threshold.uniform_int(6), 2U);
  EXPECT_EQ(at_threshold.draws(), 1U);  // accepted on the first draw
  SequenceRng below_threshold({kLowTwo, kLowFour});
  EXPECT_EQ(below_threshold.uniform_int(6), 2U);
  EXPECT_EQ(below_threshold.draws(), 2U);  // the first draw rejected, the second accepted
}

TEST(RngTest, UniformRangeIsInclusive) {
  Xoshiro256 rng(5);
  bool saw_lo = false;
  bool saw_hi = false;
  for (int i = 0; i < 10'000; ++i) {
    const std::int64_t x = rng.uniform_range(-2, 2);
    ASSERT_GE(x, -2);
    ASSERT_LE(x, 2);
    saw_lo |= x == -2;
    saw_hi |= x == 2;
  }
  EXPECT_TRUE(saw_lo && saw_hi);
  EXPECT_EQ(rng.uniform_range(7, 7), 7);
}

// Phi(x), the standard normal CDF.
double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::numbers::sqrt2); }

TEST(RngTest, StandardNormalPassesKolmogorovSmirnov) {
  // 1M draws against Phi: the Kolmogorov-Smirnov distance sup |F_n - Phi| stays below
  // 1.63 / sqrt(n), the 1% critical value. A ziggurat with a wrong layer edge, area or
  // wedge test moves the CDF by far more than that (0.0016) where the layer is.
  Xoshiro256 rng(2024);
  constexpr std::size_t n = 1'000'000;
  std::vector<double> xs(n);
  for (double& x : xs) x = rng.standard_normal();
  std::sort(xs.begin(), xs.end());
  double d = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double phi = normal_cdf(xs[i]);
    d = std::max({d, static_cast<double>(i + 1) / n - phi, phi - static_cast<double>(i) / n});
  }
  EXPECT_LT(d, 1.63 / std::sqrt(static_cast<double>(n)));
}

TEST(RngTest, StandardNormalMomentsAndTails) {
  // Mean 0 and variance 1 within about 5 standard errors over 1M draws; the fraction
  // beyond the ziggurat's base edge R = 3.654 (its tail method) and beyond 4.5 matches
  // 2 * (1 - Phi) within 5 binomial standard deviations, on both sides.
  Xoshiro256 rng(77);
  constexpr int n = 1'000'000;
  double sum = 0, sum_sq = 0;
  int beyond_r = 0, beyond_4_5 = 0, negative = 0;
  for (int i = 0; i < n; ++i) {
    const double x = rng.standard_normal();
    sum += x;
    sum_sq += x * x;
    beyond_r += std::abs(x) > 3.6541528853610088;
    beyond_4_5 += std::abs(x) > 4.5;
    negative += x < 0;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.005);
  EXPECT_NEAR(sum_sq / n, 1.0, 0.007);
  EXPECT_NEAR(negative / static_cast<double>(n), 0.5, 0.0025);
  const auto near_expected = [&](int count, double z) {
    const double p = 2 * (1 - normal_cdf(z));
    EXPECT_NEAR(count, n * p, 5 * std::sqrt(n * p)) << "beyond " << z;
  };
  near_expected(beyond_r, 3.6541528853610088);
  near_expected(beyond_4_5, 4.5);
}

TEST(RngTest, StandardNormalEndsOnAConstantSource) {
  // A constant source repeats one draw: a wedge or tail rejection would repeat forever
  // without the bound. Every output is finite.
  for (const double u : {0.0, 0.001, 0.5, 0.98, 0.999999}) {
    FixedRng rng = FixedRng::at_fraction(u);
    EXPECT_TRUE(std::isfinite(rng.standard_normal())) << u;
  }
  for (const std::uint64_t bits : {std::uint64_t{0}, ~std::uint64_t{0}, std::uint64_t{0xff}, std::uint64_t{0x1ff},
                                   std::uint64_t{0x8000000000000000}, std::uint64_t{0xfffffffffffff800}}) {
    FixedRng rng(bits);
    EXPECT_TRUE(std::isfinite(rng.standard_normal())) << bits;
  }
}

TEST(RngTest, LognormalMatchesItsMedianAndP99) {
  // 200k draws of a lognormal with median 180 and p99 1200: the empirical quantiles are
  // within 1% (median) and 3% (p99, fewer samples in the tail) of the targets.
  Xoshiro256 rng(99);
  std::vector<double> xs(200'000);
  for (double& x : xs) x = rng.lognormal_median_p99(180.0, 1200.0);
  std::sort(xs.begin(), xs.end());
  EXPECT_NEAR(xs[xs.size() / 2], 180.0, 1.8);
  EXPECT_NEAR(xs[xs.size() * 99 / 100], 1200.0, 36.0);
}

TEST(RngTest, ExponentialMean) {
  // Mean 2.5 over 200k draws: standard error 2.5 / sqrt(200k) ~ 0.0056; 1% is ~4.5 SE.
  Xoshiro256 rng(7);
  double sum = 0;
  for (int i = 0; i < 200'000; ++i) {
    const double x = rng.exponential(2.5);
    ASSERT_GE(x, 0.0);
    sum += x;
  }
  EXPECT_NEAR(sum / 200'000, 2.5, 0.025);
}

TEST(RngTest, WeightedIndexFrequencies) {
  // Weights 1, 2, 0, 7: frequencies 0.1, 0.2, 0, 0.7 within 0.005 over 200k draws
  // (the largest standard deviation, sqrt(0.21 / 200k) ~ 0.001).
  Xoshiro256 rng(11);
  const std::vector<double> weights{1, 2, 0, 7};
  std::array<int, 4> counts{};
  for (int i = 0; i < 200'000; ++i) ++counts[rng.weighted_index(weights)];
  EXPECT_NEAR(counts[0] / 200'000.0, 0.1, 0.005);
  EXPECT_NEAR(counts[1] / 200'000.0, 0.2, 0.005);
  EXPECT_EQ(counts[2], 0);
  EXPECT_NEAR(counts[3] / 200'000.0, 0.7, 0.005);
}

TEST(RngTest, BernoulliEdgesAndRate) {
  Xoshiro256 rng(3);
  int hits = 0;
  for (int i = 0; i < 100'000; ++i) {
    EXPECT_FALSE(rng.bernoulli(0.0));
    EXPECT_TRUE(rng.bernoulli(1.0));
    hits += rng.bernoulli(0.3) ? 1 : 0;
  }
  EXPECT_NEAR(hits / 100'000.0, 0.3, 0.005);
}

}  // namespace
}  // namespace squall

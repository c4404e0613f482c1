#include "mocks/latency.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace squall {
namespace {

// Counts draws so that tests can check how many a shape consumes.
class CountingRng final : public Rng {
 public:
  std::uint64_t next_u64() override {
    ++draws;
    return inner.next_u64();
  }
  Xoshiro256 inner{42};
  int draws = 0;
};

std::vector<Nanos> sorted_samples(const LatencyModel& model, std::uint64_t seed, std::size_t n) {
  Xoshiro256 rng(seed);
  std::vector<Nanos> v(n);
  for (auto& x : v) x = model.sample(rng);
  std::sort(v.begin(), v.end());
  return v;
}

TEST(LatencyModelTest, ConstantIsExactAndDrawsNothing) {
  CountingRng rng;
  const LatencyModel model({LatencyShape::constant, 250 * kMillisecond, 0, 0, 0});
  EXPECT_EQ(model.sample(rng), 250 * kMillisecond);
  EXPECT_EQ(model.sample(rng), 250 * kMillisecond);
  EXPECT_EQ(rng.draws, 0);
}

TEST(LatencyModelTest, NegativeConstantClampsToZero) {
  CountingRng rng;
  EXPECT_EQ(LatencyModel({LatencyShape::constant, -5, 0, 0, 0}).sample(rng), 0);
}

TEST(LatencyModelTest, ExponentialAtAFixedDrawIsTheInverseTransform) {
  // U = 0.5: -mean * ln(1 - 0.5) = 100 ms * 0.693147180559945 = 69314718.06 ns -> 69314718.
  FixedRng rng = FixedRng::at_fraction(0.5);
  const LatencyModel model({LatencyShape::exponential, 0, 100 * kMillisecond, 0, 0});
  EXPECT_EQ(model.sample(rng), 69'314'718);
}

TEST(LatencyModelTest, ExponentialMeanWithinFourStandardErrors) {
  // The exponential's standard deviation equals its mean, so the sample mean of n draws
  // has standard error mean / sqrt(n) = 100 ms / sqrt(100000) = 0.316 ms.
  constexpr std::size_t n = 100'000;
  const auto v = sorted_samples(LatencyModel({LatencyShape::exponential, 0, 100 * kMillisecond, 0, 0}), 7, n);
  double sum = 0;
  for (Nanos x : v) sum += static_cast<double>(x);
  const double se = 100e6 / std::sqrt(static_cast<double>(n));
  EXPECT_NEAR(sum / n, 100e6, 4 * se);
  EXPECT_GE(v.front(), 0);
}

TEST(LatencyModelTest, LognormalMedianAndP99MatchTheirConfiguration) {
  // sigma = ln(p99 / median) / z99 = ln(10) / 2.326 = 0.990. The standard error of a sample
  // quantile q in log space is sigma * sqrt(q (1 - q) / n) / phi(z_q): with n = 100000 it
  // is 0.0039 for the median (phi(0) = 0.399) and 0.0117 for p99 (phi(2.326) = 0.0267).
  // Four of them: 1.6% and 4.7%; the tolerances are 2% and 5%.
  constexpr std::size_t n = 100'000;
  const auto v =
      sorted_samples(LatencyModel({LatencyShape::lognormal, 0, 0, 180 * kMillisecond, 1800 * kMillisecond}), 11, n);
  const auto median = static_cast<double>(v[n / 2]);
  const auto p99 = static_cast<double>(v[n * 99 / 100]);
  EXPECT_NEAR(median, 180e6, 0.02 * 180e6);
  EXPECT_NEAR(p99, 1800e6, 0.05 * 1800e6);
}

TEST(LatencyModelTest, LognormalWithMedianEqualToP99IsConstant) {
  Xoshiro256 rng(3);
  const LatencyModel model({LatencyShape::lognormal, 0, 0, 40 * kMillisecond, 40 * kMillisecond});
  EXPECT_EQ(model.sample(rng), 40 * kMillisecond);
}

TEST(LatencyModelTest, SameSeedSameSamples) {
  const LatencyModel model({LatencyShape::lognormal, 0, 0, 100 * kMillisecond, kSecond});
  EXPECT_EQ(sorted_samples(model, 5, 1000), sorted_samples(model, 5, 1000));
  EXPECT_NE(sorted_samples(model, 5, 1000), sorted_samples(model, 6, 1000));
}

TEST(LatencyModelTest, LognormalDrawsAreLognormalMedianP99sRounded) {
  // The model takes the lognormal's sigma once; its draws are the ones
  // lognormal_median_p99 gives, rounded as llround rounds, on twin streams.
  LatencyConfig config;
  config.median = 180 * kMillisecond;
  config.p99 = 1200 * kMillisecond;
  const LatencyModel model(config);
  Xoshiro256 a(7);
  Xoshiro256 b(7);
  for (int i = 0; i < 100'000; ++i) {
    const double expected = b.lognormal_median_p99(static_cast<double>(config.median), static_cast<double>(config.p99));
    ASSERT_EQ(model.sample(a), std::llround(expected));
  }
}

TEST(LatencyShapeTest, NamesRoundTrip) {
  for (const auto shape : {LatencyShape::constant, LatencyShape::exponential, LatencyShape::lognormal}) {
    EXPECT_EQ(parse_latency_shape(to_string(shape)), shape);
  }
  EXPECT_EQ(to_string(LatencyShape::lognormal), "lognormal");
  EXPECT_EQ(parse_latency_shape("normal"), std::nullopt);
  EXPECT_EQ(parse_latency_shape("Constant"), std::nullopt);
}

}  // namespace
}  // namespace squall

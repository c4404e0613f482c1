// Rng: the project's own pseudo-random generator and distributions.
//
// The standard library's random engines, distributions and the C library's generator are
// banned (DESIGN section 3): their output differs between standard libraries, so a seed
// would not reproduce a run across machines. Rng is an interface so that tests can substitute a fixed source (FixedRng)
// and derive exact timelines; the distributions are non-virtual and built on next_u64().
//
// Generator: xoshiro256** 1.0 (Blackman and Vigna, "Scrambled linear pseudorandom number
// generators", ACM TOMS 2021), seeded through splitmix64 (Steele, Lea and Flood, "Fast
// splittable pseudorandom number generators", OOPSLA 2014) as its authors recommend.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <string_view>

#include "engine/runtime/time.hpp"

namespace squall {

class Rng {
 public:
  virtual ~Rng() = default;
  // 64 uniformly distributed bits.
  virtual std::uint64_t next_u64() = 0;

  // Uniform in [0, 1) with 53 bits of precision (the top bits of next_u64()).
  double uniform01();
  // Uniform integer in [0, n); n must be > 0. Lemire's multiply-shift with rejection
  // ("Fast random integer generation in an interval", ACM TOMACS 2019): unbiased.
  // The rejection loop is bounded: after kMaxUniformIntRejections rejected draws in a row
  // it returns the last draw's multiply-shift value (slightly biased, always < n). A draw
  // is rejected with probability < 1/2, so with a real generator this happens with
  // probability < 2^-64 per call and its results are unchanged; with a constant source
  // (FixedRng) the call still ends, after at most 1 + kMaxUniformIntRejections draws.
  std::uint64_t uniform_int(std::uint64_t n);
  static constexpr int kMaxUniformIntRejections = 64;
  // Uniform integer in [lo, hi], inclusive; lo <= hi.
  std::int64_t uniform_range(std::int64_t lo, std::int64_t hi);
  // True with probability p (p <= 0: never, p >= 1: always; both consume one draw).
  bool bernoulli(double p);
  // Exponential with the given mean (inverse transform: -mean * ln(1 - U)).
  double exponential(double mean);
  // Standard normal N(0, 1) by the ziggurat method (Marsaglia and Tsang, JSS 2000) with
  // 256 layers: one draw and no transcendental function for 98.5% of outputs, an
  // exp for most of the rest, Marsaglia's tail method beyond 3.654 (engine/runtime/rng.cpp).
  // It replaced the Box-Muller transform (a log, a sqrt and a cos per output), about a
  // tenth of the time of a run whose latencies are lognormal (bench/README.md). Rejection
  // loops are bounded as uniform_int's are: after kMaxNormalRejections rejections in a row
  // (probability below 2^-200 with a real generator) the last candidate is returned, so a
  // constant source (FixedRng) still ends.
  double standard_normal();
  static constexpr int kMaxNormalRejections = 64;
  // Lognormal described by its median and 99th percentile, the two figures provider
  // dashboards publish: mu = ln(median), sigma = ln(p99 / median) / z_0.99 with
  // z_0.99 = 2.3263478740408408. Requires 0 < median <= p99.
  // lognormal(median, lognormal_sigma(median, p99)): the same value, bit for bit.
  double lognormal_median_p99(double median, double p99) { return lognormal(median, lognormal_sigma(median, p99)); }
  // The two halves of lognormal_median_p99, for a distribution drawn from many times
  // (mocks/latency.hpp): its sigma, ln(p99 / median) / z_0.99, taken once, and a draw,
  // median * exp(sigma * N(0, 1)), with N(0, 1) from standard_normal().
  static double lognormal_sigma(double median, double p99);
  double lognormal(double median, double sigma);
  // Index i with probability weights[i] / sum(weights); weights are >= 0 with a positive
  // sum. Linear scan of the cumulative sum: weight lists here are short.
  std::size_t weighted_index(std::span<const double> weights);

 protected:
  // Set by Xoshiro256, the generator of every stream of a run: the distributions above
  // then draw through its inline step instead of the virtual next_u64(), the same value
  // (the call was about a fifth of a draw's instructions; bench/README.md).
  bool xoshiro_ = false;

 private:
  // next_u64(), inline for a Xoshiro256.
  std::uint64_t draw();
  // A standard normal conditioned on being beyond r > 0 (standard_normal's tail).
  double normal_tail(double r);
};

// xoshiro256**: 256 bits of state, period 2^256 - 1, passes BigCrush.
class Xoshiro256 final : public Rng {
 public:
  // The state is four successive splitmix64 outputs from `seed`.
  explicit Xoshiro256(std::uint64_t seed);
  std::uint64_t next_u64() override { return step(); }

 private:
  friend class Rng;  // Rng::draw() steps it without the virtual call
  std::uint64_t step() {
    const std::uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
  }

  std::array<std::uint64_t, 4> s_{};
};

inline std::uint64_t Rng::draw() { return xoshiro_ ? static_cast<Xoshiro256*>(this)->step() : next_u64(); }

// Returns the same value on every draw: uniform01() then yields value / 2^64. Tests use it
// to pin jitter to a known point of its range.
class FixedRng final : public Rng {
 public:
  explicit FixedRng(std::uint64_t value) : value_(value) {}
  // A FixedRng whose uniform01() returns `u` (0 <= u < 1), up to 2^-53.
  static FixedRng at_fraction(double u);
  std::uint64_t next_u64() override { return value_; }

 private:
  std::uint64_t value_;
};

// splitmix64's output function: a bijective 64-bit mixer. Inline: the chaos decorator's
// keyed decisions (mocks/keyed_uniform.hpp), the time series' bottom-k samples
// (reports/window_sample.hpp) and the fingerprint call it on every provider call or task,
// and out of line its call cost as much as its five operations (bench/README.md).
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The seed of the stream named `component` in a run seeded with `seed` (DESIGN section 3:
// one stream per component, so a draw added to one component does not shift another's).
// The name is hashed with CRC-64/XZ (Boost.CRC) and mixed with the run seed by splitmix64.
std::uint64_t stream_seed(std::uint64_t seed, std::string_view component);

// The two halves of stream_seed, for a name hashed once and mixed with many seeds:
// stream_seed(seed, name) == stream_seed_of_crc(seed, crc64_xz(name)).
std::uint64_t crc64_xz(std::string_view text);
inline std::uint64_t stream_seed_of_crc(std::uint64_t seed, std::uint64_t crc) {
  std::uint64_t state = seed ^ crc;
  return splitmix64(state);
}

}  // namespace squall

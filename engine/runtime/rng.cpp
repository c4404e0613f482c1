#include "engine/runtime/rng.hpp"

#include <bit>
#include <boost/crc.hpp>
#include <cassert>
#include <cmath>
#include <numbers>

namespace squall {
namespace {

// The 128-bit product of Lemire's method; __extension__ keeps -Wpedantic quiet about the
// GCC/Clang built-in type.
__extension__ using u128 = unsigned __int128;

}  // namespace

double Rng::uniform01() { return static_cast<double>(draw() >> 11) * 0x1.0p-53; }

std::uint64_t Rng::uniform_int(std::uint64_t n) {
  assert(n > 0);
  u128 m = static_cast<u128>(draw()) * n;
  auto low = static_cast<std::uint64_t>(m);
  if (low < n) {
    const std::uint64_t threshold = (0 - n) % n;
    // Bounded, as every loop is (DESIGN section 9): each draw is rejected with probability
    // threshold / 2^64 < 1/2, so a real generator reaches the bound with probability below
    // 2^-kMaxUniformIntRejections; a constant source (FixedRng) would otherwise spin forever.
    for (int rejections = 0; low < threshold && rejections < kMaxUniformIntRejections; ++rejections) {
      m = static_cast<u128>(draw()) * n;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

std::int64_t Rng::uniform_range(std::int64_t lo, std::int64_t hi) {
  assert(lo <= hi);
  const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  if (span == UINT64_MAX) return static_cast<std::int64_t>(draw());
  return lo + static_cast<std::int64_t>(uniform_int(span + 1));
}

bool Rng::bernoulli(double p) { return uniform01() < p; }

double Rng::exponential(double mean) { return -mean * std::log1p(-uniform01()); }

double Rng::standard_normal() {
  // 1 - U keeps the logarithm's argument in (0, 1].
  const double u1 = 1.0 - uniform01();
  const double u2 = uniform01();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

double Rng::lognormal_sigma(double median, double p99) {
  constexpr double kZ99 = 2.3263478740408408;
  assert(median > 0 && p99 >= median);
  return std::log(p99 / median) / kZ99;
}

double Rng::lognormal(double median, double sigma) { return median * std::exp(sigma * standard_normal()); }

std::size_t Rng::weighted_index(std::span<const double> weights) {
  assert(!weights.empty());
  double total = 0;
  for (double w : weights) total += w;
  double x = uniform01() * total;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (x < weights[i]) return i;
    x -= weights[i];
  }
  // Rounding can leave x a hair above the last weight: the answer is the last positive one.
  for (std::size_t i = weights.size(); i-- > 0;) {
    if (weights[i] > 0) return i;
  }
  return weights.size() - 1;
}

Xoshiro256::Xoshiro256(std::uint64_t seed) {
  xoshiro_ = true;
  for (auto& word : s_) word = splitmix64(seed);
}

FixedRng FixedRng::at_fraction(double u) {
  assert(u >= 0 && u < 1);
  return FixedRng(static_cast<std::uint64_t>(u * 0x1.0p53) << 11);
}

std::uint64_t crc64_xz(std::string_view text) {
  // CRC-64/XZ: polynomial 0x42F0E1EBA9EA3693, reflected, all-ones init and final xor.
  boost::crc_optimal<64, 0x42F0E1EBA9EA3693ULL, ~0ULL, ~0ULL, true, true> crc;
  crc.process_bytes(text.data(), text.size());
  return crc.checksum();
}

std::uint64_t stream_seed(std::uint64_t seed, std::string_view component) {
  return stream_seed_of_crc(seed, crc64_xz(component));
}

}  // namespace squall

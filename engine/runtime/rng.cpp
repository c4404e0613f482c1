#include "engine/runtime/rng.hpp"

#include <array>
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

// The ziggurat of the standard normal's right half (Marsaglia and Tsang, "The Ziggurat
// Method for Generating Random Variables", Journal of Statistical Software 5(8), 2000):
// 256 layers of equal area V under f(x) = exp(-x^2 / 2). Layer i (0 < i < 256) is the
// rectangle [0, x[i]] x [f(x[i]), f(x[i+1])]; layer 0 is [0, R] x [0, f(R)] with the tail
// beyond R, its width x[0] = V / f(R) that of a rectangle of its area. R is the published
// value for 256 layers (the one NumPy's generator uses) and V follows from it; the
// recurrence x[i+1] = f^-1(f(x[i]) + V / x[i]) then ends at f = 1 within 4e-15, and
// x[256] is 0. Built once, before main, from <cmath>'s exp, log and erfc: the same binary
// builds the same tables.
struct NormalZiggurat {
  static constexpr std::size_t kLayers = 256;
  static constexpr double kR = 3.6541528853610088;
  std::array<double, kLayers + 1> x{};
  std::array<double, kLayers + 1> f{};  // f[i] = f(x[i]); f[0] = 0 (the base starts at 0)

  NormalZiggurat() {
    const double f_r = std::exp(-0.5 * kR * kR);
    const double v = kR * f_r + std::sqrt(std::numbers::pi / 2) * std::erfc(kR / std::numbers::sqrt2);
    x[0] = v / f_r;
    x[1] = kR;
    f[1] = f_r;
    for (std::size_t i = 1; i + 1 < kLayers; ++i) {
      f[i + 1] = f[i] + v / x[i];
      x[i + 1] = std::sqrt(-2.0 * std::log(f[i + 1]));
    }
    x[kLayers] = 0;
    f[kLayers] = 1;
  }
};

const NormalZiggurat kNormalZiggurat;

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
  const NormalZiggurat& z = kNormalZiggurat;
  double x = 0;
  for (int rejections = 0; rejections <= kMaxNormalRejections; ++rejections) {
    // One draw gives the layer (low 8 bits), the sign (bit 8) and U (top 53 bits): disjoint
    // bits, so they are independent. (Doornik, "An Improved Ziggurat Method to Generate
    // Normal Random Samples", 2005: the original took layer and U from one 32-bit word.)
    const std::uint64_t bits = draw();
    const std::size_t layer = bits & (NormalZiggurat::kLayers - 1);
    const double sign = (bits >> 8) & 1 ? -1.0 : 1.0;
    x = static_cast<double>(bits >> 11) * 0x1.0p-53 * z.x[layer];
    // Inside the part of the layer that lies under the curve: 98.5% of draws.
    if (x < z.x[layer + 1]) [[likely]]
      return sign * x;
    if (layer == 0) return sign * normal_tail(NormalZiggurat::kR);
    // The wedge between the layer's rectangle and the curve: a uniform height in the
    // layer, accepted under the curve.
    const double y = z.f[layer] + uniform01() * (z.f[layer + 1] - z.f[layer]);
    if (y < std::exp(-0.5 * x * x)) return sign * x;
  }
  return x;  // only a constant source (FixedRng) gets here: see kMaxNormalRejections
}

double Rng::normal_tail(double r) {
  // Marsaglia's tail method ("Generating a variable from the tail of the normal
  // distribution", Technometrics 6(1), 1964): a = -ln(U1) / r, b = -ln(U2), accepted when
  // 2b > a^2, gives r + a distributed as the normal beyond r. 1 - U keeps the logarithms'
  // arguments in (0, 1].
  double a = 0;
  for (int rejections = 0; rejections <= kMaxNormalRejections; ++rejections) {
    a = -std::log(1.0 - uniform01()) / r;
    const double b = -std::log(1.0 - uniform01());
    if (2.0 * b > a * a) break;
  }
  return r + a;
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

#include "mocks/latency.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>

#include "engine/runtime/rounding.hpp"

namespace squall {
namespace {

constexpr std::array<std::string_view, 3> kShapeNames{"constant", "exponential", "lognormal"};

// Rounds a latency drawn as a double to nanoseconds inside [0, kMaxLatency]. NaN maps to
// 0 (the comparison fails), which only a broken distribution could produce.
Nanos to_nanos(double ns) {
  if (!(ns > 0)) return 0;
  if (ns >= static_cast<double>(kMaxLatency)) return kMaxLatency;
  return round_non_negative(ns);
}

}  // namespace

std::string_view to_string(LatencyShape shape) { return kShapeNames[static_cast<std::size_t>(shape)]; }

std::optional<LatencyShape> parse_latency_shape(std::string_view name) {
  for (std::size_t i = 0; i < kShapeNames.size(); ++i) {
    if (kShapeNames[i] == name) return static_cast<LatencyShape>(i);
  }
  return std::nullopt;
}

LatencyModel::LatencyModel(LatencyConfig config) : config_(config) {
  // Only a lognormal has a sigma, and only a valid one (sample() asserts it) a finite one.
  if (config_.shape == LatencyShape::lognormal && config_.median > 0 && config_.p99 >= config_.median) {
    sigma_ = Rng::lognormal_sigma(static_cast<double>(config_.median), static_cast<double>(config_.p99));
  }
}

Nanos LatencyModel::sample(Rng& rng) const {
  switch (config_.shape) {
    case LatencyShape::constant: return std::clamp(config_.value, Nanos{0}, kMaxLatency);
    case LatencyShape::exponential: return to_nanos(rng.exponential(static_cast<double>(config_.mean)));
    case LatencyShape::lognormal:
      assert(config_.median > 0 && config_.p99 >= config_.median);
      return to_nanos(rng.lognormal(static_cast<double>(config_.median), sigma_));
  }
  assert(false && "unknown LatencyShape");
  return 0;
}

}  // namespace squall

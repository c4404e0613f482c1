// Latency distributions of mock providers.
//
// Provider dashboards publish a median and a tail percentile, so the default shape is a
// lognormal fitted to median and p99 (Rng::lognormal_median_p99). exponential (by its
// mean) is the M/M/1 service-time model of the throughput benchmarks; constant is for
// tests with exact timelines.
#pragma once

#include <optional>
#include <string_view>

#include "engine/runtime/rng.hpp"
#include "engine/runtime/time.hpp"

namespace squall {

enum class LatencyShape : std::uint8_t { constant, exponential, lognormal };

struct LatencyConfig {
  LatencyShape shape = LatencyShape::lognormal;
  Nanos value = 100 * kMillisecond;   // constant: the latency
  Nanos mean = 100 * kMillisecond;    // exponential: the mean
  Nanos median = 100 * kMillisecond;  // lognormal: the median. Default 100 ms
  Nanos p99 = 1 * kSecond;            // lognormal: the 99th percentile. Default 1 s
};

// "constant", "exponential", "lognormal": the scenario files' names; exact inverses.
std::string_view to_string(LatencyShape shape);
std::optional<LatencyShape> parse_latency_shape(std::string_view name);

// The largest latency a sample returns: 2^62 ns, about 146 years. A lognormal tail (or
// an LLM's output at a vanishing token rate) can exceed int64 nanoseconds as a double;
// the clamp keeps the conversion defined. It cannot change an outcome: every deadline and
// timeout is shorter (the loader's kLongestScenarioDuration, engine/runtime/time.hpp), so
// a call cut to it misses them as it would uncut, and a run ends before it.
inline constexpr Nanos kMaxLatency = Nanos{1} << 62;
static_assert(kMaxLatency > kLongestScenarioDuration);

class LatencyModel {
 public:
  explicit LatencyModel(LatencyConfig config);
  // One latency draw, rounded to whole nanoseconds, never negative, at most kMaxLatency.
  // constant draws nothing; exponential draws once (Rng::exponential); lognormal draws
  // once, or a few times on the ziggurat's rare rejections (Rng::standard_normal; the
  // value is Rng::lognormal_median_p99's, which needs 0 < median <= p99: the scenario
  // loader validates it, and a violation here is a programmer error caught by an
  // assertion), with its sigma taken once, when the model is made.
  Nanos sample(Rng& rng) const;
  const LatencyConfig& config() const { return config_; }

 private:
  LatencyConfig config_;
  // Rng::lognormal_sigma(median, p99) of a lognormal config (0 for the other shapes): a
  // logarithm that every draw would otherwise take again.
  double sigma_ = 0;
};

}  // namespace squall

// LimitAlgorithm: the limit of an adaptive concurrency limiter, updated from one sample
// at a time (engine/strategies/adaptive_concurrency.hpp feeds it a call, or a window of
// calls). Pure arithmetic, no clock: tests drive it sample by sample.
//
// aimd (Netflix concurrency-limits AIMDLimit._update):
//   drop or rtt > timeout:  limit = max(min_limit, min(limit - 1, floor(limit * backoff_ratio)))
//   else, when in_flight * 2 >= limit (not app-limited) and may_grow:
//     growth per_update: limit + 1; per_limit: +1 once per `limit` such updates (TCP
//     congestion avoidance), or +1 per update until the first decrease with slow_start.
// vegas (Netflix VegasLimit._update, with its default functions; lg = max(1, floor(log10 limit))):
//   every 0.5-1 x probe_multiplier x limit updates (jitter from the strategy's stream) the
//   sample's RTT becomes the no-load RTT; so does any RTT below it (no update then).
//   queue = ceil(limit x (1 - rtt_noload / rtt))
//   drop: limit - lg; else, unless app-limited: queue <= lg: limit + 6 lg (may_grow);
//   queue < 3 lg: limit + lg (may_grow); queue > 6 lg: limit - lg; else unchanged;
//   then clamped to [min_limit, max_limit] and smoothed: (1 - smoothing) old + smoothing new.
// Units: rtt in Nanos, limits in calls. The integer limit is floor(estimate).
#pragma once

#include <cstdint>

#include "engine/runtime/rng.hpp"
#include "engine/runtime/time.hpp"
#include "engine/strategies/adaptive_concurrency_config.hpp"

namespace squall {

// One update's input: a call that held a slot, or a window of them folded (WindowedLimit:
// the mean RTT, the most calls in flight, whether the window dropped).
struct LimitSample {
  Nanos rtt = 0;               // from admission to the answer
  std::int32_t in_flight = 0;  // calls holding a slot when it was admitted, itself included
  bool dropped = false;        // its answer was in drop_on (aimd also: rtt > timeout)
};

class LimitAlgorithm {
 public:
  // `rng` (vegas' probe jitter) is the strategy's own stream; it must outlive this.
  LimitAlgorithm(const AdaptiveConcurrencyConfig& config, Rng& rng);

  // Applies one sample; `may_grow` is false during a cooldown. Returns whether it was a
  // decrease (a drop, or vegas' long queue), which starts the cooldown.
  bool update(const LimitSample& sample, bool may_grow);
  std::int32_t limit() const { return static_cast<std::int32_t>(estimate_); }
  double estimate() const { return estimate_; }

  // VegasLimit's Log10RootFunction: max(1, floor(log10(limit))).
  static std::int32_t log10_root(std::int32_t limit);

 private:
  bool aimd(const LimitSample& s, bool may_grow);
  bool vegas(const LimitSample& s, bool may_grow);
  double clamp(double limit) const;
  void reset_probe_jitter();

  const AdaptiveConcurrencyConfig& config_;
  Rng& rng_;
  double estimate_;
  // aimd
  std::int32_t growth_credit_ = 0;  // per_limit: updates that may grow since the last +1
  bool slow_start_ = false;
  // vegas
  Nanos rtt_noload_ = 0;
  std::int64_t probe_count_ = 0;
  double probe_jitter_ = 1;
};

}  // namespace squall

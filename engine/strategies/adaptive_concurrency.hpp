// adaptive_concurrency: a cap on the calls in flight, like bulkhead's, whose limit follows
// the answers (Netflix concurrency-limits: a SimpleLimiter, or with max_queue a
// BlockingLimiter, over AIMDLimit or VegasLimit, optionally windowed as WindowedLimit).
//
// Admission is bulkhead's: a call takes a slot while fewer than limit() hold one and
// nobody waits; else it waits in a FIFO queue of max_queue calls for queue_timeout (and
// its deadline), or is refused as bulkhead_full (retry class local) with a LimitEvent
// "rejected". A limit that shrinks below the calls in flight lets them finish; one that
// grows hands the new slots to the waiters at once.
//
// Updates. When a call that held a slot ends, its answer is a sample: a drop when its kind
// is in drop_on, a plain sample when a provider gave any other answer, ignored when the
// engine refused it itself (retry class local: an open breaker, a budget, a cancelled
// hedge). The round trip is from admission to the answer, so a limiter outside retry
// holds its slot through the backoff and counts the whole logical call (oumi#2515);
// inside retry, each attempt is a sample. Each sample updates the LimitAlgorithm
// (limit_algorithm.hpp), except a drop that decrease_window rules out: a window opens at a
// drop and lasts decrease_window; it decreases at most once, once it holds min_drops drops
// and min_drop_rate of its calls were drops.
// Cooldown: no increase for `cooldown` after a decrease; with cooldown_from_retry_after,
// none either before the Retry-After of the latest drop has passed.
//
// Events: LimitEvent start (first call), increase, decrease (the integer limit moved),
// rejected. Draws: vegas only, one per probe, from policy/<owner>/<i>/adaptive_concurrency.
// Sharing: per instance, as bulkhead (a provider's stack: one limit per provider).
// The algorithm and every default's source: docs/strategies/adaptive_concurrency.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "engine/pipeline.hpp"
#include "engine/runtime/wait_queue.hpp"
#include "engine/strategies/adaptive_concurrency_config.hpp"
#include "engine/strategies/limit_algorithm.hpp"
#include "engine/strategies/outcome_mask.hpp"

namespace squall {

class AdaptiveConcurrencyStrategy final : public Strategy {
 public:
  // The loader validates the config; `rng` is this strategy's own stream and must outlive it.
  AdaptiveConcurrencyStrategy(AdaptiveConcurrencyConfig config, EngineEnv env, std::string owner, Rng& rng);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

  std::int32_t limit() const { return algorithm_.limit(); }
  std::int32_t in_flight() const { return in_flight_; }
  std::size_t queued() const { return queue_.size(); }

 private:
  // The current decrease window (config.decrease_window > 0).
  struct Window {
    TimePoint ends = 0;  // the first drop at or after it opens the next window
    std::int32_t samples = 0;
    std::int32_t drops = 0;
    bool decreased = false;
  };

  // Folds a finished call's answer into the limit.
  void observe(const CallContext& ctx, const Outcome& outcome, bool reached, Nanos rtt, std::int32_t in_flight);
  void apply(const CallContext& ctx, const LimitSample& sample);
  // Counts a sample in the decrease window; whether a drop may decrease the limit.
  bool may_decrease(bool dropped);
  void release();
  void emit(const CallContext& ctx, LimitAction action, std::int32_t previous);

  AdaptiveConcurrencyConfig config_;
  EngineEnv env_;
  std::string owner_;
  OutcomeMask drop_on_;
  LimitAlgorithm algorithm_;
  WaitQueue queue_;
  std::int32_t in_flight_ = 0;
  bool started_ = false;
  TimePoint grow_from_ = 0;  // no increase before this (cooldown)
  Window window_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const AdaptiveConcurrencyConfig& config, const StrategyBuild& build);

}  // namespace squall

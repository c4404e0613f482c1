#include "engine/strategies/adaptive_concurrency.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <utility>

#include "engine/events.hpp"
#include "engine/retry_after.hpp"
#include "engine/strategies/refused.hpp"

namespace squall {

std::string_view to_string(LimitAlgorithmKind algorithm) {
  static constexpr std::array<std::string_view, kLimitAlgorithmCount> kNames{SQUALL_LIMIT_ALGORITHMS(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(algorithm)];
}

std::string_view to_string(LimitGrowth growth) {
  static constexpr std::array<std::string_view, kLimitGrowthCount> kNames{SQUALL_LIMIT_GROWTHS(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(growth)];
}

std::vector<OutcomeKind> AdaptiveConcurrencyConfig::default_drop_on() {
  return {OutcomeKind::timeout, OutcomeKind::rate_limited, OutcomeKind::overloaded};
}

AdaptiveConcurrencyStrategy::AdaptiveConcurrencyStrategy(AdaptiveConcurrencyConfig config, EngineEnv env,
                                                         std::string owner, Rng& rng)
    : config_(std::move(config)),
      env_(env),
      owner_(std::move(owner)),
      drop_on_(config_.drop_on),
      algorithm_(config_, rng),
      queue_(env.clock, env.scheduler, static_cast<std::size_t>(std::max<std::int32_t>(config_.max_queue, 0))) {
  assert(config_.min_limit >= 1 && config_.min_limit <= config_.initial_limit &&
         config_.initial_limit <= config_.max_limit);
}

void AdaptiveConcurrencyStrategy::emit(const CallContext& ctx, LimitAction action, std::int32_t previous) {
  env_.events.on_limit(LimitEvent{ctx.task.id, owner_, action, env_.clock.now(), limit(), previous, in_flight_,
                                  static_cast<std::uint64_t>(queue_.size())});
}

void AdaptiveConcurrencyStrategy::release() {
  // The slot passes to the oldest waiter while the limit has room for it; a limit that
  // shrank below the calls in flight takes the slot back instead.
  if (in_flight_ <= limit() && queue_.notify_one()) return;
  --in_flight_;
}

bool AdaptiveConcurrencyStrategy::may_decrease(bool dropped) {
  Window& w = window_;
  const TimePoint now = env_.clock.now();
  if (now >= w.ends) {
    // A window opens at a drop, so that a burst which starts inside it stays inside it
    // (TCP's one decrease per round trip of the loss), wherever the burst falls.
    if (!dropped) return false;
    w = Window{add_saturating(now, config_.decrease_window)};
  }
  ++w.samples;
  if (!dropped) return false;
  ++w.drops;
  // The aibrix#2452 fix: one correlated burst is one decrease, and a few errors none.
  if (w.decreased || w.drops < config_.min_drops ||
      static_cast<double>(w.drops) < config_.min_drop_rate * static_cast<double>(w.samples)) {
    return false;
  }
  w.decreased = true;
  return true;
}

void AdaptiveConcurrencyStrategy::apply(const CallContext& ctx, const LimitSample& sample) {
  const std::int32_t before = limit();
  const TimePoint now = env_.clock.now();
  if (algorithm_.update(sample, now >= grow_from_)) {
    grow_from_ = std::max(grow_from_, add_saturating(now, config_.cooldown));
  }
  const std::int32_t after = limit();
  if (after == before) return;
  emit(ctx, after > before ? LimitAction::increase : LimitAction::decrease, before);
  // New slots go to the waiters at once, oldest first.
  while (in_flight_ < after && queue_.notify_one()) ++in_flight_;
}

void AdaptiveConcurrencyStrategy::observe(const CallContext& ctx, const Outcome& outcome, bool reached, Nanos rtt,
                                          std::int32_t in_flight) {
  // Netflix's onIgnore: the engine's own refusals say nothing about the backend.
  if (!reached || retry_class(outcome.kind) == RetryClass::local) return;
  const bool dropped = drop_on_.contains(outcome.kind);
  if (dropped && config_.cooldown_from_retry_after) {
    if (const auto pushback = server_retry_delay(outcome.response, env_.wall_now_unix_ns())) {
      grow_from_ = std::max(grow_from_, add_saturating(env_.clock.now(), *pushback));
    }
  }
  // A drop the decrease window rules out changes nothing: it is not a success either.
  if (config_.decrease_window > 0 && !may_decrease(dropped) && dropped) return;
  apply(ctx, LimitSample{rtt, in_flight, dropped});
}

Task<Outcome> AdaptiveConcurrencyStrategy::execute(CallContext& ctx, Request& request, Next next) {
  if (!started_) {
    started_ = true;
    emit(ctx, LimitAction::start, limit());
  }
  // A newcomer takes a free slot only when nobody waits: waiters are served first.
  if (in_flight_ < limit() && queue_.empty()) {
    ++in_flight_;
  } else {
    const TimePoint wait_until = std::min(ctx.deadline, add_saturating(env_.clock.now(), config_.queue_timeout));
    const WaitResult waited = co_await queue_.wait(wait_until, ctx.cancellation);
    if (waited == WaitResult::cancelled) co_return refused(OutcomeKind::cancelled);
    if (waited == WaitResult::timed_out && wait_until == ctx.deadline) co_return refused(OutcomeKind::timeout);
    if (waited != WaitResult::admitted) {
      emit(ctx, LimitAction::rejected, limit());
      co_return refused(OutcomeKind::bulkhead_full);
    }
  }
  const TimePoint admitted = env_.clock.now();
  const std::int32_t in_flight = in_flight_;
  const std::int32_t attempts_before = ctx.attempts;
  Outcome outcome = co_await next(ctx, request);
  observe(ctx, outcome, ctx.attempts > attempts_before, env_.clock.now() - admitted, in_flight);
  release();
  co_return outcome;
}

std::unique_ptr<Strategy> make_strategy(const AdaptiveConcurrencyConfig& config, const StrategyBuild& build) {
  return std::make_unique<AdaptiveConcurrencyStrategy>(config, build.env, std::string(build.owner), build.stream());
}

}  // namespace squall

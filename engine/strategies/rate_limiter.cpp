#include "engine/strategies/rate_limiter.hpp"

#include <cassert>

#include "engine/strategies/refused.hpp"

#include "engine/runtime/cancellable_sleep.hpp"

namespace squall {

RateLimiterStrategy::RateLimiterStrategy(RateLimiterConfig config, EngineEnv env)
    : config_(config), env_(env), permits_(config.limit_for_period) {
  assert(config_.limit_for_period >= 1 && config_.limit_refresh_period > 0 && config_.timeout_duration >= 0);
}

void RateLimiterStrategy::refill(std::int64_t cycle) {
  if (cycle <= cycle_) return;
  const std::int64_t limit = config_.limit_for_period;
  // Cycles needed to refill from `permits_` to the limit; more cycles add nothing, so the
  // product below stays within deficit + limit and cannot overflow.
  const std::int64_t deficit = limit - permits_;
  const std::int64_t needed = (deficit + limit - 1) / limit;
  const std::int64_t passed = cycle - cycle_;
  permits_ = passed >= needed ? limit : permits_ + passed * limit;
  cycle_ = cycle;
}

TimePoint RateLimiterStrategy::acquire(TimePoint now, TimePoint deadline) {
  const Nanos period = config_.limit_refresh_period;
  refill(now / period);
  if (permits_ >= 1) {
    --permits_;
    return now;
  }
  // The earliest cycle with an unreserved permit. A long period times a far cycle may
  // exceed int64: that permit never comes within a run.
  const std::int64_t cycle = cycle_ + 1 + (-permits_) / config_.limit_for_period;
  if (cycle > kNever / period) return kNever;
  const TimePoint at = cycle * period;
  if (at > add_saturating(now, config_.timeout_duration) || at >= deadline) return kNever;
  --permits_;
  return at;
}

Task<Outcome> RateLimiterStrategy::execute(CallContext& ctx, Request& request, Next next) {
  const TimePoint now = env_.clock.now();
  const TimePoint at = acquire(now, ctx.deadline);
  if (at == kNever) co_return refused(OutcomeKind::rate_limiter_rejected);
  if (at > now && co_await sleep_until(env_.scheduler, at, ctx.cancellation) == Wake::cancelled) {
    co_return refused(OutcomeKind::cancelled);
  }
  co_return co_await next(ctx, request);
}

std::unique_ptr<Strategy> make_strategy(const RateLimiterConfig& config, const StrategyBuild& build) {
  return std::make_unique<RateLimiterStrategy>(config, build.env);
}

}  // namespace squall

#include "engine/strategies/timeout.hpp"

#include <algorithm>
#include <cassert>

namespace squall {

TimeoutStrategy::TimeoutStrategy(TimeoutConfig config, Clock& clock) : config_(config), clock_(clock) {
  assert(config_.per_attempt > 0 && config_.total > 0);
}

Task<Outcome> TimeoutStrategy::execute(CallContext& ctx, Request& request, Next next) {
  const TimePoint outer_deadline = ctx.deadline;
  const Nanos outer_attempt_timeout = ctx.attempt_timeout;
  ctx.deadline = std::min(ctx.deadline, add_saturating(clock_.now(), config_.total));
  ctx.attempt_timeout = std::min(ctx.attempt_timeout, config_.per_attempt);
  Outcome outcome = co_await next(ctx, request);
  ctx.deadline = outer_deadline;
  ctx.attempt_timeout = outer_attempt_timeout;
  co_return outcome;
}

std::unique_ptr<Strategy> make_strategy(const TimeoutConfig& config, const StrategyBuild& build) {
  return std::make_unique<TimeoutStrategy>(config, build.env.clock);
}

}  // namespace squall

#include "engine/strategies/timeout.hpp"

#include <algorithm>
#include <cassert>

namespace squall {

TimeoutStrategy::TimeoutStrategy(TimeoutConfig config, Clock& clock) : config_(config), clock_(clock) {
  assert(config_.per_attempt > 0 && config_.total > 0);
}

bool TimeoutStrategy::admit(CallContext& ctx, const Request& /*request*/, Ticket& ticket, Outcome& /*outcome*/) {
  ticket.first = ctx.deadline;
  ticket.second = ctx.attempt_timeout;
  ctx.deadline = std::min(ctx.deadline, add_saturating(clock_.now(), config_.total));
  ctx.attempt_timeout = std::min(ctx.attempt_timeout, config_.per_attempt);
  return true;
}

void TimeoutStrategy::settle(CallContext& ctx, const Ticket& ticket, Outcome& /*outcome*/) {
  ctx.deadline = ticket.first;
  ctx.attempt_timeout = ticket.second;
}

std::unique_ptr<Strategy> make_strategy(const TimeoutConfig& config, const StrategyBuild& build) {
  return std::make_unique<TimeoutStrategy>(config, build.env.clock);
}

}  // namespace squall

#include "engine/strategies/bulkhead.hpp"

#include <algorithm>
#include <cassert>

#include "engine/strategies/refused.hpp"

namespace squall {

BulkheadStrategy::BulkheadStrategy(BulkheadConfig config, EngineEnv env)
    : config_(config),
      env_(env),
      queue_(env.clock, env.scheduler, static_cast<std::size_t>(std::max<std::int32_t>(config.max_queue, 0))) {
  assert(config_.max_concurrent_calls >= 1 && config_.max_queue >= 0 && config_.queue_timeout > 0);
}

void BulkheadStrategy::release() {
  // The slot passes to the oldest waiter, which resumes from the event loop holding it.
  if (!queue_.notify_one()) --in_flight_;
}

Task<Outcome> BulkheadStrategy::execute(CallContext& ctx, Request& request, Next next) {
  // A newcomer takes a free slot only when nobody waits: waiters are served first.
  if (in_flight_ < config_.max_concurrent_calls && queue_.empty()) {
    ++in_flight_;
  } else {
    const TimePoint now = env_.clock.now();
    const TimePoint wait_until = std::min(ctx.deadline, add_saturating(now, config_.queue_timeout));
    switch (co_await queue_.wait(wait_until, ctx.cancellation)) {
      case WaitResult::admitted: break;  // release() handed its slot over: in_flight_ already counts this call
      case WaitResult::cancelled: co_return refused(OutcomeKind::cancelled);
      case WaitResult::rejected: co_return refused(OutcomeKind::bulkhead_full);
      case WaitResult::timed_out:
        co_return refused(wait_until == ctx.deadline ? OutcomeKind::timeout : OutcomeKind::bulkhead_full);
    }
  }
  Outcome outcome = co_await next(ctx, request);
  release();
  co_return outcome;
}

std::unique_ptr<Strategy> make_strategy(const BulkheadConfig& config, const StrategyBuild& build) {
  return std::make_unique<BulkheadStrategy>(config, build.env);
}

}  // namespace squall

#include "engine/strategies/circuit_breaker.hpp"

#include <cassert>
#include <utility>

namespace squall {

std::vector<OutcomeKind> CircuitBreakerConfig::default_failure_on() {
  return {OutcomeKind::timeout, OutcomeKind::rate_limited, OutcomeKind::overloaded,
          OutcomeKind::server_error};
}

CircuitBreakerStrategy::CircuitBreakerStrategy(CircuitBreakerConfig config, EngineEnv env, std::string tool)
    : config_(std::move(config)), env_(env), tool_(std::move(tool)), failure_on_(config_.failure_on) {
  assert(config_.failure_threshold >= 1 && config_.open_duration > 0 && config_.half_open_probes >= 1);
}

BreakerState CircuitBreakerStrategy::state() const {
  if (state_ == BreakerState::open && env_.clock.now() >= open_until_) return BreakerState::half_open;
  return state_;
}

void CircuitBreakerStrategy::transition(BreakerState to) {
  const BreakerState from = std::exchange(state_, to);
  ++epoch_;
  consecutive_failures_ = 0;
  probes_admitted_ = 0;
  env_.events.on_breaker_transition(BreakerTransitionEvent{tool_, env_.clock.now(), from, to});
}

void CircuitBreakerStrategy::open() {
  open_until_ = add_saturating(env_.clock.now(), config_.open_duration);
  transition(BreakerState::open);
}

void CircuitBreakerStrategy::refresh() {
  if (state_ == BreakerState::open && env_.clock.now() >= open_until_) transition(BreakerState::half_open);
}

void CircuitBreakerStrategy::record(OutcomeKind kind, bool reached_provider, std::uint64_t epoch,
                                    bool probe) {
  if (epoch != epoch_) return;  // admitted in an earlier period: see the header
  if (!reached_provider || retry_class(kind) == RetryClass::local) {
    if (probe) --probes_admitted_;  // the probe learned nothing: let another call probe
    return;
  }
  const bool failure = failure_on_.contains(kind);
  if (state_ == BreakerState::half_open) {
    if (failure) {
      open();
    } else {
      transition(BreakerState::closed);
    }
    return;
  }
  // Closed: an open breaker admits nothing, so a current-epoch result is a closed one.
  if (!failure) {
    consecutive_failures_ = 0;
  } else if (++consecutive_failures_ >= config_.failure_threshold) {
    open();
  }
}

Task<Outcome> CircuitBreakerStrategy::execute(CallContext& ctx, Request& request, Next next) {
  refresh();
  const bool probe = state_ == BreakerState::half_open;
  if (state_ == BreakerState::open || (probe && probes_admitted_ >= config_.half_open_probes)) {
    Outcome rejected;
    rejected.kind = OutcomeKind::circuit_open;
    rejected.response.status = 0;  // no exchange took place
    co_return rejected;
  }
  if (probe) ++probes_admitted_;
  const std::uint64_t epoch = epoch_;
  const std::int32_t attempts_before = ctx.attempts;
  Outcome outcome = co_await next(ctx, request);
  record(outcome.kind, ctx.attempts > attempts_before, epoch, probe);
  co_return outcome;
}

}  // namespace squall

#include "engine/strategies/circuit_breaker.hpp"

#include <cassert>
#include <utility>

#include "engine/provider_registry.hpp"

namespace squall {

std::vector<OutcomeKind> CircuitBreakerConfig::default_failure_on() {
  return {OutcomeKind::timeout, OutcomeKind::rate_limited, OutcomeKind::overloaded,
          OutcomeKind::server_error};
}

CircuitBreakerStrategy::CircuitBreakerStrategy(CircuitBreakerConfig config, EngineEnv env, std::string owner)
    : config_(std::move(config)), env_(env), owner_(std::move(owner)), failure_on_(config_.failure_on) {
  assert(config_.failure_threshold >= 1 && config_.open_duration > 0 && config_.half_open_probes >= 1);
  breakers_.resize(env_.providers != nullptr && env_.providers->size() > 0 ? env_.providers->size() : 1);
}

BreakerState CircuitBreakerStrategy::state(ProviderId provider) const {
  const std::size_t i = provider == kNoProvider || provider >= breakers_.size() ? 0 : provider;
  const Breaker& b = breakers_[i];
  if (b.state == BreakerState::open && env_.clock.now() >= b.open_until) return BreakerState::half_open;
  return b.state;
}

void CircuitBreakerStrategy::transition(Breaker& b, ProviderId provider, BreakerState to) {
  const BreakerState from = std::exchange(b.state, to);
  ++b.epoch;
  b.consecutive_failures = 0;
  b.probes_admitted = 0;
  std::string_view provider_name;
  if (env_.providers != nullptr && provider < env_.providers->size()) {
    provider_name = env_.providers->descriptor(provider).name;
  }
  env_.events.on_breaker_transition(BreakerTransitionEvent{owner_, provider_name, env_.clock.now(), from, to});
}

void CircuitBreakerStrategy::open(Breaker& b, ProviderId provider) {
  b.open_until = add_saturating(env_.clock.now(), config_.open_duration);
  transition(b, provider, BreakerState::open);
}

void CircuitBreakerStrategy::refresh(Breaker& b, ProviderId provider) {
  if (b.state == BreakerState::open && env_.clock.now() >= b.open_until) {
    transition(b, provider, BreakerState::half_open);
  }
}

void CircuitBreakerStrategy::record(Breaker& b, ProviderId provider, OutcomeKind kind, bool reached_provider,
                                    std::uint64_t epoch, bool probe) {
  if (epoch != b.epoch) return;  // admitted in an earlier period: see the header
  if (!reached_provider || retry_class(kind) == RetryClass::local) {
    if (probe) --b.probes_admitted;  // the probe learned nothing: let another call probe
    return;
  }
  const bool failure = failure_on_.contains(kind);
  if (b.state == BreakerState::half_open) {
    if (failure) {
      open(b, provider);
    } else {
      transition(b, provider, BreakerState::closed);
    }
    return;
  }
  // Closed: an open breaker admits nothing, so a current-epoch result is a closed one.
  if (!failure) {
    b.consecutive_failures = 0;
  } else if (++b.consecutive_failures >= config_.failure_threshold) {
    open(b, provider);
  }
}

Task<Outcome> CircuitBreakerStrategy::execute(CallContext& ctx, Request& request, Next next) {
  const ProviderId provider = ctx.provider;
  // The vector only grows for ids beyond the registry's (engine tests), never across this
  // call's await for its own id, but the index is taken again after it all the same.
  Breaker& b = breaker_of(provider);
  refresh(b, provider);
  const bool probe = b.state == BreakerState::half_open;
  if (b.state == BreakerState::open || (probe && b.probes_admitted >= config_.half_open_probes)) {
    Outcome rejected;
    rejected.kind = OutcomeKind::circuit_open;
    rejected.response.status = 0;  // no exchange took place
    co_return rejected;
  }
  if (probe) ++b.probes_admitted;
  const std::uint64_t epoch = b.epoch;
  const std::int32_t attempts_before = ctx.attempts;
  Outcome outcome = co_await next(ctx, request);
  record(breaker_of(provider), provider, outcome.kind, ctx.attempts > attempts_before, epoch, probe);
  co_return outcome;
}

std::unique_ptr<Strategy> make_strategy(const CircuitBreakerConfig& config, const StrategyBuild& build) {
  return std::make_unique<CircuitBreakerStrategy>(config, build.env, std::string(build.owner));
}

}  // namespace squall

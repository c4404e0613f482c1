#include "engine/strategies/circuit_breaker.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>

#include "engine/provider_registry.hpp"

namespace squall {

namespace {

constexpr std::int64_t kPpm = 1'000'000;

// Whether `part` of `whole` reaches `threshold_ppm` parts per million: part / whole >=
// threshold / 1e6, exactly. part <= whole <= about 1e12 calls keeps the products far from
// overflow.
bool reaches(std::int64_t part, std::int64_t whole, std::int64_t threshold_ppm) {
  return part * kPpm >= threshold_ppm * whole;
}

}  // namespace

std::vector<OutcomeKind> CircuitBreakerConfig::default_failure_on() {
  return {OutcomeKind::timeout, OutcomeKind::rate_limited, OutcomeKind::overloaded, OutcomeKind::server_error};
}

CircuitBreakerStrategy::CircuitBreakerStrategy(CircuitBreakerConfig config, EngineEnv env, std::string owner)
    : config_(std::move(config)),
      env_(env),
      owner_(std::move(owner)),
      failure_on_(config_.failure_on),
      ignore_on_(config_.ignore_on),
      probes_(config_.permitted_probes()) {
  assert(config_.failure_threshold >= 1 && config_.open_duration > 0 && probes_ >= 1);
  assert(config_.open_duration_multiplier >= 1.0);
  assert(!config_.sliding_window || (config_.sliding_window->size >= 1 && config_.minimum_number_of_calls >= 1));
  breakers_.resize(env_.providers != nullptr && env_.providers->size() > 0 ? env_.providers->size() : 1);
}

BreakerState CircuitBreakerStrategy::state(ProviderId provider) const {
  const std::size_t i = provider == kNoProvider || provider >= breakers_.size() ? 0 : provider;
  const Breaker& b = breakers_[i];
  if (b.state == BreakerState::open && env_.clock.now() >= b.open_until) return BreakerState::half_open;
  return b.state;
}

void CircuitBreakerStrategy::transition(Breaker& b, ProviderId provider, BreakerState to, BreakerCause cause) {
  const BreakerState from = std::exchange(b.state, to);
  ++b.epoch;
  b.consecutive_failures = 0;
  b.probes_admitted = 0;
  b.probe_results = {};
  if (b.window) b.window->clear();
  if (to == BreakerState::closed) b.openings = 0;  // the open duration's backoff restarts
  std::string_view provider_name;
  if (env_.providers != nullptr && provider < env_.providers->size()) {
    provider_name = env_.providers->descriptor(provider).name;
  }
  env_.events.on_breaker_transition(BreakerTransitionEvent{owner_, provider_name, env_.clock.now(), from, to, cause});
}

void CircuitBreakerStrategy::open(Breaker& b, ProviderId provider, BreakerCause cause) {
  // ofExponentialBackoff: the k-th opening in a row lasts open_duration * multiplier^(k-1),
  // each step from the previous duration, capped; kNever saturates.
  Nanos d = config_.open_duration;
  if (b.openings > 0 && config_.open_duration_multiplier > 1.0) {
    const double next = static_cast<double>(b.last_open_duration) * config_.open_duration_multiplier;
    d = next >= static_cast<double>(kNever) ? kNever : std::llround(next);
  } else if (b.openings > 0) {
    d = b.last_open_duration;
  }
  if (config_.max_open_duration) d = std::min(d, *config_.max_open_duration);
  b.last_open_duration = d;
  ++b.openings;
  b.open_until = add_saturating(env_.clock.now(), d);
  transition(b, provider, BreakerState::open, cause);
}

void CircuitBreakerStrategy::refresh(Breaker& b, ProviderId provider) {
  if (b.state == BreakerState::open && env_.clock.now() >= b.open_until) {
    transition(b, provider, BreakerState::half_open);
  }
}

BreakerCause CircuitBreakerStrategy::judge(const BreakerWindow::Counts& c, std::int64_t minimum) const {
  if (c.calls < minimum || c.calls == 0) return BreakerCause::none;
  if (reaches(c.failures, c.calls, config_.failure_rate_threshold_ppm)) return BreakerCause::failure_rate;
  if (reaches(c.slow, c.calls, config_.slow_call_rate_threshold_ppm)) return BreakerCause::slow_call_rate;
  return BreakerCause::none;
}

void CircuitBreakerStrategy::record(Breaker& b, ProviderId provider, OutcomeKind kind, bool reached_provider,
                                    std::uint32_t epoch, TimePoint admitted) {
  if (epoch != b.epoch) return;  // admitted in an earlier period: see the header
  if (!reached_provider || retry_class(kind) == RetryClass::local || ignore_on_.contains(kind)) {
    // The state is still the admitting epoch's (every transition starts an epoch), so a
    // call admitted half-open was a probe, which learned nothing: let another call probe.
    if (b.state == BreakerState::half_open) --b.probes_admitted;
    return;
  }
  const bool failure = failure_on_.contains(kind);
  const TimePoint now = env_.clock.now();
  if (config_.sliding_window) {
    const bool slow = now - admitted > config_.slow_call_duration_threshold;
    if (b.state == BreakerState::half_open) {
      b.probe_results.calls += 1;
      b.probe_results.failures += failure ? 1 : 0;
      b.probe_results.slow += slow ? 1 : 0;
      if (b.probe_results.calls < probes_) return;  // the period decides on all its probes
      const BreakerCause cause = judge(b.probe_results, probes_);
      if (cause != BreakerCause::none) {
        open(b, provider, cause);
      } else {
        transition(b, provider, BreakerState::closed);
      }
      return;
    }
    const SlidingWindowConfig& w = *config_.sliding_window;
    if (!b.window) b.window.emplace(w.type, w.size);
    b.window->record(now, failure, slow);
    const std::int64_t minimum = w.type == SlidingWindowType::count_based
                                     ? std::min(config_.minimum_number_of_calls, w.size)
                                     : config_.minimum_number_of_calls;
    if (const BreakerCause cause = judge(b.window->counts(now), minimum); cause != BreakerCause::none) {
      open(b, provider, cause);
    }
    return;
  }
  if (b.state == BreakerState::half_open) {
    if (failure) {
      open(b, provider, BreakerCause::probe_failed);
    } else {
      transition(b, provider, BreakerState::closed);
    }
    return;
  }
  // Closed: an open breaker admits nothing, so a current-epoch result is a closed one.
  if (!failure) {
    b.consecutive_failures = 0;
  } else if (++b.consecutive_failures >= config_.failure_threshold) {
    open(b, provider, BreakerCause::consecutive_failures);
  }
}

bool CircuitBreakerStrategy::admit(CallContext& ctx, const Request& /*request*/, Ticket& ticket, Outcome& outcome) {
  const ProviderId provider = ctx.provider;
  Breaker& b = breaker_of(provider);
  refresh(b, provider);
  const bool probe = b.state == BreakerState::half_open;
  if (b.state == BreakerState::open || (probe && b.probes_admitted >= probes_)) {
    outcome.kind = OutcomeKind::circuit_open;
    outcome.response.status = 0;  // no exchange took place
    return false;
  }
  if (probe) ++b.probes_admitted;
  ticket.first = env_.clock.now();
  const std::uint64_t epoch_and_attempts = (std::uint64_t{b.epoch} << 32) | static_cast<std::uint32_t>(ctx.attempts);
  ticket.second = static_cast<std::int64_t>(epoch_and_attempts);
  return true;
}

void CircuitBreakerStrategy::settle(CallContext& ctx, const Ticket& ticket, Outcome& outcome) {
  // The vector only grows for ids beyond the registry's (engine tests), never during a
  // call for its own id, but the breaker is looked up again after the call all the same.
  const ProviderId provider = ctx.provider;
  const auto packed = static_cast<std::uint64_t>(ticket.second);
  const auto attempts_at_admission = static_cast<std::int32_t>(static_cast<std::uint32_t>(packed));
  record(breaker_of(provider), provider, outcome.kind, ctx.attempts > attempts_at_admission,
         static_cast<std::uint32_t>(packed >> 32), ticket.first);
}

std::unique_ptr<Strategy> make_strategy(const CircuitBreakerConfig& config, const StrategyBuild& build) {
  return std::make_unique<CircuitBreakerStrategy>(config, build.env, std::string(build.owner));
}

}  // namespace squall

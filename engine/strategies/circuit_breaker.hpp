// circuit_breaker: stop calling a provider that keeps failing, and probe it to recover.
//
// Closed: every call passes; failure_threshold consecutive failures open the breaker.
// Open: every call fails fast as circuit_open without reaching the provider, for
// open_duration. Half-open: the first half_open_probes calls pass as probes and every
// other call fails fast; the first probe to finish decides: success closes the breaker,
// failure re-opens it for another open_duration. The breaker is shared by every task
// calling through this pipeline, and it always recovers: open always leads to half-open after
// open_duration, and a probe that decides nothing gives its slot back.
//
// What counts. A failure is an outcome whose kind is in failure_on; every other outcome
// of a call that reached the provider is a success and resets the consecutive count
// (empty and bad_request included: the provider answered). Outcomes the engine produced
// without reaching the provider count as neither and leave the state as it was: kinds of
// retry class `local` (circuit_open, budget_exhausted, cancelled), and any outcome of a
// call during which no provider attempt started (ctx.attempts did not grow, e.g. a
// timeout returned because the deadline had passed before the attempt).
//
// Concurrency. Each state period (one closed, open or half-open stretch) is an epoch; a
// call records its result only if the breaker is still in the epoch that admitted it.
// So calls admitted while closed that finish after the breaker opened, and probes still
// in flight after another probe decided, are ignored. resilience4j makes the same choice
// for results arriving in the open state; unlike resilience4j, a late closed-state result
// is not counted as a half-open probe either, so it can neither close nor re-open the
// breaker on behalf of a probe that has not answered.
//
// Time. State changes are read lazily from the Clock when calls arrive, so the breaker
// needs no timers; the open -> half_open transition is emitted (BreakerTransitionEvent,
// like every transition) when the first call after open_duration arrives, at that time.
//
// One breaker per provider. A tool's pipeline can reach several providers (fallback moves
// CallContext::provider), so the strategy keeps one state per provider id and judges each
// provider by its own results, as a client keeps a breaker per backend (resilience4j's
// CircuitBreakerRegistry by name, Envoy's per-cluster circuit breakers). In a provider's
// own stack there is one provider, and the state is shared by every tool reaching it.
//
// Defaults follow Envoy's outlier detection (consecutive_5xx = 5, base_ejection_time =
// 30 s) and Polly's single half-open trial call.
#pragma once

#include <array>

#include <string>
#include <vector>

#include "engine/pipeline.hpp"
#include "engine/strategies/outcome_mask.hpp"

namespace squall {

struct CircuitBreakerConfig {
  // The strategy's name in policies and its config keys, in the order the documentation
  // lists them (the loader's unknown-key messages list them so).
  static constexpr std::string_view kName = "circuit_breaker";
  static constexpr std::array<std::string_view, 4> kKeys{"failure_threshold", "open_duration", "half_open_probes", "failure_on"};

  // Consecutive failures that open the breaker; >= 1. Default 5 (Envoy consecutive_5xx).
  std::int32_t failure_threshold = 5;
  // How long the breaker stays open; > 0. Default 30 s (Envoy base_ejection_time).
  Nanos open_duration = 30 * kSecond;
  // Probe calls admitted while half-open; >= 1. Default 1 (Polly's single trial call).
  std::int32_t half_open_probes = 1;
  // Outcome kinds that count as failures; any other outcome resets the count. Default:
  // timeout, rate_limited, overloaded, server_error.
  std::vector<OutcomeKind> failure_on = default_failure_on();

  static std::vector<OutcomeKind> default_failure_on();
};

class CircuitBreakerStrategy final : public Strategy {
 public:
  // `owner` (the tool or provider whose pipeline holds it) names the breaker in its
  // BreakerTransitionEvents.
  CircuitBreakerStrategy(CircuitBreakerConfig config, EngineEnv env, std::string owner);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

  // The state of `provider`'s breaker as of now: an open breaker whose open_duration has
  // passed reads as half_open, although its transition event waits for the next call.
  BreakerState state(ProviderId provider = kNoProvider) const;

 private:
  struct Breaker {
    BreakerState state = BreakerState::closed;
    std::uint64_t epoch = 0;  // incremented on every transition
    std::int32_t consecutive_failures = 0;
    TimePoint open_until = 0;
    std::int32_t probes_admitted = 0;  // probes admitted in the current half-open period
  };
  Breaker& breaker_of(ProviderId provider) {
    if (provider < breakers_.size()) return breakers_[provider];  // the hot path: a registry id
    if (provider == kNoProvider) return breakers_.front();
    breakers_.resize(std::size_t{provider} + 1);
    return breakers_[provider];
  }
  // open -> half_open once open_duration has passed.
  void refresh(Breaker& b, ProviderId provider);
  // Records the result of a call admitted in `epoch`; `probe` if it used a probe slot.
  void record(Breaker& b, ProviderId provider, OutcomeKind kind, bool reached_provider, std::uint64_t epoch,
              bool probe);
  void open(Breaker& b, ProviderId provider);
  void transition(Breaker& b, ProviderId provider, BreakerState to);

  CircuitBreakerConfig config_;
  EngineEnv env_;
  std::string owner_;
  OutcomeMask failure_on_;
  // By provider id; index 0 also serves calls without one (kNoProvider, engine tests).
  std::vector<Breaker> breakers_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const CircuitBreakerConfig& config, const StrategyBuild& build);

}  // namespace squall

// circuit_breaker: stop calling a provider that keeps failing, and probe it to recover.
//
// Closed: every call passes; failure_threshold consecutive failures open the breaker.
// Open: every call fails fast as circuit_open without reaching the provider, for
// open_duration. Half-open: the first half_open_probes calls pass as probes and every
// other call fails fast; a successful probe closes the breaker, a failed one re-opens it
// for another open_duration. The breaker is shared by every task calling the tool, and
// it always recovers: open always leads to half-open after open_duration.
// State changes are read lazily from the Clock when calls arrive, so the breaker needs no
// timers. Defaults follow Envoy's outlier detection (consecutive_5xx = 5,
// base_ejection_time = 30 s) and Polly's single half-open trial call.
#pragma once

#include <vector>

#include "engine/pipeline.hpp"

namespace squall {

struct CircuitBreakerConfig {
  // Consecutive failures that open the breaker. Default 5 (Envoy consecutive_5xx).
  std::int32_t failure_threshold = 5;
  // How long the breaker stays open. Default 30 s (Envoy base_ejection_time).
  Nanos open_duration = 30 * kSecond;
  // Probe calls admitted while half-open. Default 1 (Polly's single trial call).
  std::int32_t half_open_probes = 1;
  // Outcome kinds that count as failures; any other outcome resets the count. Default:
  // timeout, rate_limited, overloaded, server_error.
  std::vector<OutcomeKind> failure_on = default_failure_on();

  static std::vector<OutcomeKind> default_failure_on();
};

class CircuitBreakerStrategy final : public Strategy {
 public:
  CircuitBreakerStrategy(CircuitBreakerConfig config, EngineEnv env, std::string tool);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

  BreakerState state() const { return state_; }

 private:
  void transition(BreakerState to);

  CircuitBreakerConfig config_;
  EngineEnv env_;
  std::string tool_;
  std::uint32_t failure_mask_ = 0;
  BreakerState state_ = BreakerState::closed;
  std::int32_t consecutive_failures_ = 0;
  TimePoint open_until_ = 0;
  std::int32_t probes_in_flight_ = 0;  // probes admitted in the current half-open period
};

}  // namespace squall

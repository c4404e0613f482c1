// rate_limiter: a client-side limit on how many calls start per period of virtual time.
//
// Semantics are resilience4j's RateLimiter (its AtomicRateLimiter): time is cut into
// cycles of limit_refresh_period counted from the start of the run; each cycle brings
// limit_for_period permits, and permits left unused do not accumulate beyond
// limit_for_period. A call takes one permit. When none is left in the current cycle, the
// call reserves one in the earliest cycle with a permit not yet reserved and waits for
// that cycle to begin, provided the wait is at most timeout_duration and the permit comes
// before the call's deadline; otherwise it is rejected at once as rate_limiter_rejected,
// without reserving anything and without reaching the provider.
//
// Exact integer arithmetic on integer nanoseconds. With p = limit_refresh_period,
// L = limit_for_period, and `permits` the permits left in the current cycle (negative:
// that many permits of later cycles are reserved by waiting calls):
//   cycle  = now / p                      (cycles begin at 0, p, 2p, ...)
//   on a new cycle: permits = min(L, permits + L * cycles passed)
//   permits >= 1: take one, no wait
//   else the permit comes at (cycle + 1 + (-permits) / L) * p
// which is resilience4j's nanosToWaitForPermit. A waiting call whose caller cancels it
// (a losing hedge) returns as cancelled and, as in resilience4j, its reserved permit stays
// used.
//
// Defaults are resilience4j's RateLimiterConfig: limitForPeriod 50, limitRefreshPeriod
// 500 ns, timeoutDuration 5 s. The default period makes the limit 100 million calls per
// second, which no scenario reaches: a scenario that means to limit sets both.
//
// rate_limiter_rejected is of retry class `local`: the circuit breaker ignores it and retry
// does not retry it unless retry_on names it.
//
// Sharing. The state belongs to the strategy instance: in a provider's own stack it is
// shared by every tool and task that reaches the provider (resilience4j's
// RateLimiterRegistry keeps one limiter per backend name); in a tool's list it limits that
// tool's calls.
#pragma once

#include <array>
#include <cstdint>

#include "engine/config_fields.hpp"
#include "engine/pipeline.hpp"

namespace squall {

struct RateLimiterConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "rate_limiter";

  // Permits each cycle brings; >= 1. Default 50 (resilience4j limitForPeriod).
  std::int32_t limit_for_period = 50;
  // The cycle's length; > 0. Default 500 ns (resilience4j limitRefreshPeriod).
  Nanos limit_refresh_period = 500;
  // How long a call may wait for a permit; >= 0 (0: never wait). Default 5 s
  // (resilience4j timeoutDuration).
  Nanos timeout_duration = 5 * kSecond;
};

// A million permits per cycle: far beyond any real client's burst.
inline constexpr IntRange kLimitForPeriod{1, 1'000'000};

constexpr auto field_table(std::type_identity<RateLimiterConfig>) {
  using C = RateLimiterConfig;
  return table<C>(integer("limit_for_period", &C::limit_for_period, kLimitForPeriod)
                      .with_default("50")
                      .unit("permits")
                      .doc("permits per cycle")
                      .source("resilience4j limitForPeriod"),
                  duration("limit_refresh_period", &C::limit_refresh_period, DurationMin::positive)
                      .with_default(R"("500ns")")
                      .doc("the cycle")
                      .source("resilience4j limitRefreshPeriod"),
                  duration("timeout_duration", &C::timeout_duration, DurationMin::zero)
                      .with_default(R"("5s")")
                      .doc("longest wait for a permit")
                      .source("resilience4j timeoutDuration"));
}

class RateLimiterStrategy final : public Strategy {
 public:
  // limit_for_period >= 1, limit_refresh_period > 0, timeout_duration >= 0 (the loader
  // validates).
  RateLimiterStrategy(RateLimiterConfig config, EngineEnv env);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

  // The time a call arriving at `now` with `deadline` gets its permit (now, or the start
  // of a later cycle), reserving it; kNever when the call is rejected, reserving nothing.
  // Public for the unit tests.
  TimePoint acquire(TimePoint now, TimePoint deadline);
  // Permits left in the current cycle as of the last acquire (negative: reserved ahead).
  std::int64_t permits() const { return permits_; }

 private:
  void refill(std::int64_t cycle);

  RateLimiterConfig config_;
  EngineEnv env_;
  std::int64_t cycle_ = 0;
  std::int64_t permits_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const RateLimiterConfig& config, const StrategyBuild& build);

}  // namespace squall

// circuit_breaker: stop calling a provider that keeps failing, and probe it to recover.
//
// Two ways to judge the provider while closed, as the policy chooses (`sliding_window`):
//
// Consecutive failures (no sliding_window, the default): failure_threshold consecutive
// failures open the breaker (Envoy outlier detection's consecutive_5xx). Half-open: the
// first half_open_probes calls pass as probes and every other call fails fast; the first
// probe to finish decides: success closes the breaker, failure re-opens it (cause
// probe_failed).
//
// Failure and slow-call rates (a sliding_window; resilience4j's CircuitBreaker). The
// window (engine/strategies/breaker_window.hpp) holds the results of the last `size`
// calls (count_based) or of the calls that finished in the last `size` seconds
// (time_based). After each result is recorded, with n calls, f failures and s slow calls
// in the window, and n >= the minimum number of calls, the breaker opens when
//   f / n >= failure_rate_threshold   (cause failure_rate), or else when
//   s / n >= slow_call_rate_threshold (cause slow_call_rate),
// compared exactly in integers as f * 1e6 >= threshold_ppm * n (thresholds are kept in
// parts per million). The minimum is minimum_number_of_calls, or `size` if smaller for a
// count_based window (resilience4j's CircuitBreakerMetrics takes min(minimumNumberOfCalls,
// slidingWindowSize) for COUNT_BASED windows, and the plain minimum for TIME_BASED ones).
// A call is slow when it took longer than slow_call_duration_threshold (strictly: "above
// which calls are considered as slow", resilience4j), from entering this strategy to its
// result, whether it succeeded or failed. Half-open: half_open_probes calls pass as
// probes (resilience4j's permittedNumberOfCallsInHalfOpenState); once that many probe
// results are in, the same two rates over the probes alone decide: either reaching its
// threshold re-opens the breaker (with that cause), otherwise it closes. Every state
// period starts with an empty window, as resilience4j makes new metrics on each
// transition.
//
// Open: every call fails fast as circuit_open without reaching the provider. The open
// duration backs off (resilience4j's IntervalBiFunction.ofExponentialBackoff): the k-th
// opening in a row (k = 1 for the first since the breaker was last closed) lasts
//   open_duration * open_duration_multiplier^(k-1), capped at max_open_duration,
// each step multiplied from the previous duration and rounded to the nanosecond. Closing
// resets k. With the default multiplier 1 every opening lasts open_duration.
//
// The breaker is shared by every task calling through this pipeline, and it always
// recovers: open always leads to half-open after the open duration, and a probe that
// decides nothing gives its slot back.
//
// What counts. A failure is an outcome whose kind is in failure_on; every other outcome
// of a call that reached the provider is a success (it resets the consecutive count)
// (empty and bad_request included: the provider answered). Outcomes the engine produced
// without reaching the provider count as neither and leave the state as it was: kinds of
// retry class `local` (circuit_open, budget_exhausted, cancelled), and any outcome of a
// call during which no provider attempt started (ctx.attempts did not grow, e.g. a
// timeout returned because the deadline had passed before the attempt).
//
// Concurrency. Each state period (one closed, open or half-open stretch) is an epoch; a
// call records its result only if the breaker is still in the epoch that admitted it.
// So calls admitted while closed that finish after the breaker opened, and probes still
// in flight after the half-open period was decided, are ignored. resilience4j makes the
// same choice for results arriving in the open state; unlike resilience4j, a late
// closed-state result is not counted as a half-open probe either, so it can neither close
// nor re-open the breaker on behalf of a probe that has not answered.
//
// Time. State changes are read lazily from the Clock when calls arrive, so the breaker
// needs no timers; the open -> half_open transition is emitted (BreakerTransitionEvent,
// like every transition, with the cause of each opening) when the first call after the
// open duration arrives, at that time.
//
// One breaker per provider. A tool's pipeline can reach several providers (fallback moves
// CallContext::provider), so the strategy keeps one state per provider id and judges each
// provider by its own results, as a client keeps a breaker per backend (resilience4j's
// CircuitBreakerRegistry by name, Envoy's per-cluster circuit breakers). In a provider's
// own stack there is one provider, and the state is shared by every tool reaching it.
//
// Defaults: the consecutive mode follows Envoy's outlier detection (consecutive_5xx = 5,
// base_ejection_time = 30 s) and Polly's single half-open trial call; the rate mode
// follows resilience4j's CircuitBreakerConfig (slidingWindowSize 100, failureRateThreshold
// 50%, minimumNumberOfCalls 100, slowCallRateThreshold 100%, slowCallDurationThreshold
// 60 s, permittedNumberOfCallsInHalfOpenState 10). open_duration keeps 30 s in both (not
// resilience4j's 60 s waitDurationInOpenState), so adding a window changes one thing.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "engine/config_fields.hpp"
#include "engine/pipeline.hpp"
#include "engine/strategies/breaker_window.hpp"
#include "engine/strategies/outcome_mask.hpp"

namespace squall {

// A rate-based breaker's window: its type and size in calls (count_based) or whole
// seconds (time_based). Default 100 (resilience4j's slidingWindowSize).
struct SlidingWindowConfig {
  SlidingWindowType type = SlidingWindowType::count_based;
  std::int64_t size = 100;
  friend bool operator==(const SlidingWindowConfig&, const SlidingWindowConfig&) = default;
};

struct CircuitBreakerConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "circuit_breaker";

  // Consecutive failures that open the breaker, without a sliding_window; >= 1. Default 5
  // (Envoy consecutive_5xx).
  std::int32_t failure_threshold = 5;
  // How long the breaker stays open the first time; > 0. Default 30 s (Envoy
  // base_ejection_time).
  Nanos open_duration = 30 * kSecond;
  // Probe calls admitted while half-open; >= 1. Default (none): 1 without a sliding_window
  // (Polly's single trial call), 10 with one (resilience4j's
  // permittedNumberOfCallsInHalfOpenState). See permitted_probes().
  std::optional<std::int32_t> half_open_probes;
  // Outcome kinds that count as failures; any other outcome resets the count. Default:
  // timeout, rate_limited, overloaded, server_error.
  std::vector<OutcomeKind> failure_on = default_failure_on();
  // The rate-based mode's window; none (the default): the consecutive-failure mode.
  std::optional<SlidingWindowConfig> sliding_window;
  // With a sliding_window: the failure rate that opens the breaker, in parts per million
  // of the calls in the window, in (0, 1e6]. Default 500000 (50%, resilience4j).
  std::int64_t failure_rate_threshold_ppm = 500'000;
  // With a sliding_window: calls the window must hold before either rate is judged; >= 1.
  // Default 100 (resilience4j minimumNumberOfCalls).
  std::int64_t minimum_number_of_calls = 100;
  // With a sliding_window: the slow-call rate that opens the breaker, in parts per
  // million, in (0, 1e6]. Default 1000000 (100%, resilience4j slowCallRateThreshold).
  std::int64_t slow_call_rate_threshold_ppm = 1'000'000;
  // With a sliding_window: a call that took longer than this is slow; > 0. Default 60 s
  // (resilience4j slowCallDurationThreshold).
  Nanos slow_call_duration_threshold = 60 * kSecond;
  // Each opening in a row lasts this many times the previous one; in [1, 1000]. Default 1:
  // no backoff (resilience4j's exponentialBackoffMultiplier when enabled; its
  // IntervalBiFunction.ofExponentialBackoff).
  double open_duration_multiplier = 1.0;
  // The longest an opening lasts once backed off; >= open_duration. Default (none): no cap
  // (resilience4j's exponentialMaxWaitDurationInOpenState).
  std::optional<Nanos> max_open_duration;

  std::int32_t permitted_probes() const { return half_open_probes.value_or(sliding_window ? 10 : 1); }
  static std::vector<OutcomeKind> default_failure_on();
};

// Bounds: a million consecutive failures or probes (more would never trip or close within
// a run); a window of 100000 calls (a ring entry each, per provider) or an hour of
// one-second buckets; rates are percentages kept in parts per million, so 0.0001 is the
// finest and least; an opening grows at most 1000-fold per opening in a row.
inline constexpr IntRange kBreakerCount{1, 1'000'000};
inline constexpr IntRange kBreakerWindowCalls{1, 100'000};
inline constexpr Nanos kLongestBreakerWindow = kHour;
inline constexpr NumberRange kBreakerRatePercent{0.0001, false, 100};
inline constexpr NumberRange kOpenDurationMultiplier{1, false, 1000};

constexpr auto field_table(std::type_identity<CircuitBreakerConfig>) {
  using C = CircuitBreakerConfig;
  // Two modes: without sliding_window, consecutive failures; with it, rates, whose keys
  // apply only there.
  constexpr FieldRule<C> consecutive = [](const C&, const Written& w) {
    if (!w.has("sliding_window")) return Finding{};
    return Finding::error(
        "applies only without sliding_window (the consecutive-failure mode); a sliding_window opens on "
        "failure_rate_threshold");
  };
  constexpr FieldRule<C> windowed = [](const C&, const Written& w) {
    if (w.has("sliding_window")) return Finding{};
    return Finding::error("applies only with a sliding_window (the rate-based mode)");
  };
  constexpr FieldRule<C> above_open = [](const C& c, const Written& w) {
    if (!w.ok("open_duration") || *c.max_open_duration >= c.open_duration) return Finding{};
    return Finding::error("expected a duration >= open_duration (" + format_duration(c.open_duration) + "), got " +
                          w.quoted("max_open_duration"));
  };
  constexpr std::string_view ppm = "the breaker keeps rates in parts per million";
  return table<C>(integer("failure_threshold", &C::failure_threshold, kBreakerCount)
                      .only_if(consecutive)
                      .with_default("5")
                      .unit("failures")
                      .doc("consecutive failures that open the breaker")
                      .source("Envoy consecutive_5xx"),
                  duration("open_duration", &C::open_duration, DurationMin::positive)
                      .with_default(R"("30s")")
                      .doc("how long the breaker stays open the first time")
                      .source("Envoy base_ejection_time"),
                  integer("half_open_probes", &C::half_open_probes, kBreakerCount)
                      .unit("calls")
                      .doc("probe calls admitted while half-open; none: 1, or 10 with a sliding_window")
                      .source("Polly's single trial; resilience4j permittedNumberOfCallsInHalfOpenState"),
                  field("failure_on", &C::failure_on, FieldKind::provider_kinds)
                      .noted("the breaker")
                      .with_default(R"(["timeout", "rate_limited", "overloaded", "server_error"])")
                      .doc("the kinds that count as failures")
                      .source("the transient kinds a backend answers with"),
                  field("sliding_window", &C::sliding_window, FieldKind::shaped)
                      .doc("the rate-based mode's window: {type, size}; none: consecutive failures")
                      .source("resilience4j slidingWindowType, slidingWindowSize"),
                  scaled("failure_rate_threshold", &C::failure_rate_threshold_ppm, kBreakerRatePercent, 10'000, ppm)
                      .only_if(windowed)
                      .with_default("50")
                      .unit("percent")
                      .doc("percent of the window's calls that failed at which it opens")
                      .source("resilience4j failureRateThreshold"),
                  integer("minimum_number_of_calls", &C::minimum_number_of_calls, kBreakerCount)
                      .only_if(windowed)
                      .with_default("100")
                      .unit("calls")
                      .doc("calls the window must hold before the rates are judged")
                      .source("resilience4j minimumNumberOfCalls"),
                  scaled("slow_call_rate_threshold", &C::slow_call_rate_threshold_ppm, kBreakerRatePercent, 10'000, ppm)
                      .only_if(windowed)
                      .with_default("100")
                      .unit("percent")
                      .doc("percent of the window's calls that were slow at which it opens")
                      .source("resilience4j slowCallRateThreshold"),
                  duration("slow_call_duration_threshold", &C::slow_call_duration_threshold, DurationMin::positive)
                      .only_if(windowed)
                      .with_default(R"("60s")")
                      .doc("a call that took longer is slow")
                      .source("resilience4j slowCallDurationThreshold"),
                  number("open_duration_multiplier", &C::open_duration_multiplier, kOpenDurationMultiplier)
                      .with_default("1")
                      .doc("each opening in a row lasts this many times the previous one")
                      .source("resilience4j IntervalBiFunction.ofExponentialBackoff"),
                  duration("max_open_duration", &C::max_open_duration, DurationMin::positive)
                      .checked(above_open)
                      .doc("the cap of a backed-off opening; none: no cap")
                      .source("resilience4j exponentialMaxWaitDurationInOpenState"));
}

class CircuitBreakerStrategy final : public Gate {
 public:
  // `owner` (the tool or provider whose pipeline holds it) names the breaker in its
  // BreakerTransitionEvents.
  CircuitBreakerStrategy(CircuitBreakerConfig config, EngineEnv env, std::string owner);
  // A gate (engine/pipeline.hpp). The ticket holds the admission time (first), and the
  // admitting epoch with ctx.attempts at admission (second: the epoch in its high 32 bits,
  // the attempts in its low 32). Whether the call was a probe needs no room: within one
  // epoch the state does not change, so a call whose epoch is still current was a probe
  // exactly when the breaker is half-open.
  bool admit(CallContext& ctx, const Request& request, Ticket& ticket, Outcome& outcome) override;
  void settle(CallContext& ctx, const Ticket& ticket, Outcome& outcome) override;

  // The state of `provider`'s breaker as of now: an open breaker whose open duration has
  // passed reads as half_open, although its transition event waits for the next call.
  BreakerState state(ProviderId provider = kNoProvider) const;

 private:
  struct Breaker {
    BreakerState state = BreakerState::closed;
    // Incremented on every transition. 32 bits, to share a ticket's word with the attempt
    // count: it wraps after 2^32 transitions, and a call would have to stay in flight for
    // exactly that many to take a later epoch for its own.
    std::uint32_t epoch = 0;
    std::int32_t consecutive_failures = 0;
    TimePoint open_until = 0;
    std::int32_t probes_admitted = 0;  // probes admitted in the current half-open period
    // Openings since the breaker was last closed, and the last one's duration (the
    // backoff's state).
    std::int32_t openings = 0;
    Nanos last_open_duration = 0;
    // With a sliding_window: the closed period's window, and the half-open period's probe
    // results.
    std::optional<BreakerWindow> window;
    BreakerWindow::Counts probe_results;
  };
  Breaker& breaker_of(ProviderId provider) {
    if (provider < breakers_.size()) return breakers_[provider];  // the hot path: a registry id
    if (provider == kNoProvider) return breakers_.front();
    breakers_.resize(std::size_t{provider} + 1);
    return breakers_[provider];
  }
  // open -> half_open once the open duration has passed.
  void refresh(Breaker& b, ProviderId provider);
  // Records the result of a call admitted in `epoch` at `admitted`.
  void record(Breaker& b, ProviderId provider, OutcomeKind kind, bool reached_provider, std::uint32_t epoch,
              TimePoint admitted);
  // The rate mode's verdict on `counts` with at least `minimum` calls: the cause that
  // opens the breaker, or none.
  BreakerCause judge(const BreakerWindow::Counts& counts, std::int64_t minimum) const;
  void open(Breaker& b, ProviderId provider, BreakerCause cause);
  void transition(Breaker& b, ProviderId provider, BreakerState to, BreakerCause cause = BreakerCause::none);

  CircuitBreakerConfig config_;
  EngineEnv env_;
  std::string owner_;
  OutcomeMask failure_on_;
  std::int32_t probes_;
  // By provider id; index 0 also serves calls without one (kNoProvider, engine tests).
  std::vector<Breaker> breakers_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const CircuitBreakerConfig& config, const StrategyBuild& build);

}  // namespace squall

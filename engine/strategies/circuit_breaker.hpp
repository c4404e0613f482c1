// circuit_breaker: stop calling a provider that keeps failing, and probe it to recover.
// Closed, it judges the provider by consecutive failures (Envoy outlier detection's
// consecutive_5xx; the default) or, with a sliding_window, by failure and slow-call rates
// (resilience4j's CircuitBreaker); open, every call fails fast as circuit_open; after the
// open duration (backed off by open_duration_multiplier, capped at max_open_duration) it
// lets half_open_probes probes through, whose results close or re-open it. It always
// recovers. One state per provider id; state changes are read lazily from the Clock.
//
// Shape: CircuitBreakerConfig below. Units: Nanos for durations; rate thresholds are
// fractions kept in parts per million and compared in integers. Errors: none thrown; a
// refused call is the outcome circuit_open; transitions are BreakerTransitionEvents with
// their cause. Outcomes that never reached a provider (retry class local, or no attempt
// started) and the kinds in ignore_on count as neither success nor failure; results from
// an earlier state period (epoch) are ignored.
//
// The algorithm, what counts, the epochs and the sources of every default:
// docs/strategies/circuit_breaker.md.
#pragma once

#include <algorithm>
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
  // Outcome kinds that count as neither failure nor success: they neither add to nor reset
  // the count, and a probe answered with one gives its slot back. They win over failure_on's
  // default (resilience4j's ignoreExceptions win over recordExceptions); written in both,
  // a kind is an error. Default: none.
  std::vector<OutcomeKind> ignore_on;
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

// The rules between CircuitBreakerConfig's keys (engine/config_fields.hpp FieldRule).
namespace breaker_rules {
using C = CircuitBreakerConfig;
// Two modes: without sliding_window, consecutive failures; with it, rates, whose keys
// apply only there.
inline constexpr FieldRule<C> consecutive = [](const C&, const Written& w) {
  if (!w.has("sliding_window")) return Finding{};
  return Finding::error(
      "applies only without sliding_window (the consecutive-failure mode); a sliding_window opens on "
      "failure_rate_threshold");
};
inline constexpr FieldRule<C> windowed = [](const C&, const Written& w) {
  if (w.has("sliding_window")) return Finding{};
  return Finding::error("applies only with a sliding_window (the rate-based mode)");
};
inline constexpr FieldRule<C> above_open = [](const C& c, const Written& w) {
  if (!w.ok("open_duration") || *c.max_open_duration >= c.open_duration) return Finding{};
  return Finding::error("expected a duration >= open_duration (" + format_duration(c.open_duration) + "), got " +
                        w.quoted("max_open_duration"));
};
inline constexpr std::string_view ppm = "the breaker keeps rates in parts per million";
// A kind written in both lists would be ignored; failure_on's default loses silently.
inline constexpr FieldRule<C> apart_from_failures = [](const C& c, const Written& w) {
  if (!w.has("failure_on") || !w.ok("failure_on")) return Finding{};
  for (const OutcomeKind kind : c.ignore_on) {
    if (std::find(c.failure_on.begin(), c.failure_on.end(), kind) == c.failure_on.end()) continue;
    return Finding::error(quote(to_string(kind)) +
                          " is also in failure_on; a kind counts as a failure or is ignored, not both");
  }
  return Finding{};
};
}  // namespace breaker_rules

inline constexpr auto kCircuitBreakerFields = table<CircuitBreakerConfig>(
    integer("failure_threshold", &CircuitBreakerConfig::failure_threshold, kBreakerCount)
        .only_if(breaker_rules::consecutive)
        .with_default("5")
        .unit("failures")
        .doc("consecutive failures that open the breaker")
        .source("Envoy consecutive_5xx"),
    duration("open_duration", &CircuitBreakerConfig::open_duration, DurationMin::positive)
        .with_default(R"("30s")")
        .doc("how long the breaker stays open the first time")
        .source("Envoy base_ejection_time"),
    integer("half_open_probes", &CircuitBreakerConfig::half_open_probes, kBreakerCount)
        .unit("calls")
        .doc("probe calls admitted while half-open; none: 1, or 10 with a sliding_window")
        .source("Polly's single trial; resilience4j permittedNumberOfCallsInHalfOpenState"),
    field("failure_on", &CircuitBreakerConfig::failure_on, FieldKind::provider_kinds)
        .noted("the breaker")
        .with_default(R"(["timeout", "rate_limited", "overloaded", "server_error"])")
        .doc("the kinds that count as failures")
        .source("the transient kinds a backend answers with"),
    field("ignore_on", &CircuitBreakerConfig::ignore_on, FieldKind::provider_kinds)
        .noted("the breaker")
        .checked(breaker_rules::apart_from_failures)
        .doc("the kinds that count as neither failure nor success; none: every kind counts")
        .source("resilience4j ignoreExceptions"),
    field("sliding_window", &CircuitBreakerConfig::sliding_window, FieldKind::shaped)
        .doc("the rate-based mode's window: {type, size}; none: consecutive failures")
        .source("resilience4j slidingWindowType, slidingWindowSize"),
    scaled("failure_rate_threshold", &CircuitBreakerConfig::failure_rate_threshold_ppm, kBreakerRatePercent, 10'000,
           breaker_rules::ppm)
        .only_if(breaker_rules::windowed)
        .with_default("50")
        .unit("percent")
        .doc("percent of the window's calls that failed at which it opens")
        .source("resilience4j failureRateThreshold"),
    integer("minimum_number_of_calls", &CircuitBreakerConfig::minimum_number_of_calls, kBreakerCount)
        .only_if(breaker_rules::windowed)
        .with_default("100")
        .unit("calls")
        .doc("calls the window must hold before the rates are judged")
        .source("resilience4j minimumNumberOfCalls"),
    scaled("slow_call_rate_threshold", &CircuitBreakerConfig::slow_call_rate_threshold_ppm, kBreakerRatePercent, 10'000,
           breaker_rules::ppm)
        .only_if(breaker_rules::windowed)
        .with_default("100")
        .unit("percent")
        .doc("percent of the window's calls that were slow at which it opens")
        .source("resilience4j slowCallRateThreshold"),
    duration("slow_call_duration_threshold", &CircuitBreakerConfig::slow_call_duration_threshold, DurationMin::positive)
        .only_if(breaker_rules::windowed)
        .with_default(R"("60s")")
        .doc("a call that took longer is slow")
        .source("resilience4j slowCallDurationThreshold"),
    number("open_duration_multiplier", &CircuitBreakerConfig::open_duration_multiplier, kOpenDurationMultiplier)
        .with_default("1")
        .doc("each opening in a row lasts this many times the previous one")
        .source("resilience4j IntervalBiFunction.ofExponentialBackoff"),
    duration("max_open_duration", &CircuitBreakerConfig::max_open_duration, DurationMin::positive)
        .checked(breaker_rules::above_open)
        .doc("the cap of a backed-off opening; none: no cap")
        .source("resilience4j exponentialMaxWaitDurationInOpenState"));
;

constexpr const auto& field_table(std::type_identity<CircuitBreakerConfig>) { return kCircuitBreakerFields; }

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
  OutcomeMask ignore_on_;
  std::int32_t probes_;
  // By provider id; index 0 also serves calls without one (kNoProvider, engine tests).
  std::vector<Breaker> breakers_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const CircuitBreakerConfig& config, const StrategyBuild& build);

}  // namespace squall

// retry: repeat a failed attempt after a backoff delay, honouring Retry-After.
//
// Shape: RetryConfig below. max_attempts counts every attempt, the first included
// (resilience4j's maxAttempts; Polly's MaxRetryAttempts + 1); an attempt is one call of the
// rest of the pipeline. Backoff is constant, linear, exponential, fibonacci or
// decorrelated, capped at max_delay, then jittered (none, full, equal, proportional) with
// one Rng draw per backoff. A Retry-After the response states (engine/retry_after.hpp) is
// waited for exactly instead; one above max_retry_after gives up or falls back to the
// backoff (over_max_retry_after). No attempt starts at or after the call's deadline.
// Units: Nanos for every delay, whole nanoseconds after rounding. Errors: none thrown;
// every give-up returns the last outcome unchanged with a GiveUpEvent saying why
// (not_retryable, max_attempts, not_idempotent, retry_after_exceeds_cap, retry_budget,
// deadline); each wait is a BackoffEvent.
//
// The formulas, the jitters, the Retry-After rules and the sources of every default:
// docs/strategies/retry.md.
#pragma once

#include <array>

#include <vector>

#include "engine/pipeline.hpp"
#include "engine/runtime/rng.hpp"
#include "engine/strategies/outcome_mask.hpp"

namespace squall {

#define SQUALL_BACKOFFS(X)                        \
  X(constant, "base_delay")                       \
  X(linear, "base_delay * n")                     \
  X(exponential, "base_delay * multiplier^(n-1)") \
  X(fibonacci, "base_delay * F(n), F = 1, 1, 2, 3, 5, ...")
#define SQUALL_JITTERS(X)                                     \
  X(none, "the backoff as computed")                          \
  X(full, "uniform in [0, d]")                                \
  X(equal, "d/2 plus uniform in [0, d/2]")                    \
  X(proportional, "d times a factor uniform in jitter_range") \
  X(decorrelated, "uniform in [base, 3 * previous delay]")

#define SQUALL_RETRY_AFTER_OVER_MAX(X)                \
  X(give_up, "end the call at once with the outcome") \
  X(backoff, "ignore the header and wait the strategy's own backoff")

#define SQUALL_RETRY_AFTER_ZERO(X)                                                           \
  X(honour, "retry at once, as a Retry-After of 0 says (RFC 9110 section 10.2.3 allows it)") \
  X(backoff, "ignore the header and wait the strategy's own backoff")

enum class Backoff : std::uint8_t { SQUALL_BACKOFFS(SQUALL_ENUMERATOR) };
enum class RetryAfterOverMax : std::uint8_t { SQUALL_RETRY_AFTER_OVER_MAX(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kRetryAfterOverMaxCount = 0 SQUALL_RETRY_AFTER_OVER_MAX(SQUALL_COUNT);
enum class RetryAfterZero : std::uint8_t { SQUALL_RETRY_AFTER_ZERO(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kRetryAfterZeroCount = 0 SQUALL_RETRY_AFTER_ZERO(SQUALL_COUNT);
enum class Jitter : std::uint8_t { SQUALL_JITTERS(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kBackoffCount = 0 SQUALL_BACKOFFS(SQUALL_COUNT);
inline constexpr std::size_t kJitterCount = 0 SQUALL_JITTERS(SQUALL_COUNT);

// The factor range of proportional jitter: the delay is multiplied by a factor drawn
// uniformly in [min, max]; 0 < min <= max.
struct JitterRange {
  double min = 0.75;
  double max = 1.25;
  friend bool operator==(const JitterRange&, const JitterRange&) = default;
};

// What one logical call remembers between its backoffs: the delay of its previous backoff
// (0 before the first), from which decorrelated jitter draws the next one.
struct BackoffState {
  Nanos previous = 0;
};

struct RetryConfig {
  // The strategy's name in policies and its config keys, in the order the documentation
  // lists them (the loader's unknown-key messages list them so).
  static constexpr std::string_view kName = "retry";
  static constexpr std::array<std::string_view, 12> kKeys{"max_attempts",
                                                          "retry_on",
                                                          "backoff",
                                                          "base_delay",
                                                          "multiplier",
                                                          "max_delay",
                                                          "jitter",
                                                          "jitter_range",
                                                          "honour_retry_after",
                                                          "max_retry_after",
                                                          "over_max_retry_after",
                                                          "zero_retry_after"};

  // Attempts in all, the first included; >= 1. Default 3 (resilience4j RetryConfig).
  std::int32_t max_attempts = 3;
  // Outcome kinds that are retried. Default: the kinds whose retry class is transient:
  // timeout, rate_limited, overloaded, server_error, invalid_output.
  std::vector<OutcomeKind> retry_on = default_retry_on();
  Backoff backoff = Backoff::exponential;
  // Default 500 ms, resilience4j's waitDuration.
  Nanos base_delay = 500 * kMillisecond;
  // Growth factor of exponential backoff, >= 1. Default 2 (doubling, as in the AWS SDKs'
  // exponential backoff and the AWS Architecture Blog's formulas).
  double multiplier = 2.0;
  // Cap on the backoff before jitter. Default 20 s, the AWS SDKs' MAX_BACKOFF.
  Nanos max_delay = 20 * kSecond;
  // Default full jitter, the AWS Architecture Blog's recommendation.
  Jitter jitter = Jitter::full;
  // Factor range of proportional jitter (only used by it). Default [0.75, 1.25], seed
  // 004's "a random factor between 0.75 and 1.25" and Polly v8's +-25% jitter.
  JitterRange jitter_range;
  bool honour_retry_after = true;
  // Longest Retry-After that is waited for (a value equal to it is waited for). Default
  // 60 s (openai-python's limit).
  Nanos max_retry_after = 60 * kSecond;
  // What a Retry-After above max_retry_after does: give_up (default: the call ends at once,
  // so an outer fallback moves on without waiting) or backoff (the header is not trusted
  // and the strategy waits its own backoff, as openai-python and anthropic-sdk-python do).
  RetryAfterOverMax over_max_retry_after = RetryAfterOverMax::give_up;
  // What a Retry-After of 0 (or an HTTP-date now or past) does: honour (default: the next
  // attempt goes at once) or backoff (the strategy waits its own backoff, as openai-python
  // and anthropic-sdk-python do: their _calculate_retry_timeout uses the header only when
  // 0 < Retry-After <= 60 s).
  RetryAfterZero zero_retry_after = RetryAfterZero::honour;

  static std::vector<OutcomeKind> default_retry_on();
};

class RetryStrategy final : public Strategy {
 public:
  // `rng` is this strategy's own stream (policy.hpp names it); it must outlive the strategy.
  RetryStrategy(RetryConfig config, EngineEnv env, Rng& rng);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;
  RetryStrategy* as_retry() override { return this; }

  // The loop's steps, which execute() runs around `co_await next` and a fused call
  // (engine/fused_call.hpp) around the attempt in its own frame, so both decide alike.
  // One logical call's place in the loop:
  struct Progress {
    BackoffState backoff;      // this call's, never shared with another call
    std::int32_t attempt = 1;  // the attempt about to be made or just made, from 1
    bool outer_retry = false;  // ctx.retry on entry: an attempt of an outer retry is a retry here too
  };
  // What follows an attempt: the end of the call with the attempt's outcome, the next
  // attempt at once (the rest of the pipeline would refuse it without a call: sleeping
  // first would only delay the same refusal), or the next attempt at `at`, after a backoff.
  struct Step {
    enum class Then : std::uint8_t { finish, retry_now, retry_at };
    Then then = Then::finish;
    TimePoint at = 0;
  };
  static Progress begin(const CallContext& ctx) { return Progress{{}, 1, ctx.retry}; }
  // Before each attempt: marks it in ctx.retry (a retry from the second attempt on).
  static void before_attempt(CallContext& ctx, const Progress& progress) {
    ctx.retry = progress.outer_retry || progress.attempt > 1;
  }
  // After each attempt, with its outcome: restores ctx.retry and decides; emits the
  // GiveUpEvent or BackoffEvent and counts the attempt in `progress` when retrying.
  Step after_attempt(CallContext& ctx, const Request& request, Next next, Progress& progress, const Outcome& outcome);
  Scheduler& scheduler() const { return env_.scheduler; }

  // The backoff before retry n (n >= 1) of the logical call whose state is `state`,
  // after cap and jitter; draws once from the Rng unless jitter is none. Records the
  // delay in `state` (decorrelated jitter's previous delay). Exposed for tests.
  Nanos backoff_delay(std::int32_t n, BackoffState& state);

 private:
  // The exact pre-jitter backoff before retry n, capped at max_delay.
  Nanos capped_backoff(std::int32_t n) const;
  void give_up(const CallContext& ctx, std::string_view reason, OutcomeKind last_kind) const;

  RetryConfig config_;
  EngineEnv env_;
  Rng& rng_;
  OutcomeMask retry_on_;
};

std::string_view to_string(Backoff b);
std::string_view to_string(Jitter j);
std::string_view to_string(RetryAfterOverMax r);
std::string_view to_string(RetryAfterZero r);

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const RetryConfig& config, const StrategyBuild& build);

}  // namespace squall

// retry: repeat a failed attempt after a backoff delay, honouring Retry-After.
//
// max_attempts counts every attempt, the first included (resilience4j's maxAttempts; it
// equals Polly's MaxRetryAttempts + 1). An "attempt" here is one call of the rest of the
// pipeline, so a call an inner breaker or budget refuses counts too.
//
// Before retry n (n = 1 for the second attempt) the strategy waits:
//   constant:     base_delay
//   linear:       base_delay * n
//   exponential:  base_delay * multiplier^(n-1), multiplied step by step and rounded to
//                 the nanosecond at each step (exact for the usual multiplier 2)
//   fibonacci:    base_delay * F(n) with F(1) = F(2) = 1, F(n) = F(n-1) + F(n-2): base,
//                 base, 2 base, 3 base, 5 base, ... (the sequence of tokio-retry's
//                 FibonacciBackoff and of seed 004's issue text; see docs/strategies/retry.md)
// capped at max_delay (d below), then jittered with u = rng.uniform01() in [0, 1), one
// draw per backoff for every jitter but none:
//   none:          d
//   full:          round(u * d), in [0, d]                      (AWS Architecture Blog 2015)
//   equal:         d/2 + round(u * (d - d/2)), in [d/2, d] (d/2 rounds down)    (idem)
//   proportional:  min(max_delay, round(f * d)) with f = lo + u * (hi - lo), the factor
//                  range jitter_range = [lo, hi] (seed 004's [0.75, 1.25], which is also
//                  Polly v8's +-25% jitter of constant and linear backoff; resilience4j's
//                  randomizationFactor r is the range [1 - r, 1 + r])
//   decorrelated:  min(max_delay, round(base + u * (3 * prev - base))), uniform between
//                  base and three times the previous delay prev of the same logical call
//                  (prev = base before the first retry), AWS Architecture Blog 2015's
//                  "decorrelated jitter". It replaces the backoff formula: `backoff` and
//                  `multiplier` do not apply (the loader rejects them), and d is not used.
//                  The previous delay belongs to the logical call (BackoffState, a local
//                  of execute()), never to the strategy, so concurrent calls do not share
//                  it; a Retry-After wait does not change it.
// Every result is a whole number of nanoseconds (llround), at most max_delay.
//
// Retry-After (RFC 9110 section 10.2.3; servers send it with 429, 503 and 529): when
// honour_retry_after is set and the retried outcome's response states a delay that
// engine/retry_after.hpp's server_retry_delay() reads (retry-after-ms first, then
// Retry-After as delay-seconds or as an HTTP-date against EngineEnv::start_unix_seconds
// plus the virtual time, then the body's RetryInfo retry_delay), the strategy waits
// exactly that long instead, without
// jitter and without drawing. A value above max_retry_after (a delta-seconds too large to
// represent included: it saturates to kNever) makes the strategy give up on this provider
// at once instead of sleeping, so an outer fallback can move on (the 60 s
// default is openai-python's bound, above which that client stops trusting Retry-After and
// falls back to its own backoff; squall gives up instead, as the issue specifies). A missing or malformed value falls
// back to the backoff, never to zero; a well-formed "0" means retry at once.
//
// Stopping. Each decision emits one event:
//   success                                       returned, no event
//   kind not in retry_on (empty, auth_error, ...)  GiveUpEvent "not_retryable"
//   max_attempts reached                           GiveUpEvent "max_attempts"
//   the provider is not idempotent and the outcome
//   may have reached it (engine/retry_safety.hpp)  GiveUpEvent "not_idempotent"
//   Retry-After above max_retry_after and
//   over_max_retry_after give_up                   GiveUpEvent "retry_after_exceeds_cap"
//   (with backoff, the header is dropped and the backoff below is waited instead)
//   a retry budget inside refuses the retry
//   (Next::admit_retry, retry_budget.hpp)         GiveUpEvent "retry_budget"
//   now + wait >= ctx.deadline                     GiveUpEvent "deadline"
//   the next attempt would be refused without a
//   call (Next::refuses: a spent budget)           next attempt at once, no sleep
//   otherwise                                      BackoffEvent, sleep, next attempt
// No attempt starts at or after the call's deadline: when the wait would reach it the
// strategy gives up at once (rather than sleeping in vain) and returns the last failure.
// Every give-up returns the last outcome unchanged. BackoffEvent::after_attempt is this
// strategy's own attempt number (1-based), which equals AttemptEvent::attempt when retry
// sits directly above the provider and nothing outside it re-runs it.
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

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
// (not_retryable, should_retry_false, max_attempts, max_retries_by_kind, not_idempotent,
// retry_after_exceeds_cap, retry_budget, deadline); each wait is a BackoffEvent.
//
// The formulas, the jitters, the Retry-After rules and the sources of every default:
// docs/strategies/retry.md.
#pragma once

#include <algorithm>
#include <array>

#include <vector>

#include "engine/config_fields.hpp"
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
std::string_view to_string(Backoff b);
std::string_view to_string(Jitter j);
std::string_view to_string(RetryAfterOverMax r);
std::string_view to_string(RetryAfterZero r);

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

// A retry count for one outcome kind (RetryConfig::max_retries_by_kind).
struct KindRetries {
  OutcomeKind kind = OutcomeKind::timeout;
  std::int32_t retries = 0;
  friend bool operator==(const KindRetries&, const KindRetries&) = default;
};

struct RetryConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "retry";

  // Attempts in all, the first included; >= 1. Default 3 (resilience4j RetryConfig).
  std::int32_t max_attempts = 3;
  // Outcome kinds that are retried. Default: the kinds whose retry class is transient:
  // timeout, rate_limited, overloaded, server_error, invalid_output, truncated.
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
  // Whether an answer's `x-should-retry` header decides, as the Stainless-generated OpenAI
  // and Anthropic SDKs' shouldRetry does: "true" retries whatever the kind, "false" gives
  // up (reason should_retry_false); without the header retry_on decides. Default false:
  // Polly and resilience4j read no such header.
  bool honour_should_retry = false;
  // Retries after an outcome of a kind, for the kinds listed (LiteLLM's RetryPolicy:
  // RateLimitErrorRetries, TimeoutErrorRetries, ...): after an attempt that ended in kind
  // K the call retries only while its retries so far are fewer than K's count, and never
  // beyond max_attempts. Default none: max_attempts alone decides.
  std::vector<KindRetries> max_retries_by_kind;

  static std::vector<OutcomeKind> default_retry_on();
};

// Bounds, far beyond any real policy, that keep every count and product the engine derives
// from them finite and cheap: 1000 attempts of one logical call is a retry storm by itself,
// and the backoff of attempt n is computed in up to n steps; a multiplier of 1000 reaches
// any max_delay from 1 ns within 7 retries; a jitter factor of 1000 is far beyond any real
// spread (seed 004's is [0.75, 1.25]), and the product is capped at max_delay anyway.
inline constexpr IntRange kRetryAttempts{1, 1000};
inline constexpr NumberRange kBackoffMultiplier{1, false, 1000};
inline constexpr NumberRange kJitterFactor{0, true, 1000};

// The rules between RetryConfig's keys (engine/config_fields.hpp FieldRule).
namespace retry_rules {
using C = RetryConfig;
// Decorrelated jitter replaces the backoff formula, so the keys that shape it do not apply.
inline constexpr FieldRule<C> formula = [](const C&, const Written& w) {
  if (w.text("jitter") != "decorrelated") return Finding{};
  return Finding::error("does not apply to jitter \"decorrelated\", which replaces the backoff formula");
};
inline constexpr FieldRule<C> exponential = [](const C& c, const Written& w) {
  if (w.text("jitter") == "decorrelated") {
    return Finding::error("does not apply to jitter \"decorrelated\", which replaces the backoff formula");
  }
  if (!w.ok("backoff") || c.backoff == Backoff::exponential) return Finding{};
  return Finding::error("applies only to backoff \"exponential\", not " + quote(to_string(c.backoff)));
};
// base_delay <= max_delay, whichever of them is left at its default.
inline constexpr FieldRule<C> below_max = [](const C& c, const Written& w) {
  if (w.has("max_delay") || c.base_delay <= c.max_delay) return Finding{};
  return Finding::error("expected a duration <= max_delay (" + format_duration(c.max_delay) +
                        ", its default; set max_delay to allow more), got " + w.quoted("base_delay"));
};
inline constexpr FieldRule<C> above_base = [](const C& c, const Written& w) {
  if (!w.ok("base_delay") || c.max_delay >= c.base_delay) return Finding{};
  return Finding::error("expected a duration >= base_delay (" + format_duration(c.base_delay) + "), got " +
                        w.quoted("max_delay"));
};
inline constexpr FieldRule<C> proportional = [](const C& c, const Written& w) {
  if (!w.ok("jitter")) return Finding::skip();  // the jitter's own error says enough
  if (c.jitter == Jitter::proportional) return Finding{};
  return Finding::error("applies only to jitter \"proportional\", not " + quote(to_string(c.jitter)));
};
// A kind's count acts only on a kind that is retried, and only below max_attempts.
inline constexpr FieldRule<C> retried_kinds = [](const C& c, const Written& w) {
  if (!w.ok("retry_on") || !w.ok("max_attempts") || !w.ok("honour_should_retry")) return Finding::skip();
  std::string dead;  // every kind never retried, then every count too large: one message each
  std::string over;
  std::size_t dead_count = 0;
  for (const KindRetries& k : c.max_retries_by_kind) {
    const bool retried = std::find(c.retry_on.begin(), c.retry_on.end(), k.kind) != c.retry_on.end();
    if (!retried && !c.honour_should_retry) {
      dead += (dead.empty() ? "" : ", ") + quote(to_string(k.kind));
      ++dead_count;
    } else if (k.retries > c.max_attempts - 1) {
      over += (over.empty() ? "" : ", ") + std::to_string(k.retries) + " for " + quote(to_string(k.kind));
    }
  }
  if (dead_count == 1) return Finding::error(dead + " is not in retry_on, so its count can never act");
  if (dead_count > 1) return Finding::error(dead + " are not in retry_on, so their counts can never act");
  if (over.empty()) return Finding{};
  return Finding::error("expected at most max_attempts - 1 (" + std::to_string(c.max_attempts - 1) +
                        (w.has("max_attempts") ? "" : ", max_attempts' default being 3") + ") retries, got " + over);
};
// The keys that say how a Retry-After is read mean nothing when it is not honoured.
inline constexpr FieldRule<C> honoured = [](const C& c, const Written& w) {
  if (!w.ok("honour_retry_after") || c.honour_retry_after) return Finding{};
  return Finding::error("applies only when honour_retry_after is true");
};
}  // namespace retry_rules

inline constexpr auto kRetryFields = table<RetryConfig>(
    integer("max_attempts", &RetryConfig::max_attempts, kRetryAttempts)
        .with_default("3")
        .unit("attempts")
        .doc("attempts in all, the first one included")
        .source("resilience4j RetryConfig"),
    field("retry_on", &RetryConfig::retry_on, FieldKind::kinds)
        .with_default(R"(["timeout", "rate_limited", "overloaded", "server_error", "invalid_output", "truncated"])")
        .doc("the kinds that are retried")
        .source("the kinds whose retry class is transient"),
    field("backoff", &RetryConfig::backoff, FieldKind::choice)
        .choices(kAllValues<Backoff, kBackoffCount>)
        .only_if(retry_rules::formula)
        .with_default(R"("exponential")")
        .doc("how the delay grows from one retry to the next")
        .source("the AWS SDKs' exponential backoff"),
    duration("base_delay", &RetryConfig::base_delay, DurationMin::zero)
        .checked(retry_rules::below_max)
        .with_default(R"("500ms")")
        .doc("the first retry's delay before jitter")
        .source("resilience4j waitDuration"),
    number("multiplier", &RetryConfig::multiplier, kBackoffMultiplier)
        .only_if(retry_rules::exponential)
        .with_default("2")
        .doc("growth factor of exponential backoff")
        .source("the AWS SDKs' doubling"),
    duration("max_delay", &RetryConfig::max_delay, DurationMin::zero)
        .checked(retry_rules::above_base)
        .with_default(R"("20s")")
        .doc("cap on the backoff before jitter")
        .source("the AWS SDKs' MAX_BACKOFF"),
    field("jitter", &RetryConfig::jitter, FieldKind::choice)
        .choices(kAllValues<Jitter, kJitterCount>)
        .with_default(R"("full")")
        .doc("how the delay is randomised")
        .source("the AWS Architecture Blog's recommendation"),
    field("jitter_range", &RetryConfig::jitter_range, FieldKind::shaped)
        .only_if(retry_rules::proportional)
        .with_default("[0.75, 1.25]")
        .unit("factor")
        .doc("[min, max] factors of proportional jitter")
        .source("seed 004; Polly v8's +-25% jitter"),
    field("honour_retry_after", &RetryConfig::honour_retry_after, FieldKind::boolean)
        .with_default("true")
        .doc("whether a Retry-After sets the next delay")
        .source("openai-python, anthropic-sdk-python"),
    duration("max_retry_after", &RetryConfig::max_retry_after, DurationMin::zero)
        .only_if(retry_rules::honoured)
        .with_default(R"("60s")")
        .doc("the longest Retry-After that is waited for")
        .source("openai-python's limit"),
    field("over_max_retry_after", &RetryConfig::over_max_retry_after, FieldKind::choice)
        .choices(kAllValues<RetryAfterOverMax, kRetryAfterOverMaxCount>)
        .only_if(retry_rules::honoured)
        .with_default(R"("give_up")")
        .doc("what a longer Retry-After does: end the call, or wait the backoff")
        .source("an outer fallback moves on at once"),
    field("zero_retry_after", &RetryConfig::zero_retry_after, FieldKind::choice)
        .choices(kAllValues<RetryAfterZero, kRetryAfterZeroCount>)
        .only_if(retry_rules::honoured)
        .with_default(R"("honour")")
        .doc("what a Retry-After of 0 does: retry at once, or wait the backoff")
        .source("RFC 9110: 0 means at once"),
    field("honour_should_retry", &RetryConfig::honour_should_retry, FieldKind::boolean)
        .with_default("false")
        .doc("whether an answer's x-should-retry header overrides retry_on")
        .source("Polly and resilience4j read no such header; the OpenAI and Anthropic SDKs do"),
    field("max_retries_by_kind", &RetryConfig::max_retries_by_kind, FieldKind::shaped)
        .checked(retry_rules::retried_kinds)
        .unit("retries")
        .doc("{kind: retries}: retries after an outcome of that kind, below max_attempts")
        .source("LiteLLM's RetryPolicy"));

constexpr const auto& field_table(std::type_identity<RetryConfig>) { return kRetryFields; }

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
  // Attempts in all after which an outcome of each kind ends the call: max_attempts, or a
  // listed kind's retries + 1.
  std::array<std::int32_t, kOutcomeKindCount> attempts_by_kind_{};
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const RetryConfig& config, const StrategyBuild& build);

}  // namespace squall

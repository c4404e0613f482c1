#include "engine/strategies/retry.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <optional>

#include "engine/provider_registry.hpp"
#include "engine/retry_after.hpp"
#include "engine/retry_safety.hpp"

namespace squall {

std::vector<OutcomeKind> RetryConfig::default_retry_on() {
  std::vector<OutcomeKind> kinds;
  for (OutcomeKind k : all_outcome_kinds()) {
    if (retry_class(k) == RetryClass::transient) kinds.push_back(k);
  }
  return kinds;
}

RetryStrategy::RetryStrategy(RetryConfig config, EngineEnv env, Rng& rng)
    : config_(std::move(config)), env_(env), rng_(rng), retry_on_(config_.retry_on) {
  assert(config_.max_attempts >= 1);
  assert(config_.base_delay >= 0 && config_.max_delay >= 0 && config_.max_retry_after >= 0);
  assert(config_.multiplier >= 1.0);
  assert(config_.jitter_range.min > 0 && config_.jitter_range.min <= config_.jitter_range.max);
  attempts_by_kind_.fill(config_.max_attempts);
  for (const KindRetries& k : config_.max_retries_by_kind) {
    attempts_by_kind_[static_cast<std::size_t>(k.kind)] = std::min(k.retries + 1, config_.max_attempts);
  }
}

Nanos RetryStrategy::capped_backoff(std::int32_t n) const {
  const Nanos base = std::min(config_.base_delay, config_.max_delay);
  switch (config_.backoff) {
    case Backoff::constant: return base;
    case Backoff::linear:
      // n > max_delay / base exactly when base * n > max_delay; testing it this way
      // cannot overflow.
      if (base == 0) return 0;
      return n > config_.max_delay / base ? config_.max_delay : base * n;
    case Backoff::exponential: {
      // Step by step so that each product is a correctly rounded double (deterministic on
      // every IEEE 754 platform, unlike std::pow), rounded back to whole nanoseconds. The
      // loop ends at the cap, so it runs at most ~64 times for multiplier >= 2.
      Nanos d = base;
      for (std::int32_t i = 1; i < n && d < config_.max_delay; ++i) {
        const double next = static_cast<double>(d) * config_.multiplier;
        d = next >= static_cast<double>(config_.max_delay) ? config_.max_delay : static_cast<Nanos>(std::llround(next));
      }
      return d;
    }
    case Backoff::fibonacci: {
      // (a, b) = (F(i) base, F(i+1) base), capped. b > max_delay - a exactly when a + b >
      // max_delay; testing it this way cannot overflow. The loop ends at the cap, after at
      // most ~90 steps from a base of 1 ns (F(92) > 2^63).
      if (base == 0) return 0;
      Nanos a = base;
      Nanos b = base;
      for (std::int32_t i = 1; i < n && a < config_.max_delay; ++i) {
        const Nanos next = b > config_.max_delay - a ? config_.max_delay : a + b;
        a = b;
        b = next;
      }
      return a;
    }
  }
  return base;
}

Nanos RetryStrategy::backoff_delay(std::int32_t n, BackoffState& state) {
  assert(n >= 1);
  // round(x) clamped to max_delay. Products of factors and delays are computed in double
  // (correctly rounded, so deterministic on every IEEE 754 platform) and compared with the
  // cap before the conversion, which therefore never overflows. Delays are far below 2^53
  // ns (104 days) in any sensible policy, so the double holds them exactly.
  const auto rounded_capped = [this](double x) {
    return x >= static_cast<double>(config_.max_delay) ? config_.max_delay : static_cast<Nanos>(std::llround(x));
  };
  if (config_.jitter == Jitter::decorrelated) {
    // AWS 2015: sleep = min(cap, random_between(base, sleep * 3)), sleep starting at base.
    const Nanos base = std::min(config_.base_delay, config_.max_delay);
    const Nanos previous = std::max(state.previous, base);
    const double lo = static_cast<double>(base);
    const double hi = 3.0 * static_cast<double>(previous);
    state.previous = rounded_capped(lo + rng_.uniform01() * (hi - lo));
    return state.previous;
  }
  const Nanos d = capped_backoff(n);
  // round(u * x) with u in [0, 1) stays within [0, x].
  const auto scaled = [this](Nanos x) {
    return static_cast<Nanos>(std::llround(rng_.uniform01() * static_cast<double>(x)));
  };
  Nanos delay = d;
  switch (config_.jitter) {
    case Jitter::none: break;
    case Jitter::full: delay = scaled(d); break;
    case Jitter::equal: {
      const Nanos half = d / 2;
      delay = half + scaled(d - half);
      break;
    }
    case Jitter::proportional: {
      const JitterRange& r = config_.jitter_range;
      const double factor = r.min + rng_.uniform01() * (r.max - r.min);
      delay = rounded_capped(factor * static_cast<double>(d));
      break;
    }
    case Jitter::decorrelated: break;  // handled above
  }
  state.previous = delay;
  return delay;
}

void RetryStrategy::give_up(const CallContext& ctx, std::string_view reason, OutcomeKind last_kind) const {
  env_.events.on_give_up(GiveUpEvent{ctx.task.id, ctx.tool, "retry", reason, env_.clock.now(), last_kind});
}

RetryStrategy::Step RetryStrategy::after_attempt(CallContext& ctx, const Request& request, Next next,
                                                 Progress& progress, const Outcome& outcome) {
  using Then = Step::Then;
  ctx.retry = progress.outer_retry;
  if (outcome.kind == OutcomeKind::success) return {};
  // The server's x-should-retry, when honoured, overrides the kind (retry.hpp).
  const std::string_view advice = config_.honour_should_retry ? outcome.response.details().should_retry : "";
  if (advice == "false") {
    give_up(ctx, "should_retry_false", outcome.kind);
    return {};
  }
  if (advice != "true" && !retry_on_.contains(outcome.kind)) {
    give_up(ctx, "not_retryable", outcome.kind);
    return {};
  }
  if (progress.attempt >= attempts_by_kind_[static_cast<std::size_t>(outcome.kind)]) {
    give_up(ctx, progress.attempt >= config_.max_attempts ? "max_attempts" : "max_retries_by_kind", outcome.kind);
    return {};
  }
  if (!proves_unprocessed(outcome.kind) && env_.providers != nullptr && ctx.provider < env_.providers->size() &&
      !may_resend(env_.providers->descriptor(ctx.provider), outcome.kind)) {
    give_up(ctx, "not_idempotent", outcome.kind);
    return {};
  }

  std::optional<Nanos> retry_after;
  if (config_.honour_retry_after) {
    retry_after = server_retry_delay(outcome.response, env_.wall_now_unix_ns());
    // A zero the configuration does not trust waits the backoff, as one over the cap can.
    if (retry_after == Nanos{0} && config_.zero_retry_after == RetryAfterZero::backoff) retry_after = std::nullopt;
  }
  if (retry_after && *retry_after > config_.max_retry_after) {
    if (config_.over_max_retry_after == RetryAfterOverMax::give_up) {
      give_up(ctx, "retry_after_exceeds_cap", outcome.kind);
      return {};
    }
    retry_after.reset();  // not trusted: the backoff below is waited instead
  }
  // A retry budget inside (retry_budget) has the last word before the backoff.
  if (!next.admit_retry(ctx, request)) {
    give_up(ctx, "retry_budget", outcome.kind);
    return {};
  }
  const std::int32_t attempt = progress.attempt++;
  // A next attempt that would be refused without a call (a spent budget) is made at
  // once: sleeping first would only delay the same refusal.
  if (next.refuses(ctx, request)) return {Then::retry_now};
  // The Rng is drawn only when the backoff is actually used, so the stream's position
  // depends only on the backoffs taken.
  const Nanos wait = retry_after ? *retry_after : backoff_delay(attempt, progress.backoff);
  const TimePoint now = env_.clock.now();
  const TimePoint resume = add_saturating(now, wait);
  if (resume >= ctx.deadline) {
    give_up(ctx, "deadline", outcome.kind);
    return {};
  }
  env_.events.on_backoff(BackoffEvent{ctx.task.id, ctx.tool, attempt, now, wait, retry_after.has_value()});
  return {Then::retry_at, resume};
}

Task<Outcome> RetryStrategy::execute(CallContext& ctx, Request& request, Next next) {
  Progress progress = begin(ctx);
  // Each attempt's outcome lands where this call returns it (Task::result_slot), so the
  // frame, which every call in flight holds, has no second Outcome (bench/README.md).
  Outcome& outcome = co_await Task<Outcome>::result_slot();
  for (;;) {
    before_attempt(ctx, progress);
    co_await next(ctx, request).into(outcome);
    const Step step = after_attempt(ctx, request, next, progress, outcome);
    if (step.then == Step::Then::finish) co_return Task<Outcome>::kSlotFilled;
    if (step.then == Step::Then::retry_at) co_await sleep_until(env_.scheduler, step.at);
  }
}

std::string_view to_string(Backoff b) {
  static constexpr std::array<std::string_view, kBackoffCount> kNames{SQUALL_BACKOFFS(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(b)];
}

std::string_view to_string(RetryAfterOverMax r) {
  static constexpr std::array<std::string_view, kRetryAfterOverMaxCount> kNames{
      SQUALL_RETRY_AFTER_OVER_MAX(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(r)];
}

std::string_view to_string(RetryAfterZero r) {
  static constexpr std::array<std::string_view, kRetryAfterZeroCount> kNames{SQUALL_RETRY_AFTER_ZERO(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(r)];
}

std::string_view to_string(Jitter j) {
  static constexpr std::array<std::string_view, kJitterCount> kNames{SQUALL_JITTERS(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(j)];
}

std::unique_ptr<Strategy> make_strategy(const RetryConfig& config, const StrategyBuild& build) {
  return std::make_unique<RetryStrategy>(config, build.env, build.stream());
}

}  // namespace squall

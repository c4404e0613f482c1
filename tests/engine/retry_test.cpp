#include "engine/strategies/retry.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "engine/runtime/rng.hpp"
#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::Reply;
using test::ScriptedProvider;

constexpr Nanos kMs = kMillisecond;

RetryConfig no_jitter(Backoff backoff, Nanos base, std::int32_t max_attempts = 3) {
  RetryConfig c;
  c.max_attempts = max_attempts;
  c.backoff = backoff;
  c.base_delay = base;
  c.jitter = Jitter::none;
  return c;
}

std::unique_ptr<Pipeline> retry_pipeline(Harness& h, Provider& provider, RetryConfig config, Rng& rng) {
  return test::make_pipeline(provider, h.env, std::make_unique<RetryStrategy>(std::move(config), h.env, rng));
}

TEST(RetryTest, ConstantBackoffTimelineEndsAtExactly2300ms) {
  // Attempt 1 runs [0, 100 ms] and fails; backoff 1 s -> attempt 2 runs [1.1 s, 1.2 s] and
  // fails; backoff 1 s -> attempt 3 runs [2.2 s, 2.3 s] and succeeds: the call ends at
  // 3 * 100 ms + 2 * 1 s = 2.3 s.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(500)}, {test::status(502)}, {test::results()}});
  FixedRng rng(0);
  auto pipeline = retry_pipeline(h, provider, no_jitter(Backoff::constant, seconds(1)), rng);
  Call call;
  const Outcome outcome = test::run(h, *pipeline, call);

  EXPECT_EQ(outcome.kind, OutcomeKind::success);
  EXPECT_EQ(call.finished, 2300 * kMs);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 1100 * kMs, 2200 * kMs}));
  ASSERT_EQ(h.log.backoffs.size(), 2U);
  EXPECT_EQ(h.log.backoffs[0].at, 100 * kMs);
  EXPECT_EQ(h.log.backoffs[0].delay, seconds(1));
  EXPECT_EQ(h.log.backoffs[0].after_attempt, 1);
  EXPECT_EQ(h.log.backoffs[1].at, 1200 * kMs);
  EXPECT_EQ(h.log.backoffs[1].after_attempt, 2);
  EXPECT_FALSE(h.log.backoffs[1].from_retry_after);
  EXPECT_TRUE(h.log.give_ups.empty());
  EXPECT_EQ(call.ctx.attempts, 3);
}

TEST(RetryTest, RetryAfterDelaysTheNextAttempt) {
  // The 429 arrives at 100 ms with Retry-After: 20, so attempt 2 starts at 100 ms + 20 s,
  // not after the 1 s backoff; the wait is the header's, unjittered.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(429, "20")}, {test::results()}});
  FixedRng rng = FixedRng::at_fraction(0.5);
  RetryConfig config = no_jitter(Backoff::constant, seconds(1));
  config.jitter = Jitter::full;
  auto pipeline = retry_pipeline(h, provider, config, rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);

  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 20'100 * kMs}));
  ASSERT_EQ(h.log.backoffs.size(), 1U);
  EXPECT_EQ(h.log.backoffs[0].delay, seconds(20));
  EXPECT_TRUE(h.log.backoffs[0].from_retry_after);
  EXPECT_EQ(call.finished, 20'200 * kMs);
}

TEST(RetryTest, FractionalRetryAfterIsHonouredToTheNanosecond) {
  // Retry-After: 0.25 at 100 ms -> attempt 2 starts at 350 ms.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(429, "0.25")}, {test::results()}});
  FixedRng rng(0);
  auto pipeline = retry_pipeline(h, provider, no_jitter(Backoff::constant, seconds(1)), rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 350 * kMs}));
}

TEST(RetryTest, RetryAfterAboveTheCapGivesUpAtOnce) {
  // 120 s > max_retry_after 60 s: one attempt, no sleep, the 429 is returned at 100 ms.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(429, "120")}, {test::results()}});
  FixedRng rng(0);
  auto pipeline = retry_pipeline(h, provider, no_jitter(Backoff::constant, seconds(1)), rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::rate_limited);

  EXPECT_EQ(provider.calls().size(), 1U);
  EXPECT_EQ(call.finished, 100 * kMs);
  EXPECT_TRUE(h.log.backoffs.empty());
  ASSERT_EQ(h.log.give_ups.size(), 1U);
  EXPECT_EQ(h.log.give_ups[0].reason, "retry_after_exceeds_cap");
  EXPECT_EQ(h.log.give_ups[0].at, 100 * kMs);
  EXPECT_EQ(h.log.give_ups[0].last_kind, OutcomeKind::rate_limited);
}

TEST(RetryTest, RetryAfterTooLargeToRepresentGivesUpAsAboveTheCap) {
  // "99999999999999999999" s overflows int64 nanoseconds and saturates to kNever, which is
  // above the 60 s cap: one attempt, no backoff, the 429 is returned at 100 ms.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(429, "99999999999999999999")}, {test::results()}});
  FixedRng rng(0);
  auto pipeline = retry_pipeline(h, provider, no_jitter(Backoff::constant, seconds(1)), rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::rate_limited);

  EXPECT_EQ(provider.calls().size(), 1U);
  EXPECT_EQ(call.finished, 100 * kMs);
  EXPECT_TRUE(h.log.backoffs.empty());
  ASSERT_EQ(h.log.give_ups.size(), 1U);
  EXPECT_EQ(h.log.give_ups[0].reason, "retry_after_exceeds_cap");
  EXPECT_EQ(h.log.give_ups[0].at, 100 * kMs);
}

TEST(RetryTest, RetryAfterEqualToTheCapIsWaitedFor) {
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(429, "60")}, {test::results()}});
  FixedRng rng(0);
  auto pipeline = retry_pipeline(h, provider, no_jitter(Backoff::constant, seconds(1)), rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 60'100 * kMs}));
}

TEST(RetryTest, MalformedRetryAfterFallsBackToBackoff) {
  // Each malformed value (an HTTP-date included, unsupported for now) waits the constant
  // 1 s backoff, never 0: attempt 2 starts at 100 ms + 1 s.
  for (const char* value : {"soon", "-5", "", "Wed, 21 Oct 2015 07:28:00 GMT"}) {
    SCOPED_TRACE(value);
    Harness h;
    ScriptedProvider provider(h.loop, {{test::status(429, value)}, {test::results()}});
    FixedRng rng(0);
    auto pipeline = retry_pipeline(h, provider, no_jitter(Backoff::constant, seconds(1)), rng);
    Call call;
    EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
    EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 1100 * kMs}));
    ASSERT_EQ(h.log.backoffs.size(), 1U);
    EXPECT_EQ(h.log.backoffs[0].delay, seconds(1));
    EXPECT_FALSE(h.log.backoffs[0].from_retry_after);
  }
}

TEST(RetryTest, RetryAfterIsIgnoredWhenNotHonoured) {
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(429, "120")}, {test::results()}});
  FixedRng rng(0);
  RetryConfig config = no_jitter(Backoff::constant, seconds(1));
  config.honour_retry_after = false;
  auto pipeline = retry_pipeline(h, provider, config, rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 1100 * kMs}));
}

TEST(RetryTest, MaxAttemptsCountsTheFirstAttempt) {
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(500)}});
  FixedRng rng(0);
  auto pipeline = retry_pipeline(h, provider, no_jitter(Backoff::constant, seconds(1), 3), rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::server_error);
  EXPECT_EQ(provider.calls().size(), 3U);
  ASSERT_EQ(h.log.give_ups.size(), 1U);
  EXPECT_EQ(h.log.give_ups[0].reason, "max_attempts");
  EXPECT_EQ(h.log.give_ups[0].at, 2300 * kMs);
}

TEST(RetryTest, KindsOutsideRetryOnAreReturnedAtOnce) {
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(401)}, {test::results()}});
  FixedRng rng(0);
  auto pipeline = retry_pipeline(h, provider, no_jitter(Backoff::constant, seconds(1)), rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::auth_error);
  EXPECT_EQ(provider.calls().size(), 1U);
  ASSERT_EQ(h.log.give_ups.size(), 1U);
  EXPECT_EQ(h.log.give_ups[0].reason, "not_retryable");
  EXPECT_EQ(h.log.give_ups[0].last_kind, OutcomeKind::auth_error);
}

TEST(RetryTest, RetryOnSelectsTheRetriedKinds) {
  // With retry_on = {empty} an empty answer is retried and a 500 is not.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::no_results()}, {test::status(500)}});
  FixedRng rng(0);
  RetryConfig config = no_jitter(Backoff::constant, seconds(1));
  config.retry_on = {OutcomeKind::empty};
  auto pipeline = retry_pipeline(h, provider, config, rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::server_error);
  EXPECT_EQ(provider.calls().size(), 2U);
  EXPECT_EQ(h.log.give_ups.at(0).reason, "not_retryable");
}

TEST(RetryTest, GivesUpWhenTheWaitWouldReachTheDeadline) {
  // Deadline 1.5 s. Attempt 1 fails at 100 ms; 100 ms + 1 s < 1.5 s, so attempt 2 runs
  // [1.1 s, 1.2 s] and fails; 1.2 s + 1 s >= 1.5 s: give up at 1.2 s without sleeping.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(500)}});
  FixedRng rng(0);
  auto pipeline = retry_pipeline(h, provider, no_jitter(Backoff::constant, seconds(1), 10), rng);
  Call call;
  call.task.deadline = 1500 * kMs;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::server_error);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 1100 * kMs}));
  EXPECT_EQ(call.finished, 1200 * kMs);
  ASSERT_EQ(h.log.give_ups.size(), 1U);
  EXPECT_EQ(h.log.give_ups[0].reason, "deadline");
}

TEST(RetryTest, NoAttemptStartsExactlyAtTheDeadline) {
  // Deadline 1.1 s: the retry would start at 100 ms + 1 s = 1.1 s, which is not before it.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(500)}});
  FixedRng rng(0);
  auto pipeline = retry_pipeline(h, provider, no_jitter(Backoff::constant, seconds(1), 10), rng);
  Call call;
  call.task.deadline = 1100 * kMs;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::server_error);
  EXPECT_EQ(provider.calls().size(), 1U);
  EXPECT_EQ(call.finished, 100 * kMs);
  EXPECT_EQ(h.log.give_ups.at(0).reason, "deadline");
}

TEST(RetryTest, BackoffShapesAndCap) {
  Harness h;
  FixedRng rng(0);
  // constant 300 ms: 300 ms for every retry.
  RetryStrategy constant(no_jitter(Backoff::constant, 300 * kMs), h.env, rng);
  for (std::int32_t n : {1, 2, 7}) EXPECT_EQ(constant.backoff_delay(n), 300 * kMs);

  // linear 1 s, cap 2.5 s: 1 s, 2 s, then 3 s and 4 s capped to 2.5 s.
  RetryConfig linear = no_jitter(Backoff::linear, seconds(1));
  linear.max_delay = 2500 * kMs;
  RetryStrategy lin(linear, h.env, rng);
  EXPECT_EQ(lin.backoff_delay(1), seconds(1));
  EXPECT_EQ(lin.backoff_delay(2), seconds(2));
  EXPECT_EQ(lin.backoff_delay(3), 2500 * kMs);
  EXPECT_EQ(lin.backoff_delay(1'000'000), 2500 * kMs);

  // exponential 500 ms x2, cap 3 s: 500 ms, 1 s, 2 s, then 4 s capped to 3 s.
  RetryConfig expo = no_jitter(Backoff::exponential, 500 * kMs);
  expo.max_delay = seconds(3);
  RetryStrategy exp2(expo, h.env, rng);
  EXPECT_EQ(exp2.backoff_delay(1), 500 * kMs);
  EXPECT_EQ(exp2.backoff_delay(2), seconds(1));
  EXPECT_EQ(exp2.backoff_delay(3), seconds(2));
  EXPECT_EQ(exp2.backoff_delay(4), seconds(3));
  EXPECT_EQ(exp2.backoff_delay(200), seconds(3));

  // exponential 100 ms x1.5: 100, 150, 225, 337.5 ms (each product exact in binary64).
  RetryConfig expo15 = no_jitter(Backoff::exponential, 100 * kMs);
  expo15.multiplier = 1.5;
  RetryStrategy exp15(expo15, h.env, rng);
  EXPECT_EQ(exp15.backoff_delay(2), 150 * kMs);
  EXPECT_EQ(exp15.backoff_delay(3), 225 * kMs);
  EXPECT_EQ(exp15.backoff_delay(4), 337'500 * kMicrosecond);

  // A base above the cap is capped too.
  RetryConfig big = no_jitter(Backoff::constant, seconds(30));
  RetryStrategy capped(big, h.env, rng);
  EXPECT_EQ(capped.backoff_delay(1), seconds(20));
}

TEST(RetryTest, FullAndEqualJitterAtKnownFractions) {
  Harness h;
  // exponential 1 s x2 before retry 3: d = 4 s.
  RetryConfig config = no_jitter(Backoff::exponential, seconds(1));
  auto delay = [&](Jitter jitter, FixedRng rng) {
    RetryConfig c = config;
    c.jitter = jitter;
    RetryStrategy s(c, h.env, rng);
    return s.backoff_delay(3);
  };
  // full: round(u * 4 s). u = 0.25 -> 1 s; u = 0 -> 0; the largest u, 1 - 2^-53 -> 4 s
  // (round(4e9 * (1 - 2^-53)) = 4e9: the upper bound is reached).
  EXPECT_EQ(delay(Jitter::full, FixedRng::at_fraction(0.25)), seconds(1));
  EXPECT_EQ(delay(Jitter::full, FixedRng(0)), 0);
  EXPECT_EQ(delay(Jitter::full, FixedRng(std::numeric_limits<std::uint64_t>::max())), seconds(4));
  // equal: 2 s + round(u * 2 s). u = 0.25 -> 2.5 s; u = 0 -> 2 s; largest u -> 4 s.
  EXPECT_EQ(delay(Jitter::equal, FixedRng::at_fraction(0.25)), 2500 * kMs);
  EXPECT_EQ(delay(Jitter::equal, FixedRng(0)), seconds(2));
  EXPECT_EQ(delay(Jitter::equal, FixedRng(std::numeric_limits<std::uint64_t>::max())), seconds(4));
  // none ignores the draw.
  EXPECT_EQ(delay(Jitter::none, FixedRng::at_fraction(0.25)), seconds(4));

  // Odd d = 3 ns under equal jitter: d/2 rounds down to 1, so u = 0 gives 1 and
  // u = 0.75 gives 1 + round(0.75 * 2) = 3.
  RetryConfig tiny = no_jitter(Backoff::constant, 3);
  tiny.jitter = Jitter::equal;
  FixedRng zero(0);
  EXPECT_EQ(RetryStrategy(tiny, h.env, zero).backoff_delay(1), 1);
  FixedRng three_quarters = FixedRng::at_fraction(0.75);
  EXPECT_EQ(RetryStrategy(tiny, h.env, three_quarters).backoff_delay(1), 3);
}

TEST(RetryTest, JitteredTimelineUsesTheRng) {
  // exponential 1 s x2, full jitter at u = 0.5: waits 0.5 s then 1 s. Attempts (100 ms
  // each) start at 0, 0.1 + 0.5 = 0.6 s, 0.7 + 1 = 1.7 s; the call ends at 1.8 s.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(503)}, {test::status(503)}, {test::results()}});
  FixedRng rng = FixedRng::at_fraction(0.5);
  RetryConfig config = no_jitter(Backoff::exponential, seconds(1));
  config.jitter = Jitter::full;
  auto pipeline = retry_pipeline(h, provider, config, rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 600 * kMs, 1700 * kMs}));
  EXPECT_EQ(call.finished, 1800 * kMs);
}

TEST(RetryTest, DefaultRetryOnIsTheTransientKinds) {
  EXPECT_EQ(
      RetryConfig::default_retry_on(),
      (std::vector<OutcomeKind>{OutcomeKind::timeout, OutcomeKind::rate_limited, OutcomeKind::overloaded,
                                OutcomeKind::server_error, OutcomeKind::invalid_output}));
}

TEST(RetryTest, NamesOfBackoffAndJitter) {
  EXPECT_EQ(to_string(Backoff::constant), "constant");
  EXPECT_EQ(to_string(Backoff::linear), "linear");
  EXPECT_EQ(to_string(Backoff::exponential), "exponential");
  EXPECT_EQ(to_string(Jitter::none), "none");
  EXPECT_EQ(to_string(Jitter::full), "full");
  EXPECT_EQ(to_string(Jitter::equal), "equal");
}

}  // namespace
}  // namespace squall

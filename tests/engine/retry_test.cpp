#include "engine/strategies/retry.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
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

RetryConfig jittered(Jitter jitter, Backoff backoff, Nanos base, std::int32_t max_attempts = 3) {
  RetryConfig c = no_jitter(backoff, base, max_attempts);
  c.jitter = jitter;
  return c;
}

// The backoff before retry n of a fresh logical call.
template <class S>
Nanos delay_of(S&& strategy, std::int32_t n) {
  BackoffState fresh;
  return strategy.backoff_delay(n, fresh);
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

// An error answer carrying x-should-retry (ErrorDetails::should_retry).
Response advised(int code, std::string_view should_retry) {
  return test::with_details(test::status(code), [&](ErrorDetails& d) { d.should_retry = should_retry; });
}

TEST(RetryTest, XShouldRetryDecidesOverTheKindOnlyWhenHonoured) {
  // A 500 saying "false" and a 400 saying "true", each followed by a success. Honoured (the
  // SDKs' shouldRetry): the 500 ends the call at once, the 400 is retried after the 1 s
  // backoff. Not honoured (the default): the 500 is retried and the 400 is not.
  struct Case {
    int status;
    std::string_view advice;
    bool honour;
    OutcomeKind ends;
    std::string_view give_up;  // empty: retried to success
  };
  for (const Case c :
       {Case{500, "false", true, OutcomeKind::server_error, "should_retry_false"},
        Case{400, "true", true, OutcomeKind::success, ""}, Case{500, "false", false, OutcomeKind::success, ""},
        Case{400, "true", false, OutcomeKind::bad_request, "not_retryable"}}) {
    SCOPED_TRACE(testing::Message() << c.status << " x-should-retry: " << c.advice << " honoured " << c.honour);
    Harness h;
    ScriptedProvider provider(h.loop, {{advised(c.status, c.advice)}, {test::results()}});
    FixedRng rng(0);
    RetryConfig config = no_jitter(Backoff::constant, seconds(1));
    config.honour_should_retry = c.honour;
    auto pipeline = retry_pipeline(h, provider, config, rng);
    Call call;
    EXPECT_EQ(test::run(h, *pipeline, call).kind, c.ends);
    if (c.give_up.empty()) {
      EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 1100 * kMs}));
      EXPECT_TRUE(h.log.give_ups.empty());
    } else {
      EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0}));
      ASSERT_EQ(h.log.give_ups.size(), 1U);
      EXPECT_EQ(h.log.give_ups[0].reason, c.give_up);
    }
  }
}

TEST(RetryTest, XShouldRetryTrueStillStopsAtMaxAttempts) {
  // "true" overrides the kind, not the count: three 400s saying so make three attempts.
  Harness h;
  ScriptedProvider provider(h.loop, {{advised(400, "true")}, {advised(400, "true")}, {advised(400, "true")}});
  FixedRng rng(0);
  RetryConfig config = no_jitter(Backoff::constant, seconds(1));
  config.honour_should_retry = true;
  auto pipeline = retry_pipeline(h, provider, config, rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::bad_request);
  EXPECT_EQ(provider.start_times().size(), 3U);
  ASSERT_EQ(h.log.give_ups.size(), 1U);
  EXPECT_EQ(h.log.give_ups[0].reason, "max_attempts");
}

TEST(RetryTest, RetryAfterAboveTheCapFallsBackToTheBackoffWhenAskedTo) {
  // over_max_retry_after backoff, as the OpenAI and Anthropic SDKs do: the 120 s header is
  // not trusted, so the constant 1 s backoff is waited: attempt 2 at 100 ms + 1 s.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(429, "120")}, {test::results()}});
  FixedRng rng(0);
  RetryConfig config = no_jitter(Backoff::constant, seconds(1));
  config.over_max_retry_after = RetryAfterOverMax::backoff;
  auto pipeline = retry_pipeline(h, provider, config, rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 1100 * kMs}));
  ASSERT_EQ(h.log.backoffs.size(), 1U);
  EXPECT_FALSE(h.log.backoffs[0].from_retry_after);
  EXPECT_TRUE(h.log.give_ups.empty());
}

TEST(RetryTest, ARetryAfterOfZeroRetriesAtOnceOrWaitsTheBackoffWhenAskedTo) {
  // By default a Retry-After of 0 is honoured: attempt 2 at 100 ms. With zero_retry_after
  // backoff (the OpenAI and Anthropic SDKs' 0 < Retry-After rule) the 1 s backoff is
  // waited: attempt 2 at 1.1 s.
  for (const RetryAfterZero zero : {RetryAfterZero::honour, RetryAfterZero::backoff}) {
    Harness h;
    ScriptedProvider provider(h.loop, {{test::status(429, "0")}, {test::results()}});
    FixedRng rng(0);
    RetryConfig config = no_jitter(Backoff::constant, seconds(1));
    config.zero_retry_after = zero;
    auto pipeline = retry_pipeline(h, provider, config, rng);
    Call call;
    EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
    const bool honoured = zero == RetryAfterZero::honour;
    EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, honoured ? 100 * kMs : 1100 * kMs}));
    ASSERT_EQ(h.log.backoffs.size(), 1U);
    EXPECT_EQ(h.log.backoffs[0].from_retry_after, honoured);
  }
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
  // Each malformed value waits the constant 1 s backoff, never 0: attempt 2 starts at
  // 100 ms + 1 s. 21 Oct 2015 was a Wednesday, not a Thursday; the RFC 850 form is not read.
  for (const char* value : {"soon", "-5", "", "Thu, 21 Oct 2015 07:28:00 GMT", "Wednesday, 21-Oct-15 07:28:00 GMT"}) {
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

TEST(RetryTest, RetryAfterHttpDateIsReadAgainstTheStartTime) {
  // The run starts at 2015-10-21 07:27:50 UTC (Unix 1445412470); the 429 arrives at 100 ms,
  // 07:27:50.1, asking for 07:28:00: 9.9 s later, so attempt 2 starts at exactly 10 s.
  Harness h;
  h.env.start_unix_seconds = 1'445'412'470;
  ScriptedProvider provider(h.loop, {{test::status(429, "Wed, 21 Oct 2015 07:28:00 GMT")}, {test::results()}});
  FixedRng rng(0);
  auto pipeline = retry_pipeline(h, provider, no_jitter(Backoff::constant, seconds(1)), rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 10 * kSecond}));
  ASSERT_EQ(h.log.backoffs.size(), 1U);
  EXPECT_EQ(h.log.backoffs[0].delay, 9'900 * kMs);
  EXPECT_TRUE(h.log.backoffs[0].from_retry_after);
}

TEST(RetryTest, RetryAfterMsWinsAndRetryInfoIsTheLastResort) {
  // 503 with Retry-After: 5 and retry-after-ms: 250: the milliseconds win (attempt 2 at
  // 100 + 250 ms); then 529 with only a RetryInfo retry_delay of 1.5 s in the body
  // (attempt 3 at 450 ms + 1.5 s = 1950 ms); a malformed retry-after-ms beside a good
  // Retry-After is skipped (attempt 4 at 2050 ms + 2 s).
  const Response both = test::with_details(test::status(503, "5"), [](ErrorDetails& d) { d.retry_after_ms = "250"; });
  const Response body = test::with_details(test::status(529), [](ErrorDetails& d) { d.retry_delay = "1.5s"; });
  const Response bad_ms =
      test::with_details(test::status(429, "2"), [](ErrorDetails& d) { d.retry_after_ms = "soon"; });
  Harness h;
  ScriptedProvider provider(h.loop, {{both}, {body}, {bad_ms}, {test::results()}});
  FixedRng rng(0);
  auto pipeline = retry_pipeline(h, provider, no_jitter(Backoff::constant, seconds(1), 4), rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 350 * kMs, 1'950 * kMs, 4'050 * kMs}));
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
  for (std::int32_t n : {1, 2, 7}) EXPECT_EQ(delay_of(constant, n), 300 * kMs);

  // linear 1 s, cap 2.5 s: 1 s, 2 s, then 3 s and 4 s capped to 2.5 s.
  RetryConfig linear = no_jitter(Backoff::linear, seconds(1));
  linear.max_delay = 2500 * kMs;
  RetryStrategy lin(linear, h.env, rng);
  EXPECT_EQ(delay_of(lin, 1), seconds(1));
  EXPECT_EQ(delay_of(lin, 2), seconds(2));
  EXPECT_EQ(delay_of(lin, 3), 2500 * kMs);
  EXPECT_EQ(delay_of(lin, 1'000'000), 2500 * kMs);

  // exponential 500 ms x2, cap 3 s: 500 ms, 1 s, 2 s, then 4 s capped to 3 s.
  RetryConfig expo = no_jitter(Backoff::exponential, 500 * kMs);
  expo.max_delay = seconds(3);
  RetryStrategy exp2(expo, h.env, rng);
  EXPECT_EQ(delay_of(exp2, 1), 500 * kMs);
  EXPECT_EQ(delay_of(exp2, 2), seconds(1));
  EXPECT_EQ(delay_of(exp2, 3), seconds(2));
  EXPECT_EQ(delay_of(exp2, 4), seconds(3));
  EXPECT_EQ(delay_of(exp2, 200), seconds(3));

  // exponential 100 ms x1.5: 100, 150, 225, 337.5 ms (each product exact in binary64).
  RetryConfig expo15 = no_jitter(Backoff::exponential, 100 * kMs);
  expo15.multiplier = 1.5;
  RetryStrategy exp15(expo15, h.env, rng);
  EXPECT_EQ(delay_of(exp15, 2), 150 * kMs);
  EXPECT_EQ(delay_of(exp15, 3), 225 * kMs);
  EXPECT_EQ(delay_of(exp15, 4), 337'500 * kMicrosecond);

  // A base above the cap is capped too.
  RetryConfig big = no_jitter(Backoff::constant, seconds(30));
  RetryStrategy capped(big, h.env, rng);
  EXPECT_EQ(delay_of(capped, 1), seconds(20));
}

TEST(RetryTest, FullAndEqualJitterAtKnownFractions) {
  Harness h;
  // exponential 1 s x2 before retry 3: d = 4 s.
  RetryConfig config = no_jitter(Backoff::exponential, seconds(1));
  auto delay = [&](Jitter jitter, FixedRng rng) {
    RetryConfig c = config;
    c.jitter = jitter;
    RetryStrategy s(c, h.env, rng);
    return delay_of(s, 3);
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
  EXPECT_EQ(delay_of(RetryStrategy(tiny, h.env, zero), 1), 1);
  FixedRng three_quarters = FixedRng::at_fraction(0.75);
  EXPECT_EQ(delay_of(RetryStrategy(tiny, h.env, three_quarters), 1), 3);
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

TEST(RetryTest, FibonacciBackoffStartsBaseBaseAndStopsAtTheCap) {
  Harness h;
  FixedRng rng(0);
  // base 1 s, cap 6 s: F(n) = 1, 1, 2, 3, 5, then 8 and 13 capped to 6 s.
  RetryConfig config = no_jitter(Backoff::fibonacci, seconds(1));
  config.max_delay = seconds(6);
  RetryStrategy fib(config, h.env, rng);
  std::vector<Nanos> delays;
  for (std::int32_t n = 1; n <= 7; ++n) delays.push_back(delay_of(fib, n));
  EXPECT_EQ(delays,
            (std::vector<Nanos>{seconds(1), seconds(1), seconds(2), seconds(3), seconds(5), seconds(6), seconds(6)}));
  EXPECT_EQ(delay_of(fib, 1'000'000), seconds(6));

  // F(1000) overflows int64 many times over: a 1 ns base under the largest cap saturates
  // at the cap instead of wrapping (F(92) = 7540113804746346429 < 2^63 - 1 < F(93)).
  RetryConfig huge = no_jitter(Backoff::fibonacci, 1);
  huge.max_delay = std::numeric_limits<Nanos>::max();
  RetryStrategy big(huge, h.env, rng);
  EXPECT_EQ(delay_of(big, 92), 7'540'113'804'746'346'429);
  EXPECT_EQ(delay_of(big, 93), std::numeric_limits<Nanos>::max());
  EXPECT_EQ(delay_of(big, 1000), std::numeric_limits<Nanos>::max());

  // A zero base stays zero.
  RetryStrategy zero(no_jitter(Backoff::fibonacci, 0), h.env, rng);
  EXPECT_EQ(delay_of(zero, 50), 0);
}

TEST(RetryTest, FibonacciTimeline) {
  // base 100 ms, no jitter, five 503s then a success; attempts take 100 ms. Waits 100,
  // 100, 200, 300, 500 ms: attempts start at 0, 0.1+0.1 = 0.2, 0.3+0.1 = 0.4,
  // 0.5+0.2 = 0.7, 0.8+0.3 = 1.1 and 1.2+0.5 = 1.7 s; the call ends at 1.8 s.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(503)},
                                     {test::status(503)},
                                     {test::status(503)},
                                     {test::status(503)},
                                     {test::status(503)},
                                     {test::results()}});
  FixedRng rng(0);
  auto pipeline = retry_pipeline(h, provider, no_jitter(Backoff::fibonacci, 100 * kMs, 6), rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.start_times(),
            (std::vector<TimePoint>{0, 200 * kMs, 400 * kMs, 700 * kMs, 1100 * kMs, 1700 * kMs}));
  EXPECT_EQ(call.finished, 1800 * kMs);
}

TEST(RetryTest, ProportionalJitterTimeline) {
  // exponential 1 s x2 with the default factor range [0.75, 1.25]; the scripted fractions
  // u = 0, 0.5, 0.75 give the factors 0.75 + u * 0.5 = 0.75, 1, 1.125. Waits: 0.75 * 1 s,
  // 1 * 2 s, 1.125 * 4 s = 750 ms, 2 s, 4.5 s. Attempts (100 ms) start at 0,
  // 0.1 + 0.75 = 0.85, 0.95 + 2 = 2.95 and 3.05 + 4.5 = 7.55 s; the call ends at 7.65 s.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(503)}, {test::status(503)}, {test::status(503)}, {test::results()}});
  test::ScriptedRng rng({0, 0.5, 0.75});
  RetryConfig config = jittered(Jitter::proportional, Backoff::exponential, seconds(1), 4);
  auto pipeline = retry_pipeline(h, provider, config, rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 850 * kMs, 2950 * kMs, 7550 * kMs}));
  ASSERT_EQ(h.log.backoffs.size(), 3U);
  EXPECT_EQ(h.log.backoffs[0].delay, 750 * kMs);
  EXPECT_EQ(h.log.backoffs[1].delay, seconds(2));
  EXPECT_EQ(h.log.backoffs[2].delay, 4500 * kMs);
  EXPECT_EQ(call.finished, 7650 * kMs);
  EXPECT_EQ(rng.draws(), 3U);  // one draw per backoff
}

TEST(RetryTest, ProportionalJitterUsesItsRangeAndRespectsMaxDelay) {
  Harness h;
  const auto delay = [&](Nanos base, JitterRange range, double u) {
    RetryConfig c = no_jitter(Backoff::constant, base);
    c.max_delay = seconds(4);
    c.jitter = Jitter::proportional;
    c.jitter_range = range;
    FixedRng rng = FixedRng::at_fraction(u);
    return delay_of(RetryStrategy(c, h.env, rng), 1);
  };
  // d = 4 s, the cap itself: u = 0 -> 0.75 * 4 s = 3 s; u = 0.75 -> 1.125 * 4 s = 4.5 s,
  // capped to 4 s: the jittered delay never exceeds max_delay.
  EXPECT_EQ(delay(seconds(4), JitterRange{}, 0), seconds(3));
  EXPECT_EQ(delay(seconds(4), JitterRange{}, 0.75), seconds(4));
  // [0.5, 2] at u = 0.5: factor 1.25 -> 1.25 s; a point range [1, 1] is no jitter.
  EXPECT_EQ(delay(seconds(1), JitterRange{0.5, 2}, 0.5), 1250 * kMs);
  EXPECT_EQ(delay(seconds(1), JitterRange{1, 1}, 0.75), seconds(1));
  // Rounding to the nearest nanosecond: 3 ns * (0.75 + 0.5 * 0.5) = 3 ns; 3 ns * 0.75 =
  // 2.25 ns -> 2 ns.
  EXPECT_EQ(delay(3, JitterRange{}, 0.5), 3);
  EXPECT_EQ(delay(3, JitterRange{}, 0), 2);
}

TEST(RetryTest, DecorrelatedJitterTimeline) {
  // base 1 s, cap 10 s; delay = min(10 s, 1 s + u * (3 * previous - 1 s)), previous
  // starting at 1 s. Scripted u = 0.5, 0.25, 0.5, 0.9, 0:
  //   retry 1: previous 1 s,      1 + 0.5  * (3 - 1)      = 2 s
  //   retry 2: previous 2 s,      1 + 0.25 * (6 - 1)      = 2.25 s
  //   retry 3: previous 2.25 s,   1 + 0.5  * (6.75 - 1)   = 3.875 s
  //   retry 4: previous 3.875 s,  1 + 0.9  * (11.625 - 1) = 10.5625 s, capped to 10 s
  //   retry 5: previous 10 s,     1 + 0    * (30 - 1)     = 1 s
  // Attempts (100 ms) start at 0, 2.1, 4.45, 8.425, 18.525 and 19.625 s.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(503)},
                                     {test::status(503)},
                                     {test::status(503)},
                                     {test::status(503)},
                                     {test::status(503)},
                                     {test::results()}});
  test::ScriptedRng rng({0.5, 0.25, 0.5, 0.9, 0});
  RetryConfig config = no_jitter(Backoff::exponential, seconds(1), 6);
  config.max_delay = seconds(10);
  config.jitter = Jitter::decorrelated;
  auto pipeline = retry_pipeline(h, provider, config, rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  std::vector<Nanos> delays;
  for (const BackoffEvent& e : h.log.backoffs) delays.push_back(e.delay);
  EXPECT_EQ(delays, (std::vector<Nanos>{seconds(2), 2250 * kMs, 3875 * kMs, seconds(10), seconds(1)}));
  EXPECT_EQ(provider.start_times(),
            (std::vector<TimePoint>{0, 2100 * kMs, 4450 * kMs, 8425 * kMs, 18'525 * kMs, 19'625 * kMs}));
  EXPECT_EQ(call.finished, 19'725 * kMs);
  EXPECT_EQ(rng.draws(), 5U);  // one draw per backoff
}

TEST(RetryTest, DecorrelatedJitterIgnoresTheBackoffShape) {
  // The formula replaces the backoff: every shape gives the same delays.
  Harness h;
  for (Backoff backoff : {Backoff::constant, Backoff::linear, Backoff::exponential, Backoff::fibonacci}) {
    SCOPED_TRACE(to_string(backoff));
    RetryConfig c = jittered(Jitter::decorrelated, backoff, seconds(1));
    FixedRng rng = FixedRng::at_fraction(0.5);
    RetryStrategy s(c, h.env, rng);
    BackoffState state;
    EXPECT_EQ(s.backoff_delay(1, state), seconds(2));  // 1 + 0.5 * (3 - 1)
    EXPECT_EQ(s.backoff_delay(2, state), 3500 * kMs);  // 1 + 0.5 * (6 - 1)
    EXPECT_EQ(s.backoff_delay(3, state), 5750 * kMs);  // 1 + 0.5 * (10.5 - 1)
  }
}

TEST(RetryTest, DecorrelatedPreviousDelayBelongsToTheLogicalCall) {
  // Two concurrent calls through one strategy, each failing three times (max_attempts 3),
  // u = 0.5 throughout. Each call's waits are 2 s then 1 + 0.5 * (6 - 1) = 3.5 s. Were
  // the previous delay shared by the strategy, the second call's first wait would grow
  // from the first call's 2 s (3.5 s) instead of starting from base.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(503)}});
  FixedRng rng = FixedRng::at_fraction(0.5);
  RetryConfig config = jittered(Jitter::decorrelated, Backoff::exponential, seconds(1));
  config.max_delay = seconds(100);
  auto pipeline = retry_pipeline(h, provider, config, rng);
  Call a("a");
  Call b("b");
  std::exception_ptr error;
  test::start(h, *pipeline, a, &error);
  test::start(h, *pipeline, b, &error);
  test::drain(h);
  ASSERT_FALSE(error);
  std::vector<Nanos> delays;
  for (const BackoffEvent& e : h.log.backoffs) delays.push_back(e.delay);
  EXPECT_EQ(delays, (std::vector<Nanos>{seconds(2), seconds(2), 3500 * kMs, 3500 * kMs}));
  EXPECT_EQ(a.finished, 5800 * kMs);  // 3 * 100 ms + 2 s + 3.5 s
  EXPECT_EQ(b.finished, 5800 * kMs);
}

TEST(RetryTest, RetryAfterDoesNotFeedDecorrelatedJitter) {
  // A 429 with Retry-After: 30 is waited for exactly (no draw); the next backoff starts
  // from base again: 1 + 0.5 * (3 - 1) = 2 s, not from the 30 s wait. Attempts start at
  // 0, 0.1 + 30 = 30.1 and 30.2 + 2 = 32.2 s.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(429, "30")}, {test::status(503)}, {test::results()}});
  test::ScriptedRng rng({0.5});
  RetryConfig config = jittered(Jitter::decorrelated, Backoff::exponential, seconds(1));
  auto pipeline = retry_pipeline(h, provider, config, rng);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 30'100 * kMs, 32'200 * kMs}));
  EXPECT_EQ(rng.draws(), 1U);
}

TEST(RetryTest, EveryJitterButNoneDrawsOncePerBackoff) {
  for (Jitter jitter : {Jitter::none, Jitter::full, Jitter::equal, Jitter::proportional, Jitter::decorrelated}) {
    SCOPED_TRACE(to_string(jitter));
    Harness h;
    ScriptedProvider provider(h.loop, {{test::status(503)}});
    test::ScriptedRng rng({0.5});
    const RetryConfig config = jittered(jitter, Backoff::exponential, seconds(1), 4);
    auto pipeline = retry_pipeline(h, provider, config, rng);
    Call call;
    EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::overloaded);
    EXPECT_EQ(h.log.backoffs.size(), 3U);
    EXPECT_EQ(rng.draws(), jitter == Jitter::none ? 0U : 3U);
  }
}

// Sample mean of `draw()` over kDraws draws, and the check that it lies within four
// standard errors (sigma / sqrt(n), sigma known analytically) of `mean`.
constexpr int kDraws = 100'000;
void expect_mean(const std::function<double()>& draw, double mean, double sigma) {
  double sum = 0;
  for (int i = 0; i < kDraws; ++i) sum += draw();
  const double standard_error = sigma / std::sqrt(static_cast<double>(kDraws));
  EXPECT_NEAR(sum / kDraws, mean, 4 * standard_error);
}

TEST(RetryTest, ProportionalJitterMeanIsTheMidFactorTimesTheDelay) {
  // delay = f * 1 s with f uniform in [lo, hi]: mean (lo + hi) / 2 s, sigma (hi - lo) /
  // sqrt(12) s.
  Harness h;
  for (const JitterRange range : {JitterRange{}, JitterRange{0.5, 2}}) {
    RetryConfig c = jittered(Jitter::proportional, Backoff::constant, seconds(1));
    c.jitter_range = range;
    Xoshiro256 rng(11);
    RetryStrategy s(c, h.env, rng);
    const double lo = range.min * 1e9;
    const double hi = range.max * 1e9;
    expect_mean(
        [&] {
          const auto d = static_cast<double>(delay_of(s, 1));
          EXPECT_GE(d, lo);
          EXPECT_LE(d, hi);
          return d;
        },
        (lo + hi) / 2, (hi - lo) / std::sqrt(12.0));
  }
}

TEST(RetryTest, DecorrelatedJitterMeans) {
  // Uncapped, with base b: the first delay X is uniform in [b, 3b] (mean 2b, sigma
  // 2b / sqrt(12)); the second, Y, is uniform in [b, 3X], so E[Y] = E[(b + 3X) / 2] =
  // 3.5b and Var[Y] = E[(3X - b)^2] / 12 + (9/4) Var[X] = 28b^2/12 + 3b^2/4 = 37b^2/12.
  Harness h;
  RetryConfig c = jittered(Jitter::decorrelated, Backoff::exponential, seconds(1));
  c.max_delay = seconds(100);
  Xoshiro256 rng(12);
  RetryStrategy s(c, h.env, rng);
  const double b = 1e9;
  expect_mean(
      [&] {
        BackoffState state;
        const auto first = static_cast<double>(s.backoff_delay(1, state));
        EXPECT_GE(first, b);
        EXPECT_LE(first, 3 * b);
        return first;
      },
      2 * b, 2 * b / std::sqrt(12.0));
  expect_mean(
      [&] {
        BackoffState state;
        const auto first = static_cast<double>(s.backoff_delay(1, state));
        const auto second = static_cast<double>(s.backoff_delay(2, state));
        EXPECT_GE(second, b);
        EXPECT_LE(second, 3 * first);
        return second;
      },
      3.5 * b, b * std::sqrt(37.0 / 12.0));
}

TEST(RetryTest, DefaultRetryOnIsTheTransientKinds) {
  EXPECT_EQ(RetryConfig::default_retry_on(),
            (std::vector<OutcomeKind>{OutcomeKind::timeout, OutcomeKind::rate_limited, OutcomeKind::overloaded,
                                      OutcomeKind::server_error, OutcomeKind::invalid_output, OutcomeKind::truncated}));
}

TEST(RetryTest, NamesOfBackoffAndJitter) {
  EXPECT_EQ(to_string(Backoff::constant), "constant");
  EXPECT_EQ(to_string(Backoff::linear), "linear");
  EXPECT_EQ(to_string(Backoff::exponential), "exponential");
  EXPECT_EQ(to_string(Backoff::fibonacci), "fibonacci");
  EXPECT_EQ(to_string(Jitter::none), "none");
  EXPECT_EQ(to_string(Jitter::full), "full");
  EXPECT_EQ(to_string(Jitter::equal), "equal");
  EXPECT_EQ(to_string(Jitter::proportional), "proportional");
  EXPECT_EQ(to_string(Jitter::decorrelated), "decorrelated");
}

}  // namespace
}  // namespace squall

#include "engine/strategies/timeout.hpp"

#include <gtest/gtest.h>

#include "engine/strategies/retry.hpp"
#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::ScriptedProvider;

constexpr Nanos kMs = kMillisecond;

TimeoutConfig timeout(Nanos per_attempt, Nanos total = kNever) { return TimeoutConfig{per_attempt, total}; }

RetryConfig constant_retry(Nanos delay, std::int32_t max_attempts) {
  RetryConfig c;
  c.max_attempts = max_attempts;
  c.backoff = Backoff::constant;
  c.base_delay = delay;
  c.jitter = Jitter::none;
  return c;
}

TEST(TimeoutTest, SlowAttemptEndsAsTimeoutAtStartPlusPerAttempt) {
  // The reply would take 5 s; per_attempt 2 s gives the provider the deadline 0 + 2 s and
  // the attempt ends as timeout at exactly 2 s.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::results(), seconds(5)}});
  auto pipeline = test::make_pipeline(provider, h.env, std::make_unique<TimeoutStrategy>(timeout(seconds(2)), h.loop));
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::timeout);
  EXPECT_EQ(call.finished, seconds(2));
  ASSERT_EQ(provider.calls().size(), 1U);
  EXPECT_EQ(provider.calls()[0].deadline, seconds(2));
  ASSERT_EQ(h.log.attempts.size(), 1U);
  EXPECT_EQ(h.log.attempts[0].finished, seconds(2));
  EXPECT_EQ(h.log.attempts[0].kind, OutcomeKind::timeout);
}

TEST(TimeoutTest, PerAttemptTimeoutAppliesToEveryRetry) {
  // Attempt 1 runs [0, 2 s] and times out; backoff 1 s; attempt 2 runs [3 s, 5 s] and
  // times out too: each attempt gets its own start + 2 s.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::results(), seconds(5)}});
  FixedRng rng(0);
  auto pipeline = test::make_pipeline(provider, h.env, std::make_unique<TimeoutStrategy>(timeout(seconds(2)), h.loop),
                                      std::make_unique<RetryStrategy>(constant_retry(seconds(1), 2), h.env, rng));
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::timeout);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, seconds(3)}));
  EXPECT_EQ(provider.calls()[1].deadline, seconds(5));
  EXPECT_EQ(call.finished, seconds(5));
}

TEST(TimeoutTest, NoAttemptStartsAfterTheTotalDeadline) {
  // total 2.5 s, per_attempt 1 s, constant 500 ms backoff, replies take 2 s:
  //   attempt 1 [0, 1 s] timeout; wait 0.5 s;
  //   attempt 2 [1.5 s, 2.5 s] timeout (its own 1.5 + 1 s and the total coincide);
  //   2.5 s + 0.5 s >= 2.5 s: retry gives up on the deadline at 2.5 s.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::results(), seconds(2)}});
  FixedRng rng(0);
  auto pipeline =
      test::make_pipeline(provider, h.env, std::make_unique<TimeoutStrategy>(timeout(seconds(1), 2500 * kMs), h.loop),
                          std::make_unique<RetryStrategy>(constant_retry(500 * kMs, 10), h.env, rng));
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::timeout);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 1500 * kMs}));
  EXPECT_EQ(call.finished, 2500 * kMs);
  EXPECT_EQ(h.log.give_ups.at(0).reason, "deadline");
}

TEST(TimeoutTest, TotalDeadlineCutsTheLastAttemptShort) {
  // total 1.8 s: attempt 2 starts at 1.5 s and its deadline is min(1.5 + 1 s, 1.8 s).
  Harness h;
  ScriptedProvider provider(h.loop, {{test::results(), seconds(2)}});
  FixedRng rng(0);
  auto pipeline =
      test::make_pipeline(provider, h.env, std::make_unique<TimeoutStrategy>(timeout(seconds(1), 1800 * kMs), h.loop),
                          std::make_unique<RetryStrategy>(constant_retry(500 * kMs, 10), h.env, rng));
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::timeout);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 1500 * kMs}));
  EXPECT_EQ(provider.calls()[1].deadline, 1800 * kMs);
  EXPECT_EQ(call.finished, 1800 * kMs);
}

TEST(TimeoutTest, TaskDeadlineTightensTheTotal) {
  // The task's deadline (1.2 s) is earlier than now + total (10 s), so it bounds the attempt.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::results(), seconds(5)}});
  auto pipeline =
      test::make_pipeline(provider, h.env, std::make_unique<TimeoutStrategy>(timeout(seconds(2), seconds(10)), h.loop));
  Call call;
  call.task.deadline = 1200 * kMs;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::timeout);
  EXPECT_EQ(call.finished, 1200 * kMs);
}

TEST(TimeoutTest, AnAttemptIsNotStartedAtTheDeadline) {
  // The task's deadline is now: the pipeline returns timeout without calling the provider.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::results()}});
  auto pipeline = test::make_pipeline(provider, h.env, std::make_unique<TimeoutStrategy>(timeout(seconds(2)), h.loop));
  Call call;
  call.task.deadline = 0;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::timeout);
  EXPECT_TRUE(provider.calls().empty());
  EXPECT_EQ(call.ctx.attempts, 0);
}

TEST(TimeoutTest, RestoresTheOuterDeadlinesOnReturn) {
  // Like a gRPC child context, the timeout constrains only what it wraps.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::results()}});
  auto pipeline =
      test::make_pipeline(provider, h.env, std::make_unique<TimeoutStrategy>(timeout(seconds(2), seconds(5)), h.loop));
  Call call;
  call.ctx.attempt_timeout = seconds(1);  // a tighter outer per-attempt timeout wins
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.calls().at(0).deadline, seconds(1));
  EXPECT_EQ(call.ctx.deadline, kNever);
  EXPECT_EQ(call.ctx.attempt_timeout, seconds(1));
}

}  // namespace
}  // namespace squall

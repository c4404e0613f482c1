// rate_limiter: resilience4j's cycle arithmetic, exactly, in virtual time.
#include "engine/strategies/rate_limiter.hpp"

#include <gtest/gtest.h>

#include <array>

#include "tests/engine/test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::Reply;
using test::ScriptedProvider;

RateLimiterConfig limiter(std::int32_t limit, Nanos period, Nanos timeout) {
  RateLimiterConfig c;
  c.limit_for_period = limit;
  c.limit_refresh_period = period;
  c.timeout_duration = timeout;
  return c;
}

constexpr Nanos kMs = kMillisecond;

TEST(RateLimiterTest, DefaultsAreResilience4j) {
  const RateLimiterConfig c;
  EXPECT_EQ(c.limit_for_period, 50);
  EXPECT_EQ(c.limit_refresh_period, 500);
  EXPECT_EQ(c.timeout_duration, 5 * kSecond);
}

TEST(RateLimiterTest, CallsBeyondTheCycleReserveLaterCycles) {
  Harness h;
  RateLimiterStrategy r(limiter(2, 100 * kMs, kSecond), h.env);
  // Cycle 0 = [0, 100 ms) has 2 permits; then 2 per cycle, reserved in order.
  EXPECT_EQ(r.acquire(10 * kMs, kNever), 10 * kMs);
  EXPECT_EQ(r.acquire(10 * kMs, kNever), 10 * kMs);
  EXPECT_EQ(r.acquire(10 * kMs, kNever), 100 * kMs);  // (0 + 1 + 0/2) * 100 ms
  EXPECT_EQ(r.acquire(10 * kMs, kNever), 100 * kMs);  // (0 + 1 + 1/2) * 100 ms
  EXPECT_EQ(r.acquire(10 * kMs, kNever), 200 * kMs);  // (0 + 1 + 2/2) * 100 ms
  EXPECT_EQ(r.permits(), -3);
  // At 150 ms (cycle 1) the cycle's 2 permits pay two reservations: -3 + 2 = -1.
  EXPECT_EQ(r.acquire(150 * kMs, kNever), 200 * kMs);  // (1 + 1 + 1/2) * 100 ms
  EXPECT_EQ(r.permits(), -2);
}

TEST(RateLimiterTest, UnusedPermitsDoNotAccumulateBeyondTheLimit) {
  Harness h;
  RateLimiterStrategy r(limiter(2, 100 * kMs, 0), h.env);
  EXPECT_EQ(r.acquire(0, kNever), 0);
  // Ten idle cycles later the bucket holds 2, not 21.
  EXPECT_EQ(r.acquire(kSecond, kNever), kSecond);
  EXPECT_EQ(r.acquire(kSecond, kNever), kSecond);
  EXPECT_EQ(r.acquire(kSecond, kNever), kNever);  // timeout 0: no waiting
}

TEST(RateLimiterTest, RejectsWhenThePermitComesAfterTheTimeoutOrTheDeadline) {
  Harness h;
  RateLimiterStrategy r(limiter(1, 100 * kMs, 150 * kMs), h.env);
  EXPECT_EQ(r.acquire(0, kNever), 0);
  EXPECT_EQ(r.acquire(0, 100 * kMs), kNever);         // the permit at 100 ms is at the deadline
  EXPECT_EQ(r.acquire(0, kNever), 100 * kMs);         // rejections reserved nothing
  EXPECT_EQ(r.acquire(0, kNever), kNever);            // 200 ms > 0 + 150 ms
  EXPECT_EQ(r.acquire(60 * kMs, kNever), 200 * kMs);  // 200 ms <= 60 + 150 ms
}

TEST(RateLimiterTest, WaitingCallsStartAtTheirCycle) {
  Harness h;
  ScriptedProvider provider(h.loop, {Reply{test::results(), 10 * kMs}});
  auto p = test::make_pipeline(provider, h.env,
                               std::make_unique<RateLimiterStrategy>(limiter(1, 100 * kMs, 150 * kMs), h.env));
  std::array<Call, 3> calls;
  std::exception_ptr error;
  for (Call& c : calls) test::start(h, *p, c, &error);
  test::drain(h);
  ASSERT_FALSE(error);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 100 * kMs}));
  EXPECT_EQ(calls[1].finished, 110 * kMs);
  EXPECT_EQ(calls[2].outcome->kind, OutcomeKind::rate_limiter_rejected);
  EXPECT_EQ(calls[2].outcome->response.status, 0);
  EXPECT_EQ(calls[2].finished, 0);
  EXPECT_EQ(retry_class(OutcomeKind::rate_limiter_rejected), RetryClass::local);
}

TEST(RateLimiterTest, CancelledWaitReturnsCancelled) {
  Harness h;
  ScriptedProvider provider(h.loop, {Reply{test::results(), 10 * kMs}});
  auto p = test::make_pipeline(provider, h.env,
                               std::make_unique<RateLimiterStrategy>(limiter(1, 100 * kMs, kSecond), h.env));
  std::array<Call, 2> calls;
  CancellationSource cancel;
  calls[1].ctx.cancellation = cancel.token();
  std::exception_ptr error;
  for (Call& c : calls) test::start(h, *p, c, &error);
  const auto cancel_at = [&h, &cancel](TimePoint at) -> Task<void> {
    co_await sleep_until(h.loop, at);
    cancel.cancel();
  };
  spawn(cancel_at(30 * kMs), &error);
  test::drain(h);
  ASSERT_FALSE(error);
  EXPECT_EQ(calls[1].outcome->kind, OutcomeKind::cancelled);
  EXPECT_EQ(calls[1].finished, 30 * kMs);
  EXPECT_EQ(provider.calls().size(), 1u);
}

}  // namespace
}  // namespace squall

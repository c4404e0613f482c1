#include "engine/runtime/cancellable_sleep.hpp"

#include <gtest/gtest.h>

#include <exception>
#include <optional>

#include "engine/runtime/task.hpp"
#include "sim/event_loop.hpp"
#include "tests/engine/timeline.hpp"

namespace squall {
namespace {

struct Woke {
  Wake wake = Wake::elapsed;
  TimePoint at = -1;
};

Task<void> sleeper(EventLoop& loop, TimePoint until, CancellationToken token, std::optional<Woke>& out) {
  const Wake wake = co_await sleep_until(loop, until, token);
  out = Woke{wake, loop.now()};
}

TEST(CancellableSleepTest, ElapsesAtItsTimeWhenNotCancelled) {
  EventLoop loop;
  CancellationSource source;
  std::optional<Woke> woke;
  std::exception_ptr error;
  spawn(sleeper(loop, 100 * kMillisecond, source.token(), woke), &error);
  loop.run();
  ASSERT_TRUE(woke);
  EXPECT_EQ(woke->wake, Wake::elapsed);
  EXPECT_EQ(woke->at, 100 * kMillisecond);
  EXPECT_FALSE(source.has_callbacks());  // the registration left with the sleep
  source.cancel();                       // later cancels touch nothing
  EXPECT_TRUE(loop.empty());
  EXPECT_FALSE(error);
}

TEST(CancellableSleepTest, CancelWakesTheSleeperAtTheCancelTimeAndRemovesItsTimer) {
  // The sleep is due at 10 s; the token fires at 2 s. The sleeper resumes at 2 s, after
  // the canceller's event, and the 10 s timer never runs: two events in all.
  EventLoop loop;
  CancellationSource source;
  std::optional<Woke> woke;
  std::exception_ptr error;
  spawn(sleeper(loop, 10 * kSecond, source.token(), woke), &error);
  test::at(
      loop, 2 * kSecond, [&] { source.cancel(); }, &error);
  EXPECT_EQ(loop.pending(), 2U);
  EXPECT_EQ(loop.run(), 2U);
  ASSERT_TRUE(woke);
  EXPECT_EQ(woke->wake, Wake::cancelled);
  EXPECT_EQ(woke->at, 2 * kSecond);
  EXPECT_EQ(loop.now(), 2 * kSecond);
  EXPECT_TRUE(loop.empty());
  EXPECT_FALSE(error);
}

TEST(CancellableSleepTest, AlreadyCancelledTokenDoesNotSuspend) {
  EventLoop loop;
  CancellationSource source;
  source.cancel();
  std::optional<Woke> woke;
  std::exception_ptr error;
  spawn(sleeper(loop, 5 * kSecond, source.token(), woke), &error);
  ASSERT_TRUE(woke);  // returned inside spawn(), before any event
  EXPECT_EQ(woke->wake, Wake::cancelled);
  EXPECT_EQ(woke->at, 0);
  EXPECT_TRUE(loop.empty());
}

TEST(CancellableSleepTest, DefaultTokenSleepsLikeThePlainSleep) {
  EventLoop loop;
  std::optional<Woke> woke;
  std::exception_ptr error;
  spawn(sleeper(loop, 3 * kSecond, CancellationToken{}, woke), &error);
  EXPECT_EQ(loop.run(), 1U);
  ASSERT_TRUE(woke);
  EXPECT_EQ(woke->wake, Wake::elapsed);
  EXPECT_EQ(woke->at, 3 * kSecond);
}

Task<void> owner(EventLoop& loop, CancellationToken token, std::optional<Woke>& out) {
  co_await sleeper(loop, 5 * kSecond, token, out);
}

TEST(CancellableSleepTest, DestroyingASleepingCoroutineRemovesItsTimerAndRegistration) {
  EventLoop loop;
  CancellationSource source;
  std::optional<Woke> woke;
  {
    Task<void> task = owner(loop, source.token(), woke);
    task.await_suspend(std::noop_coroutine()).resume();  // start it; it suspends in the sleep
    EXPECT_EQ(loop.pending(), 1U);
    EXPECT_TRUE(source.has_callbacks());
  }  // destroyed while suspended
  EXPECT_TRUE(loop.empty());
  EXPECT_FALSE(source.has_callbacks());
  source.cancel();
  EXPECT_EQ(loop.run(), 0U);
  EXPECT_FALSE(woke);
}

}  // namespace
}  // namespace squall

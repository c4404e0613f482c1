#include "engine/runtime/race.hpp"

#include <gtest/gtest.h>

#include <exception>
#include <optional>
#include <stdexcept>
#include <vector>

#include "engine/runtime/cancellable_sleep.hpp"
#include "sim/event_loop.hpp"
#include "tests/engine/timeline.hpp"

namespace squall {
namespace {

// What a child returns: its tag, whether it was cut short, and when it returned.
struct Leg {
  int tag = 0;
  bool cancelled = false;
  TimePoint at = -1;
};

// A child that works for `work` of virtual time, observing its token.
Task<Leg> worker(EventLoop& loop, int tag, Nanos work, CancellationToken token) {
  const Wake wake = co_await sleep_until(loop, add_saturating(loop.now(), work), token);
  co_return Leg{tag, wake == Wake::cancelled, loop.now()};
}

// A child that ignores its token: it always works its full time.
Task<Leg> stubborn(EventLoop& loop, int tag, Nanos work) {
  co_await sleep_until(loop, add_saturating(loop.now(), work));
  co_return Leg{tag, false, loop.now()};
}

// Runs race() to completion from a spawned task and records its result and end time.
struct Finished {
  std::optional<RaceResult<Leg>> result;
  TimePoint at = -1;
};

template <class A, class B>
Task<void> run_race(EventLoop& loop, CancellationToken parent, A a, B b, Finished& out) {
  out.result = co_await race(parent, std::move(a), std::move(b));
  out.at = loop.now();
}

TEST(RaceTest, FasterChildWinsAndTheLoserIsCancelledAtTheWinnersTime) {
  // Child 0 works 100 ms, child 1 300 ms. At 100 ms child 0 finishes and cancels child 1,
  // whose sleep resumes at 100 ms; the race completes then. The 300 ms timer is removed.
  EventLoop loop;
  Finished f;
  std::exception_ptr error;
  spawn(run_race(
            loop, {}, [&](CancellationToken t) { return worker(loop, 0, 100 * kMillisecond, t); },
            [&](CancellationToken t) { return worker(loop, 1, 300 * kMillisecond, t); }, f),
        &error);
  loop.run();
  ASSERT_FALSE(error);
  ASSERT_TRUE(f.result);
  EXPECT_EQ(f.at, 100 * kMillisecond);
  EXPECT_EQ(f.result->winner, 0U);
  EXPECT_EQ(f.result->won.tag, 0);
  EXPECT_FALSE(f.result->won.cancelled);
  EXPECT_EQ(f.result->lost.tag, 1);
  EXPECT_TRUE(f.result->lost.cancelled);
  EXPECT_EQ(f.result->lost.at, 100 * kMillisecond);
  EXPECT_EQ(loop.now(), 100 * kMillisecond);  // nothing ran at 300 ms
  EXPECT_TRUE(loop.empty());
}

TEST(RaceTest, SecondChildWinsWhenItIsFaster) {
  EventLoop loop;
  Finished f;
  std::exception_ptr error;
  spawn(run_race(
            loop, {}, [&](CancellationToken t) { return worker(loop, 0, 2 * kSecond, t); },
            [&](CancellationToken t) { return worker(loop, 1, 700 * kMillisecond, t); }, f),
        &error);
  loop.run();
  ASSERT_TRUE(f.result);
  EXPECT_EQ(f.result->winner, 1U);
  EXPECT_EQ(f.result->won.tag, 1);
  EXPECT_EQ(f.result->lost.tag, 0);
  EXPECT_TRUE(f.result->lost.cancelled);
  EXPECT_EQ(f.at, 700 * kMillisecond);
}

TEST(RaceTest, RaceCompletesOnlyWhenTheLoserHasFinished) {
  // The loser ignores its token and works until 300 ms: the winner's value waits for it,
  // so no child outlives the race.
  EventLoop loop;
  Finished f;
  std::exception_ptr error;
  spawn(run_race(
            loop, {}, [&](CancellationToken t) { return worker(loop, 0, 100 * kMillisecond, t); },
            [&](CancellationToken) { return stubborn(loop, 1, 300 * kMillisecond); }, f),
        &error);
  loop.run();
  ASSERT_TRUE(f.result);
  EXPECT_EQ(f.result->winner, 0U);
  EXPECT_EQ(f.result->won.at, 100 * kMillisecond);
  EXPECT_EQ(f.result->lost.at, 300 * kMillisecond);
  EXPECT_EQ(f.at, 300 * kMillisecond);
}

TEST(RaceTest, ParentCancellationCancelsBothChildren) {
  // The parent fires at 50 ms. Child 0's source registered on the parent first, so its
  // sleep is rescheduled first and it finishes first: it is the winner, both cancelled.
  EventLoop loop;
  CancellationSource parent;
  Finished f;
  std::exception_ptr error;
  spawn(run_race(
            loop, parent.token(), [&](CancellationToken t) { return worker(loop, 0, kSecond, t); },
            [&](CancellationToken t) { return worker(loop, 1, 2 * kSecond, t); }, f),
        &error);
  test::at(
      loop, 50 * kMillisecond, [&] { parent.cancel(); }, &error);
  loop.run();
  ASSERT_TRUE(f.result);
  EXPECT_EQ(f.at, 50 * kMillisecond);
  EXPECT_EQ(f.result->winner, 0U);
  EXPECT_TRUE(f.result->won.cancelled);
  EXPECT_TRUE(f.result->lost.cancelled);
  EXPECT_FALSE(parent.has_callbacks());  // the children's sources unlinked when the race ended
}

Task<Leg> immediate(int tag) { co_return Leg{tag, false, 0}; }

TEST(RaceTest, ChildThatFinishesWithoutSuspendingWinsBeforeTheSecondStarts) {
  // Child 0 returns at once, so child 1's factory is called with a token already
  // cancelled, and its sleep returns without suspending: the race ends at time 0 without
  // a single event.
  EventLoop loop;
  Finished f;
  bool second_saw_cancelled = false;
  std::exception_ptr error;
  spawn(run_race(
            loop, {}, [](CancellationToken) { return immediate(0); },
            [&](CancellationToken t) {
              second_saw_cancelled = t.cancelled();
              return worker(loop, 1, kSecond, t);
            },
            f),
        &error);
  ASSERT_TRUE(f.result);
  EXPECT_EQ(f.result->winner, 0U);
  EXPECT_TRUE(second_saw_cancelled);
  EXPECT_TRUE(f.result->lost.cancelled);
  EXPECT_EQ(f.at, 0);
  EXPECT_EQ(loop.events_run(), 0U);
  EXPECT_TRUE(loop.empty());
}

TEST(RaceTest, BothChildrenSynchronousCompletesInsideTheFirstAwait) {
  EventLoop loop;
  Finished f;
  std::exception_ptr error;
  spawn(
      run_race(
          loop, {}, [](CancellationToken) { return immediate(0); }, [](CancellationToken) { return immediate(1); }, f),
      &error);
  ASSERT_TRUE(f.result);  // no event was needed
  EXPECT_EQ(f.result->winner, 0U);
  EXPECT_EQ(f.result->lost.tag, 1);
  EXPECT_EQ(loop.events_run(), 0U);
}

Task<Leg> thrower(EventLoop& loop, Nanos after) {
  co_await sleep_until(loop, add_saturating(loop.now(), after));
  throw std::logic_error("child bug");
}

Task<void> race_expecting_throw(EventLoop& loop, std::vector<Leg>& loser_log, TimePoint& caught_at) {
  try {
    co_await race(
        CancellationToken{}, [&](CancellationToken) { return thrower(loop, 100 * kMillisecond); },
        [&](CancellationToken t) -> Task<Leg> {
          Leg leg = co_await worker(loop, 1, kSecond, t);
          loser_log.push_back(leg);
          co_return leg;
        });
  } catch (const std::logic_error&) {
    caught_at = loop.now();
  }
}

TEST(RaceTest, ExceptionIsRethrownAfterTheOtherChildIsCancelledAndDone) {
  EventLoop loop;
  std::vector<Leg> loser_log;
  TimePoint caught_at = -1;
  std::exception_ptr error;
  spawn(race_expecting_throw(loop, loser_log, caught_at), &error);
  loop.run();
  EXPECT_FALSE(error);
  EXPECT_EQ(caught_at, 100 * kMillisecond);
  ASSERT_EQ(loser_log.size(), 1U);
  EXPECT_TRUE(loser_log[0].cancelled);
  EXPECT_EQ(loser_log[0].at, 100 * kMillisecond);
}

}  // namespace
}  // namespace squall

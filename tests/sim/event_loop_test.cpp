#include "sim/event_loop.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <coroutine>
#include <cstdint>
#include <exception>
#include <utility>
#include <vector>

#include "engine/runtime/rng.hpp"
#include "engine/runtime/task.hpp"

namespace squall {
namespace {

struct Woken {
  int tag = 0;
  TimePoint at = 0;
  bool operator==(const Woken&) const = default;
};

// Sleeps until `at`, then logs its tag and the time it woke at.
Task<void> sleeper(EventLoop& loop, TimePoint at, int tag, std::vector<Woken>& log) {
  co_await sleep_until(loop, at);
  log.push_back({tag, loop.now()});
}

TEST(EventLoopTest, RunsByTimeThenBySchedulingOrder) {
  EventLoop loop;
  std::vector<Woken> log;
  std::exception_ptr error;
  spawn(sleeper(loop, 30, 1, log), &error);
  spawn(sleeper(loop, 10, 2, log), &error);
  spawn(sleeper(loop, 30, 3, log), &error);
  spawn(sleeper(loop, 10, 4, log), &error);
  EXPECT_EQ(loop.pending(), 4U);
  EXPECT_EQ(loop.run(), 4U);
  EXPECT_EQ(log, (std::vector<Woken>{{2, 10}, {4, 10}, {1, 30}, {3, 30}}));
  EXPECT_TRUE(loop.empty());
  EXPECT_EQ(loop.events_run(), 4U);
  EXPECT_FALSE(error);
}

TEST(EventLoopTest, ThePastMeansNowInOrder) {
  EventLoop loop;
  std::vector<Woken> log;
  std::exception_ptr error;
  spawn(sleeper(loop, 50, 1, log), &error);
  loop.run();
  // At t = 50 both wake times have passed: they run at 50, in the order scheduled.
  spawn(sleeper(loop, 20, 2, log), &error);
  spawn(sleeper(loop, 0, 3, log), &error);
  loop.run();
  EXPECT_EQ(log, (std::vector<Woken>{{1, 50}, {2, 50}, {3, 50}}));
}

TEST(EventLoopTest, ManyEventsComeOutSortedByTimeAndSequence) {
  // 5000 wake times drawn from 0..99 ns, so most times are shared by about 50 sleepers;
  // the expected order is the stable sort of the spawn order by time.
  EventLoop loop;
  std::vector<Woken> log;
  std::vector<Woken> expected;
  std::exception_ptr error;
  Xoshiro256 rng(7);
  for (int tag = 0; tag < 5000; ++tag) {
    const TimePoint at = rng.uniform_range(0, 99);
    expected.push_back({tag, at});
    spawn(sleeper(loop, at, tag, log), &error);
  }
  std::stable_sort(expected.begin(), expected.end(), [](const Woken& a, const Woken& b) { return a.at < b.at; });
  EXPECT_EQ(loop.run(), 5000U);
  EXPECT_EQ(log, expected);
}

TEST(EventLoopTest, CancelledEventsDoNotRunAndCancellingTwiceIsHarmless) {
  EventLoop loop;
  const TimerId first = loop.schedule_at(10, std::noop_coroutine());
  const TimerId second = loop.schedule_at(20, std::noop_coroutine());
  loop.schedule_at(30, std::noop_coroutine());
  loop.cancel(first);
  loop.cancel(first);
  EXPECT_EQ(loop.pending(), 2U);
  EXPECT_EQ(loop.run(1), 1U);  // the cancelled event at 10 is skipped, not counted
  EXPECT_EQ(loop.now(), 20);
  loop.cancel(second);  // already ran: a no-op
  loop.cancel(999);     // never scheduled: a no-op
  EXPECT_EQ(loop.pending(), 1U);
  EXPECT_EQ(loop.run(), 1U);
  EXPECT_EQ(loop.now(), 30);
  EXPECT_TRUE(loop.empty());
}

TEST(EventLoopTest, RunUntilStopsAtItsTimeInclusiveAndAdvancesTheClock) {
  EventLoop loop;
  loop.schedule_at(10, std::noop_coroutine());
  loop.schedule_at(20, std::noop_coroutine());
  loop.schedule_at(40, std::noop_coroutine());
  EXPECT_EQ(loop.run_until(20), 2U);  // 10 and 20: the bound is inclusive
  EXPECT_EQ(loop.now(), 20);
  EXPECT_EQ(loop.run_until(35), 0U);
  EXPECT_EQ(loop.now(), 35);  // no event, but the clock moves to the bound
  EXPECT_EQ(loop.pending(), 1U);
}

TEST(EventLoopTest, RunUntilLooksPastACancelledEarliestEvent) {
  // The cancelled event at 10 hides the one at 50, which must stay queued, in place.
  EventLoop loop;
  const TimerId hidden = loop.schedule_at(10, std::noop_coroutine());
  loop.schedule_at(50, std::noop_coroutine());
  loop.cancel(hidden);
  EXPECT_EQ(loop.run_until(30), 0U);
  EXPECT_EQ(loop.now(), 30);
  EXPECT_EQ(loop.pending(), 1U);
  EXPECT_EQ(loop.run(), 1U);
  EXPECT_EQ(loop.now(), 50);
}

}  // namespace
}  // namespace squall

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

TEST(EventLoopTest, EventsScheduledAfterRunUntilDroppedCancelledOnesPastItsBoundKeepTheirOrder) {
  // run_until(30) runs 10, then drops the cancelled 40 on its way to 50, past the bound; the
  // queue (sim/event_queue.hpp) has then taken out a time later than the clock, and events
  // scheduled at 30 to 45 must still run before 50, in (time, scheduling order).
  EventLoop loop;
  std::vector<Woken> log;
  std::exception_ptr error;
  spawn(sleeper(loop, 10, 1, log), &error);
  const TimerId cancelled = loop.schedule_at(40, std::noop_coroutine());
  spawn(sleeper(loop, 50, 2, log), &error);
  loop.cancel(cancelled);
  EXPECT_EQ(loop.run_until(30), 1U);
  EXPECT_EQ(loop.now(), 30);
  spawn(sleeper(loop, 45, 3, log), &error);
  spawn(sleeper(loop, 30, 4, log), &error);
  spawn(sleeper(loop, 45, 5, log), &error);
  spawn(sleeper(loop, 20, 6, log), &error);  // the past: now, after 4
  EXPECT_EQ(loop.run(), 5U);
  EXPECT_EQ(log, (std::vector<Woken>{{1, 10}, {4, 30}, {6, 30}, {3, 45}, {5, 45}, {2, 50}}));
  EXPECT_FALSE(error);
}

// Set when the coroutine is resumed: an event that must (or must not) run. A coroutine
// whose event was cancelled is never resumed; the test's SpawnScope destroys it.
struct Flag {
  bool set = false;
};
Task<void> raise_flag_at(EventLoop& loop, TimePoint at, Flag& flag, TimerId& id) {
  struct Capture {
    EventLoop& loop;
    TimePoint at;
    TimerId& id;
    Flag& flag;
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h) { id = loop.schedule_at(at, h); }
    void await_resume() const noexcept {}
  };
  co_await Capture{loop, at, id, flag};
  flag.set = true;
}

TEST(EventLoopTest, CancelledPendingEventNeverResumes) {
  EventLoop loop;
  Flag flag;
  TimerId id = 0;
  SpawnScope scope;
  spawn(raise_flag_at(loop, 10, flag, id), scope);
  EXPECT_EQ(loop.pending(), 1U);
  loop.cancel(id);
  EXPECT_EQ(loop.pending(), 0U);
  EXPECT_TRUE(loop.empty());
  EXPECT_EQ(loop.run(), 0U);
  EXPECT_FALSE(flag.set);
  EXPECT_EQ(loop.events_run(), 0U);
}

TEST(EventLoopTest, CancellingARunIdNeverHitsTheEventThatReusedItsSlot) {
  // The first event's slot is recycled for the second: the stale id must not cancel it.
  EventLoop loop;
  const TimerId ran = loop.schedule_at(10, std::noop_coroutine());
  EXPECT_EQ(loop.run(), 1U);
  Flag flag;
  TimerId id = 0;
  SpawnScope scope;
  spawn(raise_flag_at(loop, 20, flag, id), scope);
  EXPECT_NE(id, ran);
  loop.cancel(ran);
  EXPECT_EQ(loop.pending(), 1U);
  EXPECT_EQ(loop.run(), 1U);
  EXPECT_TRUE(flag.set);
}

TEST(EventLoopTest, StaleIdOfACancelledEventNeverHitsItsSlotsNextEvent) {
  EventLoop loop;
  const TimerId cancelled = loop.schedule_at(10, std::noop_coroutine());
  loop.cancel(cancelled);
  EXPECT_EQ(loop.run(), 0U);  // drops the tombstone and frees the slot
  const TimerId next = loop.schedule_at(20, std::noop_coroutine());
  EXPECT_NE(next, cancelled);
  loop.cancel(cancelled);
  EXPECT_EQ(loop.pending(), 1U);
  EXPECT_EQ(loop.run(), 1U);
  EXPECT_EQ(loop.now(), 20);
}

TEST(EventLoopTest, RunUntilRunsPastACancelledEarliestEventWithinTheBound) {
  // 10 (cancelled), 20 and 30 are queued; run_until(25) runs only 20.
  EventLoop loop;
  const TimerId earliest = loop.schedule_at(10, std::noop_coroutine());
  loop.schedule_at(20, std::noop_coroutine());
  loop.schedule_at(30, std::noop_coroutine());
  loop.cancel(earliest);
  EXPECT_EQ(loop.run_until(25), 1U);
  EXPECT_EQ(loop.now(), 25);
  EXPECT_EQ(loop.pending(), 1U);
}

TEST(EventLoopTest, AnEventMayCancelALaterOneAtTheSameTime) {
  // Two events at 10: the first cancels the second, which then never runs.
  EventLoop loop;
  Flag second;
  TimerId second_id = 0;
  std::exception_ptr error;
  bool first_ran = false;
  const auto canceller = [](EventLoop& l, TimerId& victim, bool& ran) -> Task<void> {
    co_await sleep_until(l, 10);
    l.cancel(victim);
    ran = true;
  };
  spawn(canceller(loop, second_id, first_ran), &error);
  SpawnScope scope;
  spawn(raise_flag_at(loop, 10, second, second_id), scope);
  EXPECT_EQ(loop.run(), 1U);
  EXPECT_TRUE(first_ran);
  EXPECT_FALSE(second.set);
}

TEST(EventLoopTest, ManyCancellationsCompactTheQueueWithoutChangingTheOrder) {
  // 6000 events over times 0..199 ns. Those whose tag is a multiple of 3 are sleepers that
  // log; the other 4000 are cancelled before the run, so tombstones become most of the
  // queue and it is filtered once they pass two thirds of it (live < half the entries). The
  // survivors must run in (time, scheduling order): the stable sort of their spawns by
  // time, and none of the cancelled ones may run (the count would show it).
  EventLoop loop;
  std::vector<Woken> log;
  std::vector<Woken> expected;
  std::vector<TimerId> cancelled;
  std::exception_ptr error;
  Xoshiro256 rng(11);
  for (int tag = 0; tag < 6000; ++tag) {
    const TimePoint at = rng.uniform_range(0, 199);
    if (tag % 3 == 0) {
      spawn(sleeper(loop, at, tag, log), &error);
      expected.push_back({tag, at});
    } else {
      cancelled.push_back(loop.schedule_at(at, std::noop_coroutine()));
    }
  }
  for (const TimerId id : cancelled) loop.cancel(id);
  EXPECT_EQ(loop.pending(), 2000U);
  std::stable_sort(expected.begin(), expected.end(), [](const Woken& a, const Woken& b) { return a.at < b.at; });
  EXPECT_EQ(loop.run(), 2000U);
  EXPECT_EQ(log, expected);
  for (const TimerId id : cancelled) loop.cancel(id);  // all stale: no-ops
  EXPECT_TRUE(loop.empty());
  EXPECT_FALSE(error);
}

// Sleeps until `first`, logs, then sleeps until `second` and logs again (tag + 10000):
// the second wait is scheduled while the loop runs, after the sequence was renumbered.
Task<void> twice(EventLoop& loop, TimePoint first, TimePoint second, int tag, std::vector<Woken>& log) {
  co_await sleep_until(loop, first);
  log.push_back({tag, loop.now()});
  co_await sleep_until(loop, second);
  log.push_back({tag + 10000, loop.now()});
}

TEST(EventLoopTest, TheSequenceRenumbersBeforeItWrapsWithoutChangingTheOrder) {
  // The 32-bit scheduling sequence starts 1500 short of its end, so it is renumbered while
  // 3000 events are being scheduled, a third of which are then cancelled: the order must be
  // (time, scheduling order) throughout, as if the sequence were unbounded. Times 0..49 ns, so every time is shared by
  // dozens of events on both sides of the renumbering; the second waits, scheduled during the run, must follow every
  // earlier-scheduled event at their time.
  EventLoop loop(UINT32_MAX - 1500);
  std::vector<Woken> log;
  std::vector<std::pair<std::uint64_t, Woken>> expected;  // (scheduling order, wake)
  std::vector<TimerId> cancelled;
  std::exception_ptr error;
  Xoshiro256 rng(13);
  std::uint64_t order = 0;
  std::vector<std::pair<int, TimePoint>> second_waits;
  for (int tag = 0; tag < 3000; ++tag) {
    const TimePoint at = rng.uniform_range(0, 49);
    if (tag % 3 == 1) {
      cancelled.push_back(loop.schedule_at(at, std::noop_coroutine()));
      ++order;
      continue;
    }
    const TimePoint again = at + rng.uniform_range(0, 49);
    spawn(twice(loop, at, again, tag, log), &error);
    expected.push_back({order++, {tag, at}});
    second_waits.push_back({tag, again});
  }
  for (const TimerId id : cancelled) loop.cancel(id);
  EXPECT_EQ(loop.pending(), 2000U);
  // The second waits are scheduled in the order the first ones run: (time, tag order).
  std::vector<std::pair<std::uint64_t, Woken>> firsts = expected;
  std::stable_sort(firsts.begin(), firsts.end(),
                   [](const auto& a, const auto& b) { return a.second.at < b.second.at; });
  for (const auto& first : firsts) {
    const Woken& woken = first.second;
    const auto it =
        std::find_if(second_waits.begin(), second_waits.end(), [&](const auto& w) { return w.first == woken.tag; });
    expected.push_back({order++, {woken.tag + 10000, it->second}});
  }
  std::stable_sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) {
    return a.second.at != b.second.at ? a.second.at < b.second.at : a.first < b.first;
  });
  std::vector<Woken> expected_log;
  for (const auto& [unused, woken] : expected) expected_log.push_back(woken);
  EXPECT_EQ(loop.run(), 4000U);
  EXPECT_EQ(log, expected_log);
  EXPECT_TRUE(loop.empty());
  EXPECT_FALSE(error);
}

}  // namespace
}  // namespace squall

namespace squall {
namespace {

// A bare coroutine the test owns (its frame comes from the global heap, not the frame
// pool), so that the test can destroy it after the loop gave up on it.
struct OwnedCoroutine {
  struct promise_type {
    OwnedCoroutine get_return_object() { return {std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> handle;
};

// Reschedules itself at the same instant forever: virtual time never advances.
OwnedCoroutine spinner(EventLoop& loop) {
  for (;;) co_await sleep_until(loop, loop.now());
}

TEST(EventLoopStallTest, AModelThatNeverLetsTimeAdvanceIsStoppedNamingItsComponent) {
  EventLoop loop;
  const OwnedCoroutine spin = spinner(loop);
  loop.set_component(7);
  loop.schedule_at(0, spin.handle);  // its first step, as component 7
  loop.set_component(0);
  try {
    loop.run();
    ADD_FAILURE() << "the stall was not detected";
  } catch (const SimulationStalled& stall) {
    EXPECT_EQ(stall.at(), 0);
    EXPECT_EQ(stall.component(), 7u);  // inherited by every event the spinner scheduled
  }
  // Exactly the bound: the first event at the instant and kMaxEventsPerInstant - 1 more ran.
  EXPECT_EQ(loop.events_run(), EventLoop::kMaxEventsPerInstant - 1);
  spin.handle.destroy();
}

TEST(EventLoopStallTest, ManyEventsAtOneInstantBelowTheBoundAreFine) {
  EventLoop loop;
  std::vector<Woken> log;
  for (int i = 0; i < 100'000; ++i) spawn(sleeper(loop, kSecond, i, log), nullptr);
  loop.run();
  EXPECT_EQ(log.size(), 100'000u);
}

}  // namespace
}  // namespace squall

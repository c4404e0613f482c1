#include "engine/runtime/wait_queue.hpp"

#include <gtest/gtest.h>

#include <exception>
#include <vector>

#include "engine/runtime/task.hpp"
#include "sim/event_loop.hpp"
#include "tests/engine/timeline.hpp"

namespace squall {
namespace {

struct Done {
  int tag = 0;
  WaitResult result = WaitResult::admitted;
  TimePoint at = -1;
  bool operator==(const Done&) const = default;
};

// Arrives at `arrive` (at once, inside spawn(), when that is now), waits on `queue`
// until `deadline`, and logs how and when it ended.
Task<void> waiter(EventLoop& loop, WaitQueue& queue, int tag, TimePoint arrive, TimePoint deadline,
                  CancellationToken token, std::vector<Done>& log) {
  if (arrive > loop.now()) co_await sleep_until(loop, arrive);
  const WaitResult r = co_await queue.wait(deadline, token);
  log.push_back({tag, r, loop.now()});
}

constexpr Nanos ms = kMillisecond;

TEST(WaitQueueTest, AdmitsWaitersInArrivalOrder) {
  // Arrivals at 0, 10, 20 ms (tags 3, 1, 2: arrival order, not tag order, decides).
  // notify_one at 100 and 200 ms admits the first two arrivals; notify_all at 300 ms the
  // last. Each admitted waiter resumes at the time of its notify.
  EventLoop loop;
  WaitQueue queue(loop, loop, 10);
  std::vector<Done> log;
  std::exception_ptr error;
  spawn(waiter(loop, queue, 3, 0, kSecond, {}, log), &error);
  spawn(waiter(loop, queue, 1, 10 * ms, kSecond, {}, log), &error);
  spawn(waiter(loop, queue, 2, 20 * ms, kSecond, {}, log), &error);
  std::vector<bool> notified;
  test::at(
      loop, 100 * ms, [&] { notified.push_back(queue.notify_one()); }, &error);
  test::at(
      loop, 200 * ms, [&] { notified.push_back(queue.notify_one()); }, &error);
  test::at(
      loop, 300 * ms, [&] { EXPECT_EQ(queue.notify_all(), 1U); }, &error);
  test::at(
      loop, 400 * ms, [&] { notified.push_back(queue.notify_one()); }, &error);
  loop.run();
  EXPECT_FALSE(error);
  EXPECT_EQ(log, (std::vector<Done>{{3, WaitResult::admitted, 100 * ms},
                                    {1, WaitResult::admitted, 200 * ms},
                                    {2, WaitResult::admitted, 300 * ms}}));
  EXPECT_EQ(notified, (std::vector<bool>{true, true, false}));  // nobody left at 400 ms
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(loop.now(), 400 * ms);  // the admitted waiters' deadline timers were removed
}

TEST(WaitQueueTest, WaiterTimesOutAtItsDeadlineAndLeavesTheQueue) {
  // A (deadline 50 ms) and B (deadline 1 s) arrive at 0. A times out at 50 ms; the
  // notify at 100 ms then admits B, the oldest waiter still queued.
  EventLoop loop;
  WaitQueue queue(loop, loop, 10);
  std::vector<Done> log;
  std::exception_ptr error;
  spawn(waiter(loop, queue, 1, 0, 50 * ms, {}, log), &error);
  spawn(waiter(loop, queue, 2, 0, kSecond, {}, log), &error);
  EXPECT_EQ(queue.size(), 2U);
  std::size_t size_at_60 = 0;
  test::at(
      loop, 60 * ms, [&] { size_at_60 = queue.size(); }, &error);
  test::at(
      loop, 100 * ms, [&] { queue.notify_one(); }, &error);
  loop.run();
  EXPECT_EQ(size_at_60, 1U);
  EXPECT_EQ(log, (std::vector<Done>{{1, WaitResult::timed_out, 50 * ms}, {2, WaitResult::admitted, 100 * ms}}));
  EXPECT_EQ(loop.now(), 100 * ms);
}

TEST(WaitQueueTest, CancelledWaiterLeavesAtTheCancelTime) {
  // A's token fires at 30 ms: A resumes then as cancelled; the notify at 100 ms admits B.
  EventLoop loop;
  WaitQueue queue(loop, loop, 10);
  CancellationSource source;
  std::vector<Done> log;
  std::exception_ptr error;
  spawn(waiter(loop, queue, 1, 0, kSecond, source.token(), log), &error);
  spawn(waiter(loop, queue, 2, 0, kSecond, {}, log), &error);
  test::at(
      loop, 30 * ms, [&] { source.cancel(); }, &error);
  test::at(
      loop, 100 * ms, [&] { queue.notify_one(); }, &error);
  loop.run();
  EXPECT_EQ(log, (std::vector<Done>{{1, WaitResult::cancelled, 30 * ms}, {2, WaitResult::admitted, 100 * ms}}));
  EXPECT_FALSE(source.has_callbacks());
}

TEST(WaitQueueTest, AdmissionIsFinalEvenIfTheTokenFiresBeforeTheWaiterResumes) {
  // At 10 ms one event admits A and then cancels A's token: A was already out of the
  // queue, so it reports admitted.
  EventLoop loop;
  WaitQueue queue(loop, loop, 10);
  CancellationSource source;
  std::vector<Done> log;
  std::exception_ptr error;
  spawn(waiter(loop, queue, 1, 0, kSecond, source.token(), log), &error);
  test::at(
      loop, 10 * ms,
      [&] {
        queue.notify_one();
        source.cancel();
      },
      &error);
  loop.run();
  EXPECT_EQ(log, (std::vector<Done>{{1, WaitResult::admitted, 10 * ms}}));
}

TEST(WaitQueueTest, FullQueueRejectsAtOnce) {
  // Two places: the third arrival at 0 is rejected without suspending.
  EventLoop loop;
  WaitQueue queue(loop, loop, 2);
  std::vector<Done> log;
  std::exception_ptr error;
  spawn(waiter(loop, queue, 1, 0, 100 * ms, {}, log), &error);
  spawn(waiter(loop, queue, 2, 0, 100 * ms, {}, log), &error);
  spawn(waiter(loop, queue, 3, 0, 100 * ms, {}, log), &error);
  loop.run();
  EXPECT_EQ(log, (std::vector<Done>{{3, WaitResult::rejected, 0},
                                    {1, WaitResult::timed_out, 100 * ms},
                                    {2, WaitResult::timed_out, 100 * ms}}));
}

TEST(WaitQueueTest, ZeroPlacesRejectsEveryWait) {
  EventLoop loop;
  WaitQueue queue(loop, loop, 0);
  std::vector<Done> log;
  std::exception_ptr error;
  spawn(waiter(loop, queue, 1, 0, kSecond, {}, log), &error);
  EXPECT_EQ(log, (std::vector<Done>{{1, WaitResult::rejected, 0}}));
  EXPECT_TRUE(loop.empty());
}

TEST(WaitQueueTest, CancelledTokenOrPassedDeadlineEndTheWaitAtOnce) {
  // Checked before the bound, in the order cancelled, timed out, rejected: on a queue with
  // no places, a cancelled token still reports cancelled and a passed deadline timed_out.
  EventLoop loop;
  WaitQueue queue(loop, loop, 0);
  CancellationSource source;
  source.cancel();
  std::vector<Done> log;
  std::exception_ptr error;
  spawn(waiter(loop, queue, 1, 0, kSecond, source.token(), log), &error);
  spawn(waiter(loop, queue, 2, 0, 0, {}, log), &error);
  EXPECT_EQ(log, (std::vector<Done>{{1, WaitResult::cancelled, 0}, {2, WaitResult::timed_out, 0}}));
  EXPECT_TRUE(loop.empty());
}

TEST(WaitQueueTest, NeverDeadlineSchedulesNoTimer) {
  EventLoop loop;
  WaitQueue queue(loop, loop, 4);
  std::vector<Done> log;
  std::exception_ptr error;
  spawn(waiter(loop, queue, 1, 0, kNever, {}, log), &error);
  EXPECT_EQ(queue.size(), 1U);
  EXPECT_TRUE(loop.empty());  // the waiter is queued without an event
  EXPECT_TRUE(queue.notify_one());
  EXPECT_EQ(loop.run(), 1U);
  EXPECT_EQ(log, (std::vector<Done>{{1, WaitResult::admitted, 0}}));
}

Task<void> holder(EventLoop& loop, WaitQueue& queue, int tag, std::vector<Done>& log) {
  co_await waiter(loop, queue, tag, 0, kSecond, {}, log);
}

TEST(WaitQueueTest, DestroyedWaiterLeavesTheQueueAndRemovesItsTimer) {
  EventLoop loop;
  WaitQueue queue(loop, loop, 4);
  std::vector<Done> log;
  std::exception_ptr error;
  {
    Task<void> task = holder(loop, queue, 1, log);
    task.await_suspend(std::noop_coroutine()).resume();  // arrives and queues
    EXPECT_EQ(queue.size(), 1U);
    EXPECT_EQ(loop.pending(), 1U);  // its deadline
  }
  EXPECT_TRUE(queue.empty());
  EXPECT_TRUE(loop.empty());
  spawn(waiter(loop, queue, 2, 0, kSecond, {}, log), &error);
  EXPECT_TRUE(queue.notify_one());  // the queue's links survived the removal
  loop.run();
  EXPECT_EQ(log, (std::vector<Done>{{2, WaitResult::admitted, 0}}));
}

}  // namespace
}  // namespace squall

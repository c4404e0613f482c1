// WaitQueue: a bounded FIFO of coroutines waiting to be admitted, each with a deadline
// and a cancellation token. Bulkheads, single-flight caches and provider capacity queue
// on it.
//
//   switch (co_await queue.wait(deadline, token)) {
//     case WaitResult::admitted:  ... // notify_one() chose this waiter
//     case WaitResult::timed_out: ... // the deadline came first
//     case WaitResult::cancelled: ... // the token fired first
//     case WaitResult::rejected:  ... // the queue was full
//   }
//
// The queue holds no permits of its own: it orders waiters, and the owner decides when
// one may go (a bulkhead calls notify_one() as it hands over a released slot, so a
// newcomer cannot overtake the queue). Semantics:
// - Waiters are admitted strictly in arrival order. notify_one() admits the oldest;
//   notify_all() admits every waiter present, oldest first.
// - An admitted, timed-out or cancelled waiter leaves the queue at once; it resumes from
//   the event loop at the current time (admitted or cancelled: after the events already
//   queued for that time) or at its deadline (timed out), never inside notify_one() or
//   CancellationSource::cancel().
// - wait() does not suspend, and returns at once, when its token is already cancelled
//   (cancelled), when its deadline is not after now (timed_out), or when `max_waiters`
//   are already queued (rejected), checked in that order. max_waiters = 0 rejects every
//   wait: a bulkhead without a queue.
// - A deadline of kNever schedules no timer.
// The waiter node lives in the awaiting coroutine's frame (the awaiter object), so a wait
// allocates nothing. A coroutine destroyed while it waits leaves the queue and removes its
// timer. The queue must outlive its waiters. Single-threaded, like the rest of the runtime.
#pragma once

#include <coroutine>
#include <cstddef>
#include <cstdint>

#include "engine/runtime/cancellation.hpp"
#include "engine/runtime/clock.hpp"
#include "engine/runtime/intrusive_list.hpp"

namespace squall {

enum class WaitResult : std::uint8_t {
  admitted,   // notify_one() or notify_all() let this waiter go
  timed_out,  // its deadline came while it was queued, or had passed when it arrived
  cancelled,  // its token fired while it was queued, or had fired when it arrived
  rejected,   // the queue was full when it arrived
};

class WaitQueue {
 public:
  class Waiter;

  // `max_waiters` bounds the queue's length. The clock and scheduler must outlive it.
  WaitQueue(Clock& clock, Scheduler& scheduler, std::size_t max_waiters)
      : clock_(clock), scheduler_(scheduler), max_waiters_(max_waiters) {}
  WaitQueue(const WaitQueue&) = delete;
  WaitQueue& operator=(const WaitQueue&) = delete;

  // An awaitable yielding WaitResult; see the file comment.
  Waiter wait(TimePoint deadline, CancellationToken token = {});
  // Admits the oldest waiter. False when none is queued.
  bool notify_one();
  // Admits every queued waiter, oldest first. Returns how many.
  std::size_t notify_all();

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  std::size_t max_waiters() const noexcept { return max_waiters_; }

 private:
  void push_back(Waiter& w) noexcept;
  void remove(Waiter& w) noexcept;

  Clock& clock_;
  Scheduler& scheduler_;
  std::size_t max_waiters_;
  std::size_t size_ = 0;
  IntrusiveList<Waiter> waiters_;  // in arrival order
};

class WaitQueue::Waiter : public IntrusiveListNode<Waiter> {
 public:
  Waiter(WaitQueue& queue, TimePoint deadline, CancellationToken token)
      : queue_(queue), deadline_(deadline), token_(token) {}
  ~Waiter();
  Waiter(const Waiter&) = delete;
  Waiter& operator=(const Waiter&) = delete;

  bool await_ready() noexcept;
  void await_suspend(std::coroutine_handle<> h);
  WaitResult await_resume() noexcept;

 private:
  friend class WaitQueue;
  static void on_cancel(void* self);
  // Leaves the queue with `result` and resumes from the event loop at the current time.
  void finish_now(WaitResult result);

  WaitQueue& queue_;
  TimePoint deadline_;
  CancellationToken token_;
  std::coroutine_handle<> handle_;
  TimerId timer_ = 0;
  bool timer_pending_ = false;
  // What await_resume reports; timed_out while queued, since the deadline's timer resumes
  // the coroutine directly.
  WaitResult result_ = WaitResult::timed_out;
  CancellationCallback callback_;
};

inline WaitQueue::Waiter WaitQueue::wait(TimePoint deadline, CancellationToken token) {
  return {*this, deadline, token};
}

}  // namespace squall

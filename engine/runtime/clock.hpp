// The time seams: Clock reads the time, Scheduler resumes work at a time point.
//
// Engine code reaches time only through these interfaces (DESIGN section 2, after
// FoundationDB's Net2/Sim2): the simulator implements them over virtual time
// (sim::EventLoop); live mode will implement them over Boost.Asio timers.
#pragma once

#include <coroutine>
#include <cstdint>

#include "engine/runtime/time.hpp"

namespace squall {

class Clock {
 public:
  virtual ~Clock() = default;
  // The current time; never decreases. A clock whose time is a value in memory (the
  // simulator's virtual time) is read inline through a pointer to it; any other through
  // read_now(). The engine reads the time about ten times per simulated task, and as a
  // virtual call that was 2% of a run (bench/README.md).
  TimePoint now() const { return time_ != nullptr ? *time_ : read_now(); }

 protected:
  Clock() = default;
  // A clock whose time is `*time`, which must outlive it.
  explicit Clock(const TimePoint* time) : time_(time) {}
  // The time of a clock constructed without a pointer to it.
  virtual TimePoint read_now() const = 0;

 private:
  const TimePoint* time_ = nullptr;
};

// Identifies one scheduled resumption, for cancel(). Ids are never reused within a run,
// so cancelling an id that already ran or was cancelled never hits another resumption.
using TimerId = std::uint64_t;

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // Resumes `handle` at time `at` (or at once, in order, if `at` is in the past).
  // Resumptions at equal times run in the order they were scheduled.
  virtual TimerId schedule_at(TimePoint at, std::coroutine_handle<> handle) = 0;
  // Cancels a resumption that has not run yet; cancelling one that ran is a no-op.
  // O(log n) or better (the simulator's is O(1)): every answered call cancels the
  // timer of its deadline. A wait cut short by a CancellationToken uses it, see
  // cancellable_sleep.hpp.
  virtual void cancel(TimerId id) = 0;
};

// Resumes `handle` at the current time, after the resumptions already queued for it: how
// a cancelled or admitted waiter is woken from the event loop rather than from inside the
// code that cancelled or admitted it. Time 0, the start of the run, is never in the future.
inline TimerId schedule_now(Scheduler& scheduler, std::coroutine_handle<> handle) {
  return scheduler.schedule_at(TimePoint{0}, handle);
}

// `co_await sleep_until(scheduler, t)` suspends the calling coroutine until time t.
class SleepUntil {
 public:
  SleepUntil(Scheduler& scheduler, TimePoint at) : scheduler_(scheduler), at_(at) {}
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) { scheduler_.schedule_at(at_, h); }
  void await_resume() const noexcept {}

 private:
  Scheduler& scheduler_;
  TimePoint at_;
};

inline SleepUntil sleep_until(Scheduler& scheduler, TimePoint at) { return {scheduler, at}; }
inline SleepUntil resume_after(Clock& clock, Scheduler& scheduler, Nanos d) {
  return {scheduler, add_saturating(clock.now(), d)};
}

}  // namespace squall

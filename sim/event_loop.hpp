// EventLoop: the simulator's virtual clock and event queue.
//
// Implements the engine's Clock and Scheduler seams over virtual time. Events are
// coroutine resumptions ordered by (time, insertion sequence), so ties never depend on
// addresses or hashing (DESIGN section 3). Single-threaded by design: one simulation, one
// thread.
//
// The queue is an implicit 4-ary min-heap in a vector (Johnson 1975; the d-ary heap that
// LaMarca and Ladner found fastest in "The influence of caches on the performance of
// heaps", 1996): half the depth of a binary heap, and a node's four children share a cache
// line or two, so a pop, the loop's commonest operation, touches fewer lines. Every
// simulated provider call costs two or three events, so the queue is on the hot path of
// every run (bench/README.md). Cancellation is lazy: a cancelled event stays in the heap
// and is skipped when popped.
#pragma once

#include <coroutine>
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "engine/runtime/clock.hpp"

namespace squall {

class EventLoop final : public Clock, public Scheduler {
 public:
  TimePoint now() const override { return now_; }
  TimerId schedule_at(TimePoint at, std::coroutine_handle<> handle) override;
  // O(pending events): it checks that the id is still queued, so that cancelling an event
  // that already ran records nothing.
  void cancel(TimerId id) override;

  // Runs events in order until none is left or `max_events` have run. Returns the number
  // of events run. Bounded so that a runaway model cannot hang the process.
  std::uint64_t run(std::uint64_t max_events = UINT64_MAX);
  // Runs events whose time is <= `until`, then sets the clock to `until` if it is later.
  std::uint64_t run_until(TimePoint until);

  bool empty() const { return heap_.size() == cancelled_.size(); }
  std::size_t pending() const { return heap_.size() - cancelled_.size(); }
  std::uint64_t events_run() const { return events_run_; }

 private:
  struct Event {
    TimePoint at;
    std::uint64_t seq;
    std::coroutine_handle<> handle;
  };
  static constexpr std::size_t kArity = 4;
  static bool earlier(const Event& a, const Event& b) { return a.at != b.at ? a.at < b.at : a.seq < b.seq; }

  void push(const Event& e);
  // Removes and returns the earliest event; the heap must not be empty.
  Event pop_earliest();
  // Pops the earliest event that is not cancelled; false when none is left.
  bool pop_next(Event& out);
  // Runs `e` as the current event.
  void resume(const Event& e);

  std::vector<Event> heap_;  // heap_[0] is the earliest; the children of i are 4i+1 .. 4i+4
  std::unordered_set<TimerId> cancelled_;  // ids still in the heap that must not run
  TimePoint now_ = 0;
  std::uint64_t next_seq_ = 0;
  std::uint64_t events_run_ = 0;
};

}  // namespace squall

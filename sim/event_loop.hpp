// EventLoop: the simulator's virtual clock and event queue.
//
// Implements the engine's Clock and Scheduler seams over virtual time. Events are
// coroutine resumptions ordered by (time, insertion sequence), so ties never depend on
// addresses or hashing (DESIGN section 3). The queue is a binary min-heap in a vector;
// cancellation is lazy: a cancelled event stays in the heap and is skipped when popped.
// Single-threaded by design: one simulation, one thread.
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
  // std::push_heap builds a max-heap; "later" is "less" so the earliest is on top.
  static bool later(const Event& a, const Event& b) {
    return a.at != b.at ? a.at > b.at : a.seq > b.seq;
  }
  bool pop_next(Event& out);

  std::vector<Event> heap_;
  std::unordered_set<TimerId> cancelled_;  // ids still in the heap that must not run
  TimePoint now_ = 0;
  std::uint64_t next_seq_ = 0;
  std::uint64_t events_run_ = 0;
};

}  // namespace squall

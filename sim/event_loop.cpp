#include "sim/event_loop.hpp"

#include <algorithm>

namespace squall {

TimerId EventLoop::schedule_at(TimePoint at, std::coroutine_handle<> handle) {
  const TimerId id = next_seq_++;
  heap_.push_back(Event{std::max(at, now_), id, handle});
  std::push_heap(heap_.begin(), heap_.end(), later);
  return id;
}

void EventLoop::cancel(TimerId id) {
  // Only ids that may still be queued are recorded, so the set stays bounded by the heap.
  if (id >= next_seq_) return;
  const bool queued = std::any_of(heap_.begin(), heap_.end(), [id](const Event& e) { return e.seq == id; });
  if (queued) cancelled_.insert(id);
}

bool EventLoop::pop_next(Event& out) {
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    out = heap_.back();
    heap_.pop_back();
    if (!cancelled_.empty() && cancelled_.erase(out.seq) > 0) continue;
    return true;
  }
  return false;
}

std::uint64_t EventLoop::run(std::uint64_t max_events) {
  std::uint64_t ran = 0;
  Event e{};
  while (ran < max_events && pop_next(e)) {
    now_ = e.at;
    ++ran;
    ++events_run_;
    e.handle.resume();
  }
  return ran;
}

std::uint64_t EventLoop::run_until(TimePoint until) {
  std::uint64_t ran = 0;
  while (!heap_.empty()) {
    // Skip cancelled events at the top without running anything past `until`.
    const Event& top = heap_.front();
    if (top.at > until) break;
    Event e{};
    if (!pop_next(e)) break;
    if (e.at > until) {  // a cancelled event hid a later one: put it back
      heap_.push_back(e);
      std::push_heap(heap_.begin(), heap_.end(), later);
      break;
    }
    now_ = e.at;
    ++ran;
    ++events_run_;
    e.handle.resume();
  }
  now_ = std::max(now_, until);
  return ran;
}

}  // namespace squall

#include "sim/event_loop.hpp"

#include <algorithm>

namespace squall {

void EventLoop::push(const Event& e) {
  // Sift up: move later parents down into the hole until e's place is found.
  std::size_t hole = heap_.size();
  heap_.push_back(e);
  while (hole > 0) {
    const std::size_t parent = (hole - 1) / kArity;
    if (!earlier(e, heap_[parent])) break;
    heap_[hole] = heap_[parent];
    hole = parent;
  }
  heap_[hole] = e;
}

EventLoop::Event EventLoop::pop_earliest() {
  const Event earliest = heap_.front();
  const Event last = heap_.back();
  heap_.pop_back();
  const std::size_t n = heap_.size();
  if (n == 0) return earliest;
  // Sift down: move the earliest child up into the hole until `last` fits there.
  std::size_t hole = 0;
  for (;;) {
    const std::size_t first = kArity * hole + 1;
    if (first >= n) break;
    const std::size_t end = std::min(first + kArity, n);
    std::size_t child = first;
    for (std::size_t c = first + 1; c < end; ++c) {
      if (earlier(heap_[c], heap_[child])) child = c;
    }
    if (!earlier(heap_[child], last)) break;
    heap_[hole] = heap_[child];
    hole = child;
  }
  heap_[hole] = last;
  return earliest;
}

TimerId EventLoop::schedule_at(TimePoint at, std::coroutine_handle<> handle) {
  const TimerId id = next_seq_++;
  push(Event{std::max(at, now_), id, handle});
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
    out = pop_earliest();
    if (!cancelled_.empty() && cancelled_.erase(out.seq) > 0) continue;
    return true;
  }
  return false;
}

void EventLoop::resume(const Event& e) {
  now_ = e.at;
  ++events_run_;
  e.handle.resume();
}

std::uint64_t EventLoop::run(std::uint64_t max_events) {
  std::uint64_t ran = 0;
  Event e{};
  while (ran < max_events && pop_next(e)) {
    ++ran;
    resume(e);
  }
  return ran;
}

std::uint64_t EventLoop::run_until(TimePoint until) {
  std::uint64_t ran = 0;
  Event e{};
  // The earliest event may be a cancelled one: pop_next skips it, and an event it finds
  // past `until` goes back (with its sequence number, so its place is unchanged).
  while (!heap_.empty() && heap_.front().at <= until && pop_next(e)) {
    if (e.at > until) {
      push(e);
      break;
    }
    ++ran;
    resume(e);
  }
  now_ = std::max(now_, until);
  return ran;
}

}  // namespace squall

#include "sim/event_loop.hpp"

#include <algorithm>
#include <cassert>

namespace squall {
namespace {

// A TimerId is the slot's generation in the high half and the slot index in the low half.
TimerId make_id(std::uint32_t slot, std::uint32_t generation) {
  return (static_cast<TimerId>(generation) << 32) | slot;
}
std::uint32_t slot_of(TimerId id) { return static_cast<std::uint32_t>(id); }
std::uint32_t generation_of(TimerId id) { return static_cast<std::uint32_t>(id >> 32); }

}  // namespace

SimulationStalled::SimulationStalled(TimePoint at, ComponentId component)
    : std::runtime_error("virtual time stopped advancing"), at_(at), component_(component) {}

std::uint32_t EventLoop::take_slot() {
  if (free_head_ != kNoSlot) {
    const std::uint32_t slot = free_head_;
    free_head_ = slots_[slot].next_free;
    return slot;
  }
  assert(slots_.size() < kNoSlot && "more than 2^32 - 1 events queued at once");
  slots_.emplace_back();
  return static_cast<std::uint32_t>(slots_.size() - 1);
}

void EventLoop::free_slot(std::uint32_t slot) {
  Slot& s = slots_[slot];
  s.handle = nullptr;
  // A generation that wrapped to 0 would hand out an id that was issued before; the slot
  // is retired instead (16 bytes after 2^32 uses of one slot), so ids are never reused.
  if (s.generation == 0) return;
  s.next_free = free_head_;
  free_head_ = slot;
}

TimerId EventLoop::schedule_at(TimePoint at, std::coroutine_handle<> handle) {
  assert(handle && "a null handle would read as a cancelled event");
  // The common case without a call, so that no register is saved (bench/README.md): a
  // recycled slot, a sequence number short of renumbering, an append into storage the
  // event's bucket has. Anything else is schedule_slow's, the same steps with calls.
  if (free_head_ != kNoSlot && next_seq_ != kMaxSeq) [[likely]] {
    const std::uint32_t slot = free_head_;
    if (queue_.try_push(Event{.seq_slot = Event::pack(next_seq_, slot), .at = std::max(at, now_)})) [[likely]] {
      Slot& s = slots_[slot];
      free_head_ = s.next_free;
      s.handle = handle;
      s.component = component_;
      ++next_seq_;
      ++live_;
      return make_id(slot, s.generation);
    }
  }
  return schedule_slow(at, handle);
}

TimerId EventLoop::schedule_slow(TimePoint at, std::coroutine_handle<> handle) {
  const std::uint32_t slot = take_slot();
  slots_[slot].handle = handle;
  slots_[slot].component = component_;
  if (next_seq_ == kMaxSeq) renumber();
  queue_.push(Event{.seq_slot = Event::pack(next_seq_++, slot), .at = std::max(at, now_)});
  ++live_;
  return make_id(slot, slots_[slot].generation);
}

void EventLoop::cancel(TimerId id) {
  const std::uint32_t slot = slot_of(id);
  if (slot >= slots_.size()) return;
  Slot& s = slots_[slot];
  if (s.generation != generation_of(id) || !s.handle) return;  // ran, cancelled, or recycled
  s.handle = nullptr;
  ++s.generation;
  --live_;
  // Tombstones of far-future timers (a deadline minutes away, cancelled because the answer
  // came first) would pile up until their time; once they are most of the queue, it is
  // filtered of them. O(n) per n/2 cancels: amortised O(1), and the queue keeps its order.
  if (queue_.size() > kCompactMin && queue_.size() > 2 * live_) compact();
}

void EventLoop::compact() {
  queue_.erase_if([this](const Event& e) {
    if (slots_[e.slot()].handle) return false;
    free_slot(e.slot());
    return true;
  });
}

void EventLoop::renumber() {
  // Tombstones go first, as compact() drops them; the live entries, sorted by (time, seq)
  // and numbered in that order, are queued again in it.
  compact();
  std::vector<Event> queued = queue_.take_sorted();
  std::uint32_t seq = 0;
  for (Event& e : queued) {
    e.seq_slot = Event::pack(seq++, e.slot());
    queue_.push(e);
  }
  next_seq_ = seq;
}

void EventLoop::skip_cancelled() {
  while (!queue_.empty() && !slots_[queue_.earliest().slot()].handle) free_slot(queue_.pop().slot());
}

void EventLoop::run_event(const Event& e) {
  Slot& s = slots_[e.slot()];
  const std::coroutine_handle<> handle = s.handle;
  const ComponentId component = s.component;
  ++s.generation;  // the id is spent before the handle runs, so cancelling it there is a no-op
  free_slot(e.slot());
  --live_;
  if (e.at != now_) {
    now_ = e.at;
    events_at_now_ = 0;
  } else if (++events_at_now_ >= kMaxEventsPerInstant) {
    throw SimulationStalled(now_, component);
  }
  ++events_run_;
  component_ = component;
  // The frame the next event resumes is most likely cold: with tens of thousands of tasks
  // in flight their frames are megabytes apart, and the load of its resume pointer was
  // the largest single stall of a high-rate run (bench/README.md). Asking for its first
  // lines now lets them arrive while this event runs. A hint: a wrong guess (an event
  // this one schedules earlier, a cancelled one) costs wasted prefetches, and none is made
  // when finding the next event would take a scan (EventQueue::earliest_if_cheap). Nor
  // when few events are queued: their frames are few enough to stay in the core's caches
  // (kPrefetchMinQueued), and the look and the eight prefetches would be all cost.
  if (const QueuedEvent* upcoming = queue_.size() >= kPrefetchMinQueued ? queue_.earliest_if_cheap() : nullptr) {
    if (const std::coroutine_handle<> next = slots_[upcoming->slot()].handle) {
      const auto* frame = static_cast<const char*>(next.address());
      // Eight lines: a resumption reads the frame's header, its promise's result and the
      // awaiter it resumes from, spread over the frame (the task runner's, which holds its
      // step's fused call, is 480 bytes: engine/task_runner.hpp). Two lines were asked for
      // before the calls were fused; eight took a 500,000 tasks/s run from 1.86-1.96 s to
      // 1.60-1.76 s of user time, twelve did no better (bench/README.md).
      for (int line = 0; line < 8; ++line) __builtin_prefetch(frame + 64 * line);
    }
  }
  handle.resume();
}

std::uint64_t EventLoop::run(std::uint64_t max_events) {
  std::uint64_t ran = 0;
  while (ran < max_events && !queue_.empty()) {
    // Taken out without looking first: a cancelled event is dropped, a live one run.
    const Event e = queue_.pop();
    if (!slots_[e.slot()].handle) {
      free_slot(e.slot());
      continue;
    }
    ++ran;
    run_event(e);
  }
  return ran;
}

std::uint64_t EventLoop::run_until(TimePoint until) {
  std::uint64_t ran = 0;
  for (;;) {
    // A cancelled earliest event must not hide a live one behind it, nor stop the loop.
    skip_cancelled();
    if (queue_.empty() || queue_.earliest().at > until) break;
    ++ran;
    run_event(queue_.pop());
  }
  now_ = std::max(now_, until);
  return ran;
}

}  // namespace squall

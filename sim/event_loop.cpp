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

void EventLoop::push(const Event& e) {
  heap_.push_back(e);
  sift_up(heap_.size() - 1, e);
}

void EventLoop::sift_up(std::size_t hole, const Event& e) {
  // Move later parents down into the hole until e's place is found.
  while (hole > kRoot) {
    const std::size_t up = parent(hole);
    if (!earlier(e, heap_[up])) break;
    heap_[hole] = heap_[up];
    hole = up;
  }
  heap_[hole] = e;
}

EventLoop::Event EventLoop::pop_earliest() {
  static_assert(first_child(kRoot) == kRoot + 1 && first_child(kRoot) % kArity == 0 &&
                parent(first_child(kRoot)) == kRoot && parent(first_child(kRoot) + kArity - 1) == kRoot &&
                parent(first_child(kRoot + 1)) == kRoot + 1);
  const Event first_event = earliest();
  const Event last = heap_.back();
  heap_.pop_back();
  const std::size_t n = heap_.size();
  if (n == kRoot) return first_event;
  // Sift down: move the earliest child up into the hole until `last` fits there.
  const Key last_key = key(last);
  std::size_t hole = kRoot;
  for (;;) {
    const std::size_t first = first_child(hole);
    if (first >= n) break;
    std::size_t child = first;
    Key child_key = key(heap_[first]);
    if (first + kArity <= n) {
      // A full line of four: a tournament of three comparisons, the two semifinals
      // independent of each other, where a scan would chain all three.
      const Key k1 = key(heap_[first + 1]);
      const Key k2 = key(heap_[first + 2]);
      const Key k3 = key(heap_[first + 3]);
      const std::size_t right = k3 < k2 ? first + 3 : first + 2;
      const Key right_key = k3 < k2 ? k3 : k2;
      if (k1 < child_key) {
        child = first + 1;
        child_key = k1;
      }
      if (right_key < child_key) {
        child = right;
        child_key = right_key;
      }
    } else {
      for (std::size_t c = first + 1; c < n; ++c) {
        const Key k = key(heap_[c]);
        if (k < child_key) {
          child = c;
          child_key = k;
        }
      }
    }
    if (!(child_key < last_key)) break;
    heap_[hole] = heap_[child];
    hole = child;
  }
  heap_[hole] = last;
  return first_event;
}

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
  const std::uint32_t slot = take_slot();
  slots_[slot].handle = handle;
  slots_[slot].component = component_;
  if (next_seq_ == kMaxSeq) renumber();
  push(Event{.seq_slot = Event::pack(next_seq_++, slot), .at = std::max(at, now_)});
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
  // came first) would pile up until their time; once they are most of the heap, it is
  // rebuilt without them. O(n) per n/2 cancels: amortised O(1), and (time, seq) order is a
  // total order, so the rebuilt heap pops in the same order.
  if (heap_.size() > kCompactMin + kRoot && heap_.size() - kRoot > 2 * live_) compact();
}

void EventLoop::compact() {
  // In place: live entries move to the front, each sifted up into the heap growing there.
  std::size_t n = kRoot;
  for (std::size_t i = kRoot; i < heap_.size(); ++i) {
    const Event e = heap_[i];
    if (!slots_[e.slot()].handle) {
      free_slot(e.slot());
      continue;
    }
    sift_up(n++, e);
  }
  heap_.resize(n);
}

void EventLoop::renumber() {
  // Tombstones go first, as compact() drops them; the live entries, sorted by (time, seq),
  // are a heap as they stand.
  compact();
  std::sort(heap_.begin() + kRoot, heap_.end(), earlier);
  std::uint32_t seq = 0;
  for (std::size_t i = kRoot; i < heap_.size(); ++i) heap_[i].seq_slot = Event::pack(seq++, heap_[i].slot());
  next_seq_ = seq;
}

void EventLoop::skip_cancelled() {
  while (!heap_empty() && !slots_[earliest().slot()].handle) free_slot(pop_earliest().slot());
}

void EventLoop::run_front() {
  const Event e = pop_earliest();
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
  // this one schedules earlier, a cancelled one) costs wasted prefetches.
  if (!heap_empty()) {
    if (const std::coroutine_handle<> next = slots_[earliest().slot()].handle) {
      const auto* frame = static_cast<const char*>(next.address());
      // Eight lines: a resumption reads the frame's header, its promise's result and the
      // awaiter it resumes from, spread over the first few hundred bytes of a fused call's
      // 776-byte frame (engine/fused_call.hpp). Two lines were asked for before the calls
      // were fused; eight took a 500,000 tasks/s run from 1.86-1.96 s to 1.60-1.76 s of
      // user time, twelve did no better (bench/README.md).
      for (int line = 0; line < 8; ++line) __builtin_prefetch(frame + 64 * line);
    }
  }
  handle.resume();
}

std::uint64_t EventLoop::run(std::uint64_t max_events) {
  std::uint64_t ran = 0;
  while (ran < max_events) {
    skip_cancelled();
    if (heap_empty()) break;
    ++ran;
    run_front();
  }
  return ran;
}

std::uint64_t EventLoop::run_until(TimePoint until) {
  std::uint64_t ran = 0;
  for (;;) {
    // A cancelled earliest event must not hide a live one behind it, nor stop the loop.
    skip_cancelled();
    if (heap_empty() || earliest().at > until) break;
    ++ran;
    run_front();
  }
  now_ = std::max(now_, until);
  return ran;
}

}  // namespace squall

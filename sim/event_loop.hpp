// EventLoop: the simulator's virtual clock and event queue.
//
// Implements the engine's Clock and Scheduler seams over virtual time. Events are
// coroutine resumptions ordered by (time, insertion sequence), so ties never depend on
// addresses or hashing (DESIGN section 3). Single-threaded by design: one simulation, one
// thread.
//
// The queue is an implicit 4-ary min-heap in a vector (Johnson 1975), laid out as LaMarca
// and Ladner's aligned d-ary heap ("The influence of caches on the performance of heaps",
// 1996): half the depth of a binary heap, and with 16-byte entries, storage aligned to 64
// bytes and the root placed three entries in, a node's four children fill exactly one cache
// line, so a pop, the loop's commonest operation, reads one line per level. Every simulated
// provider call costs two or three events, so the queue is on the hot path of every run
// (bench/README.md).
//
// Ties are broken by a 32-bit scheduling sequence, which keeps an entry at 16 bytes. Before
// it would wrap (after 2^32 - 1 events scheduled), the queued events are sorted by
// (time, sequence) and renumbered from 0: their order is unchanged, a sorted array is a
// heap, and later events number after all of them, so the run's order does not depend on
// when renumbering happens.
//
// Cancellation is O(1) with a tombstone. Each queued event owns a slot in a side table
// that holds its coroutine handle and a generation count; a TimerId names (slot,
// generation). cancel() checks the generation, clears the handle (the tombstone) and bumps
// the generation, so a second cancel, or a cancel of an event that already ran, finds a
// different generation and does nothing. The heap entry stays where it is and is dropped
// when it reaches the top (or when tombstones are most of the heap, which is then
// rebuilt without them); its slot is then recycled. Timed-out waits cancel their timers
// on every provider call that answers in time, so this is on the hot path too.
//
// Stall detection (DESIGN section 9: no silent hangs). A model that schedules event after
// event without letting virtual time advance (a loop that retries with no delay, an
// arrival process stuck at one instant) would spin forever. After kMaxEventsPerInstant
// events in a row at one instant, run() throws SimulationStalled, naming the component
// that scheduled the last of them. Components are small ids the simulator assigns to what
// it spawns (the workload's arrivals, each task template): set_component() sets the one
// that events scheduled from now on belong to, and running an event makes its component
// current again, so every event inherits the component of the code that scheduled it.
#pragma once

#include <coroutine>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <boost/align/aligned_allocator.hpp>

#include "engine/runtime/clock.hpp"

namespace squall {

// Who scheduled an event; 0 when nobody set one (sim/world.hpp gives the names).
using ComponentId = std::uint32_t;

// Thrown by EventLoop::run and run_until when virtual time stopped advancing.
class SimulationStalled : public std::runtime_error {
 public:
  SimulationStalled(TimePoint at, ComponentId component);
  TimePoint at() const { return at_; }
  ComponentId component() const { return component_; }

 private:
  TimePoint at_;
  ComponentId component_;
};

class EventLoop final : public Clock, public Scheduler {
 public:
  EventLoop() = default;
  // Starts the scheduling sequence at `first_seq` instead of 0: tests start it next to
  // its end to reach renumbering (see the header) without scheduling 2^32 events.
  explicit EventLoop(std::uint32_t first_seq) : next_seq_(first_seq) {}

  TimePoint now() const override { return now_; }
  TimerId schedule_at(TimePoint at, std::coroutine_handle<> handle) override;
  // O(1). Cancelling an event that ran, was cancelled, or was never scheduled is a no-op.
  void cancel(TimerId id) override;

  // Runs events in order until none is left or `max_events` have run. Returns the number
  // of events run (cancelled events are skipped, not counted). Bounded so that a runaway
  // model cannot hang the process.
  std::uint64_t run(std::uint64_t max_events = UINT64_MAX);
  // Runs events whose time is <= `until`, then sets the clock to `until` if it is later.
  std::uint64_t run_until(TimePoint until);

  bool empty() const { return live_ == 0; }
  // Events scheduled and neither run nor cancelled.
  std::size_t pending() const { return live_; }
  std::uint64_t events_run() const { return events_run_; }

  // Events in a row at one instant before run() decides virtual time has stalled. Ten
  // million: a legitimate instant holds a handful of events per task that acts at it, and
  // arrivals are at least 1 ns apart (sim/arrivals.hpp), so only a model that loops without
  // waiting comes near it; at tens of millions of events per second it costs under a
  // second to detect.
  static constexpr std::uint64_t kMaxEventsPerInstant = 10'000'000;

  // The component events scheduled from now on belong to (see the header).
  void set_component(ComponentId component) { component_ = component; }
  ComponentId component() const { return component_; }

 private:
  // A heap entry: 16 bytes, so that four siblings are one cache line; the handle lives in
  // the slot so the entry need not grow.
  struct Event {
    // The scheduling sequence (renumbered before it wraps, see the header) in the high
    // half, the slot in the low half: one word, so that key() is two plain loads.
    std::uint64_t seq_slot;
    TimePoint at;
    std::uint32_t slot() const { return static_cast<std::uint32_t>(seq_slot); }
    static std::uint64_t pack(std::uint32_t seq, std::uint32_t slot) {
      return (static_cast<std::uint64_t>(seq) << 32) | slot;
    }
  };
  static_assert(sizeof(Event) == 16);
  // The per-event tombstone. `handle` is null once the event is cancelled; `generation`
  // changes whenever the TimerId that names the slot stops being valid (run or cancel).
  struct Slot {
    std::coroutine_handle<> handle;
    std::uint32_t generation = 0;
    union {
      std::uint32_t next_free = 0;  // the free list's link while the slot is unused
      ComponentId component;        // who scheduled the event while it is queued
    };
  };
  static constexpr std::size_t kArity = 4;
  static constexpr std::size_t kLineBytes = 64;
  static_assert(kArity * sizeof(Event) == kLineBytes);
  // heap_[kRoot] is the earliest event; the kRoot entries before it are padding, so that
  // the children of position p, kArity * p - 8 .. kArity * p - 5, start at a multiple of
  // kArity entries and hence of 64 bytes.
  static constexpr std::size_t kRoot = kArity - 1;
  static constexpr std::size_t first_child(std::size_t p) { return kArity * p - 2 * kArity; }
  static constexpr std::size_t parent(std::size_t p) { return p / kArity + 2; }
  // The sequence number renumbering starts at (see the header).
  static constexpr std::uint32_t kMaxSeq = UINT32_MAX;
  static constexpr std::uint32_t kNoSlot = UINT32_MAX;
  // Below this many entries the heap is never compacted: tombstones are cheap to skip.
  static constexpr std::size_t kCompactMin = 1024;
  // (time, seq) order as one unsigned 128-bit comparison, which compiles to a compare and
  // a subtract-with-borrow with no branch: the sift-down picks the earliest of four
  // children with conditional moves. Times are never negative (the clock starts at 0 and
  // schedule_at clamps to now), so their unsigned order is their order; the slot in the
  // low bits never decides, as sequence numbers are unique.
  __extension__ using Key = unsigned __int128;
  static Key key(const Event& e) { return (static_cast<Key>(static_cast<std::uint64_t>(e.at)) << 64) | e.seq_slot; }
  static bool earlier(const Event& a, const Event& b) { return key(a) < key(b); }

  bool heap_empty() const { return heap_.size() == kRoot; }
  const Event& earliest() const { return heap_[kRoot]; }
  void push(const Event& e);
  // Places `e` at position `hole` or above it; heap_[kRoot .. hole) must be a heap.
  void sift_up(std::size_t hole, const Event& e);
  // Removes and returns the earliest event; the heap must not be empty.
  Event pop_earliest();
  // Drops cancelled events off the top of the heap, so that earliest(), if any, is live.
  void skip_cancelled();
  // Rebuilds the heap from its live entries and recycles the tombstoned slots.
  void compact();
  // Sorts the queued events and numbers them from 0 (see the header).
  void renumber();
  std::uint32_t take_slot();
  void free_slot(std::uint32_t slot);
  // Runs the live event at the top of the heap.
  void run_front();

  using Heap = std::vector<Event, boost::alignment::aligned_allocator<Event, kLineBytes>>;
  Heap heap_ = Heap(kRoot);  // positions [kRoot, size) hold the heap (see kRoot)
  std::vector<Slot> slots_;  // one per queued event, live or tombstoned; recycled LIFO
  std::uint32_t free_head_ = kNoSlot;
  std::size_t live_ = 0;
  TimePoint now_ = 0;
  std::uint32_t next_seq_ = 0;
  std::uint64_t events_run_ = 0;
  std::uint64_t events_at_now_ = 0;  // events run in a row at now_
  ComponentId component_ = 0;
};

}  // namespace squall

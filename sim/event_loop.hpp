// EventLoop: the simulator's virtual clock and event queue.
//
// Implements the engine's Clock and Scheduler seams over virtual time. Events are
// coroutine resumptions ordered by (time, insertion sequence), so ties never depend on
// addresses or hashing (DESIGN section 3). Single-threaded by design: one simulation, one
// thread.
//
// The queue is a radix heap over virtual time (sim/event_queue.hpp): a simulator's queue is
// monotone, no event is scheduled before the one running, and a monotone queue files an
// event in O(1) and takes it out after a few moves between buckets, where the 4-ary heap it
// replaced read a cache line per level (bench/README.md); while at most 64 events are
// queued (tens of tasks in flight) they sit in one sorted array instead. Every simulated
// provider call costs two or three events, so the queue is on the hot path of every run.
//
// Ties are broken by a 32-bit scheduling sequence, which keeps an entry at 16 bytes. Before
// it would wrap (after 2^32 - 1 events scheduled), the queued events are sorted by
// (time, sequence), renumbered from 0 and queued again in that order: their order is
// unchanged, and later events number after all of them, so the run's order does not depend on
// when renumbering happens.
//
// Cancellation is O(1) with a tombstone. Each queued event owns a slot in a side table
// that holds its coroutine handle and a generation count; a TimerId names (slot,
// generation). cancel() checks the generation, clears the handle (the tombstone) and bumps
// the generation, so a second cancel, or a cancel of an event that already ran, finds a
// different generation and does nothing. The queued entry stays where it is and is
// dropped when it comes out first (or when tombstones are most of the queue, which is then
// filtered of them); its slot is then recycled. Timed-out waits cancel their timers
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

#include "engine/runtime/clock.hpp"
#include "sim/event_queue.hpp"

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
  EventLoop() : Clock(&now_) {}
  // Starts the scheduling sequence at `first_seq` instead of 0: tests start it next to
  // its end to reach renumbering (see the header) without scheduling 2^32 events.
  explicit EventLoop(std::uint32_t first_seq) : Clock(&now_), next_seq_(first_seq) {}
  // The clock reads now_ through a pointer (Clock::now), so a loop stays where it is.
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  TimePoint now() const { return now_; }
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
  using Event = QueuedEvent;
  TimePoint read_now() const override { return now_; }
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
  // The sequence number renumbering starts at (see the header).
  static constexpr std::uint32_t kMaxSeq = UINT32_MAX;
  static constexpr std::uint32_t kNoSlot = UINT32_MAX;
  // Below this many entries the queue is never compacted: tombstones are cheap to skip.
  static constexpr std::size_t kCompactMin = 1024;
  // Below this many queued events run_event prefetches no frame: about one event is
  // queued per task in flight, and 256 task frames of 480 bytes (120 KiB) stay in L2.
  static constexpr std::size_t kPrefetchMinQueued = 256;
  // Drops cancelled events off the front of the queue, so that its earliest, if any, is live.
  void skip_cancelled();
  // Drops the tombstones from the queue and recycles their slots.
  void compact();
  // Sorts the queued events and numbers them from 0 (see the header).
  void renumber();
  // schedule_at's steps when its call-free common case does not apply (event_loop.cpp).
  [[gnu::noinline]] TimerId schedule_slow(TimePoint at, std::coroutine_handle<> handle);
  std::uint32_t take_slot();
  void free_slot(std::uint32_t slot);
  // Runs `e`, a live event just taken out of the queue.
  void run_event(const Event& e);

  EventQueue queue_;
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

#include "sim/event_queue.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "engine/runtime/rng.hpp"

namespace squall {
namespace {

// The reference: an ordered set of (time, sequence) pairs, the order the event loop has
// always run events in.
class Reference {
 public:
  void push(const QueuedEvent& e) { set_.insert(e); }
  QueuedEvent pop() {
    const QueuedEvent e = *set_.begin();
    set_.erase(set_.begin());
    return e;
  }
  bool empty() const { return set_.empty(); }
  std::size_t size() const { return set_.size(); }
  const std::set<QueuedEvent>& all() const { return set_; }

 private:
  std::set<QueuedEvent> set_;
};

// Pushes into both with the next sequence number; the slot is the sequence's low bits
// reversed, so that an order by slot would differ from the order by sequence.
// By default an event goes in as the event loop adds it: try_push, and push when
// try_push declines (no spare storage in the bucket, a time before the last one taken
// out); with `try_first` false, by push alone.
struct Both {
  explicit Both(std::size_t small_limit = EventQueue::kSmallCapacity) : queue(small_limit) {}
  EventQueue queue;
  Reference reference;
  std::uint32_t seq = 0;
  bool try_first = true;
  std::uint64_t declined = 0;  // pushes try_push left to push
  void push(TimePoint at) {
    const QueuedEvent e{.seq_slot = QueuedEvent::pack(seq, ~seq), .at = at};
    ++seq;
    if (!try_first) {
      queue.push(e);
    } else if (!queue.try_push(e)) {
      ++declined;
      queue.push(e);
    }
    reference.push(e);
  }
  void peek_checked() {
    const QueuedEvent peeked = queue.earliest();
    EXPECT_TRUE(peeked.at == reference.all().begin()->at && peeked.seq_slot == reference.all().begin()->seq_slot);
  }
  // Pops one from each, checking earliest() first; returns the reference's.
  QueuedEvent pop_checked() {
    const QueuedEvent peeked = queue.earliest();
    const QueuedEvent popped = queue.pop();
    const QueuedEvent expected = reference.pop();
    EXPECT_EQ(peeked.at, expected.at);
    EXPECT_EQ(peeked.seq_slot, expected.seq_slot);
    EXPECT_EQ(popped.at, expected.at);
    EXPECT_EQ(popped.seq_slot, expected.seq_slot);
    EXPECT_EQ(queue.size(), reference.size());
    return expected;
  }
};

bool same(const QueuedEvent& a, const QueuedEvent& b) { return a.at == b.at && a.seq_slot == b.seq_slot; }

// Every test below runs with the radix heap alone (0), with a sorted array so small that
// the queue moves between the two all the time (4), and as the event loop has it.
constexpr std::size_t kSmallLimits[] = {0, 4, EventQueue::kSmallCapacity};

TEST(EventQueueTest, TiesComeOutInSequenceOrderAfterAnyNumberOfMoves) {
  for (const std::size_t limit : kSmallLimits) {
    SCOPED_TRACE(limit);
    // Events at one far time, pushed while the queue's last time is 0, are filed together
    // and moved down level by level as earlier events come out; more events at that time,
    // pushed after it became the present, must follow them.
    Both both(limit);
    const TimePoint far = (TimePoint{1} << 40) + 12345;
    for (int i = 0; i < 20; ++i) both.push(far);
    both.push(far - 1);
    both.push(far - 64);
    both.push(far - 4096);
    both.push(7);
    for (int i = 0; i < 4; ++i) both.pop_checked();  // 7, then the three just before `far`
    both.pop_checked();                              // the first at `far`: the present is refilled
    for (int i = 0; i < 5; ++i) both.push(far);      // later sequences at the present time
    while (!both.reference.empty()) both.pop_checked();
    EXPECT_TRUE(both.queue.empty());
  }
}

// A simulation's pattern: each pop may push a few events at or after its time, at
// distances from 0 (the same instant) to hours, with many ties, and far-future timers
// (a deadline of days, times near 2^62) that stay queued throughout.
void random_schedule_matches_the_ordered_set(bool try_first, std::size_t small_limit) {
  SCOPED_TRACE(small_limit);
  Xoshiro256 rng(2024);
  Both both(small_limit);
  both.try_first = try_first;
  for (int i = 0; i < 50; ++i) both.push(rng.uniform_range(0, 1'000'000));
  both.push(TimePoint{1} << 62);
  both.push((TimePoint{1} << 62) + 1);
  both.push(3 * 86'400 * kSecond);
  std::uint64_t popped = 0;
  while (!both.reference.empty() && popped < 200'000) {
    const QueuedEvent e = both.pop_checked();
    ++popped;
    if (e.at >= (TimePoint{1} << 61)) continue;
    const int pushes = static_cast<int>(rng.uniform_int(3));  // 0, 1 or 2: the queue drains slowly
    for (int i = 0; i < pushes && popped < 150'000; ++i) {
      TimePoint delay = 0;
      switch (rng.uniform_int(5)) {
        case 0: delay = 0; break;                                          // the same instant
        case 1: delay = rng.uniform_range(0, 3); break;                    // ties nearby
        case 2: delay = rng.uniform_range(0, 200 * kMillisecond); break;   // a latency
        case 3: delay = rng.uniform_range(0, 10 * kSecond); break;         // a backoff
        default: delay = rng.uniform_range(0, 2 * 3600 * kSecond); break;  // a long timer
      }
      both.push(e.at + delay);
      // earliest() remembers where the first bucket's earliest event is; a later push
      // into that bucket or an earlier one must correct it.
      both.peek_checked();
    }
  }
  while (!both.reference.empty()) both.pop_checked();
  EXPECT_TRUE(both.queue.empty());
  // Both ways in: try_push took most events, and push the rest.
  if (try_first) {
    EXPECT_GT(both.declined, 0U);
    EXPECT_LT(both.declined, both.seq / 2);
  }
}

TEST(EventQueueTest, RandomSchedulesMatchTheOrderedSet) {
  for (const std::size_t limit : kSmallLimits) random_schedule_matches_the_ordered_set(true, limit);
}

TEST(EventQueueTest, RandomSchedulesMatchTheOrderedSetByPushAlone) {
  for (const std::size_t limit : kSmallLimits) random_schedule_matches_the_ordered_set(false, limit);
}

TEST(EventQueueTest, TryPushDeclinesWithoutStorageOrBeforeTheLastTime) {
  // Times 1000 to 1023 share a bucket while the last time taken out is 0. A bucket that
  // never held an event has no storage, so try_push declines the first event filed in it
  // (and push files it); once pushes have grown it (five events: room for eight), an
  // event is appended in place. After the queue has taken out time 1000, an event at
  // 999 is declined. A declined event leaves the queue as it was. (The radix heap alone:
  // the sorted array declines only when full, below.)
  EventQueue queue(0);
  const auto event = [](std::uint32_t seq, TimePoint at) {
    return QueuedEvent{.seq_slot = QueuedEvent::pack(seq, seq), .at = at};
  };
  EXPECT_FALSE(queue.try_push(event(0, 1000)));
  EXPECT_EQ(queue.size(), 0U);
  for (std::uint32_t i = 0; i < 5; ++i) queue.push(event(i, 1000 + i));
  EXPECT_TRUE(queue.try_push(event(5, 1005)));
  EXPECT_EQ(queue.size(), 6U);
  EXPECT_TRUE(same(queue.pop(), event(0, 1000)));
  EXPECT_FALSE(queue.try_push(event(6, 999)));
  EXPECT_EQ(queue.size(), 5U);
  queue.push(event(6, 999));
  EXPECT_TRUE(same(queue.pop(), event(6, 999)));
  for (std::uint32_t i = 1; i < 6; ++i) EXPECT_TRUE(same(queue.pop(), event(i, 1000 + i)));
  EXPECT_TRUE(queue.empty());
}

TEST(EventQueueTest, AnEarlierEventPushedAfterALookIsTheEarliest) {
  for (const std::size_t limit : kSmallLimits) {
    SCOPED_TRACE(limit);
    // earliest() scans the first bucket and remembers its earliest event; pushes into the
    // same bucket, and into an earlier one, come before it.
    Both both(limit);
    both.push((1 << 20) + 500);  // times 2^20 to 2^20 + 2^18 - 1 share a bucket
    both.push((1 << 20) + 900);
    both.peek_checked();
    both.push((1 << 20) + 700);  // the same bucket, later: 500 is still the first
    both.peek_checked();
    both.push((1 << 20) + 100);  // the same bucket, earlier
    both.peek_checked();
    both.push((1 << 20) - 3);  // an earlier bucket
    both.peek_checked();
    both.push(1000);  // an earlier one still
    both.peek_checked();
    while (!both.reference.empty()) both.pop_checked();
  }
}

TEST(EventQueueTest, TheCheapLookScansNoLargeBucket) {
  for (const std::size_t limit : kSmallLimits) {
    SCOPED_TRACE(limit);
    // Many tasks' slow calls, an hour ahead, share one bucket; near events are pushed and
    // run one at a time between them. The cheap look (the event loop's prefetch hint) gives
    // the earliest event whenever finding it scans at most kCheapScan events, and null
    // instead of scanning the far bucket at every near event.
    Both both(limit);
    constexpr std::int64_t kHour = 3'600'000'000'000;
    for (int i = 0; i < 1000; ++i) both.push(kHour + 1000 - i);
    EXPECT_EQ(both.queue.earliest_if_cheap(), nullptr);
    for (std::int64_t t = 1; t <= 3; ++t) {
      both.push(t);  // a near event: the first bucket is its own
      const QueuedEvent* look = both.queue.earliest_if_cheap();
      ASSERT_NE(look, nullptr);
      EXPECT_EQ(look->at, t);
      both.pop_checked();
      EXPECT_EQ(both.queue.earliest_if_cheap(), nullptr);  // only the far bucket is left
    }
    both.peek_checked();  // earliest() scans it, and remembers: the cheap look is now free
    const QueuedEvent* look = both.queue.earliest_if_cheap();
    ASSERT_NE(look, nullptr);
    EXPECT_EQ(look->at, kHour + 1);
    while (!both.reference.empty()) both.pop_checked();
    EXPECT_EQ(both.queue.earliest_if_cheap(), nullptr);
  }
}

TEST(EventQueueTest, EraseIfKeepsTheOthersInOrder) {
  for (const std::size_t limit : kSmallLimits) {
    SCOPED_TRACE(limit);
    Xoshiro256 rng(5);
    Both both(limit);
    for (int i = 0; i < 3000; ++i) both.push(rng.uniform_range(0, 99));
    for (int i = 0; i < 500; ++i) both.pop_checked();  // some in the present, some filed below
    for (int i = 0; i < 3000; ++i) both.push(both.reference.all().begin()->at + rng.uniform_range(0, 5000));
    const auto dead = [](const QueuedEvent& e) { return (e.seq_slot >> 32) % 3 == 0; };
    both.queue.erase_if(dead);
    std::set<QueuedEvent> kept;
    for (const QueuedEvent& e : both.reference.all()) {
      if (!dead(e)) kept.insert(e);
    }
    EXPECT_EQ(both.queue.size(), kept.size());
    for (const QueuedEvent& e : kept) {
      ASSERT_TRUE(same(both.queue.pop(), e));
    }
    EXPECT_TRUE(both.queue.empty());
  }
}

TEST(EventQueueTest, TakeSortedEmptiesTheQueueInOrder) {
  for (const std::size_t limit : kSmallLimits) {
    SCOPED_TRACE(limit);
    Xoshiro256 rng(9);
    Both both(limit);
    for (int i = 0; i < 2000; ++i) both.push(rng.uniform_range(0, 1 << 20));
    for (int i = 0; i < 100; ++i) both.pop_checked();
    const std::vector<QueuedEvent> all = both.queue.take_sorted();
    EXPECT_TRUE(both.queue.empty());
    ASSERT_EQ(all.size(), both.reference.size());
    std::size_t i = 0;
    for (const QueuedEvent& e : both.reference.all()) EXPECT_TRUE(same(all[i++], e));
  }
}

TEST(EventQueueTest, APushBeforeTheLastTimeTakenOutKeepsTheOrder) {
  for (const std::size_t limit : kSmallLimits) {
    SCOPED_TRACE(limit);
    // The loop does this only after run_until dropped cancelled events past its bound and
    // then schedules at the bound: every queued event is filed again against the earlier time.
    Both both(limit);
    both.push(100);
    both.push(5000);
    both.push(5000);
    both.push(70'000);
    both.pop_checked();                                         // 100
    EXPECT_TRUE(same(both.queue.pop(), both.reference.pop()));  // 5000: last is now 5000
    both.push(200);                                             // before it
    both.push(5000);                                            // after the 5000 still queued
    both.push(200);
    while (!both.reference.empty()) both.pop_checked();
    EXPECT_TRUE(both.queue.empty());
  }
}

TEST(EventQueueTest, TheQueueMovesBetweenTheSortedArrayAndTheHeapInOrder) {
  // Waves of pushes and pops carry the size across both bounds again and again: past 64
  // events the radix heap takes over, and a pop that leaves 16 moves them back. Ties,
  // same-instant events and far timers ride along; the order is the reference's
  // throughout, and both ways of keeping events are used.
  Xoshiro256 rng(31);
  Both both;
  EXPECT_TRUE(both.queue.in_sorted_array());
  int to_heap = 0;
  int to_array = 0;
  bool was_array = true;
  const auto note_mode = [&] {
    if (was_array != both.queue.in_sorted_array()) ++(was_array ? to_heap : to_array);
    was_array = both.queue.in_sorted_array();
  };
  TimePoint now = 0;
  for (int wave = 0; wave < 40; ++wave) {
    const int pushes = static_cast<int>(rng.uniform_range(1, 120));
    for (int i = 0; i < pushes; ++i) {
      both.push(now + (i % 7 == 0 ? 0 : rng.uniform_range(0, 5 * kSecond)));
      note_mode();
    }
    const auto target = static_cast<std::size_t>(rng.uniform_range(0, 30));
    while (both.reference.size() > target) {
      now = both.pop_checked().at;
      note_mode();
    }
  }
  while (!both.reference.empty()) both.pop_checked();
  EXPECT_TRUE(both.queue.empty());
  EXPECT_GT(to_heap, 5);
  EXPECT_GT(to_array, 5);
}

TEST(EventQueueTest, TheSortedArrayDeclinesOnlyWhenFull) {
  // try_push adds to the sorted array, in order, while it has room at its end; full, it
  // declines, and push moves the events to the radix heap.
  EventQueue queue;
  const auto event = [](std::uint32_t seq, TimePoint at) {
    return QueuedEvent{.seq_slot = QueuedEvent::pack(seq, seq), .at = at};
  };
  for (std::uint32_t i = 0; i < EventQueue::kSmallCapacity; ++i) {
    ASSERT_TRUE(queue.try_push(event(i, 1000 - i)));
  }
  EXPECT_FALSE(queue.try_push(event(1000, 5)));
  EXPECT_TRUE(queue.in_sorted_array());
  queue.push(event(1000, 5));
  EXPECT_FALSE(queue.in_sorted_array());
  EXPECT_TRUE(same(queue.pop(), event(1000, 5)));
  for (std::uint32_t i = EventQueue::kSmallCapacity; i-- > 0;) EXPECT_TRUE(same(queue.pop(), event(i, 1000 - i)));
  EXPECT_TRUE(queue.empty());
  EXPECT_TRUE(queue.in_sorted_array());
}

}  // namespace
}  // namespace squall

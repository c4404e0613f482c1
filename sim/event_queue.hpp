// EventQueue: the event loop's priority queue, a radix heap over virtual time.
//
// A discrete-event simulator's queue is monotone: no event is ever scheduled before the
// one that runs now. A monotone queue need not be a general heap. This one is a radix heap
// (Ahuja, Mehlhorn, Orlin and Tarjan, "Faster algorithms for the shortest path problem",
// JACM 1990) with 6-bit digits, which makes it a hierarchical timing wheel (Varghese and
// Lauck, 1987) that keeps exact order. It keeps `last`, the time of the latest event taken
// out; an event at `last` goes to the bucket of the present, any later one to the bucket
// (level, digit) where level is the 6-bit digit at which its time first differs from
// `last` (counting from the low end) and digit is its time's digit there. All events of a
// lower level come before all events of a higher one (they agree with `last` on the
// higher level's digit, which a later event exceeds), and within a level the smaller
// digit comes first, so the first non-empty bucket, found from two bit masks, holds the
// earliest event. Pushing is an append. Taking out, when the present is empty, makes the
// first non-empty bucket's earliest time the new `last` and files that bucket's events
// again: they all agree with it on the bucket's level and above, so each lands on a lower
// level. An event therefore moves at most 11 times, and in practice two or three times
// (about one move per six bits between its distance ahead and the spacing of the queued
// events). With 1-bit digits (the radix heap as published) an event 80 ms ahead of a dense
// queue moved about fifteen times; the 4-ary heap this replaced read a cache line per
// level and took 488 instructions per pop with 50,000 events queued (bench/README.md).
//
// Order: (time, scheduling sequence), as the loop has always run events (DESIGN section
// 3). Only the present holds events of equal times, so only it is kept in sequence order:
// when it is refilled the events at the new `last` are sorted by sequence (they are few:
// the events of one instant), and every event pushed at `last` afterwards was scheduled
// later, so appending keeps the order. The other buckets are unordered.
//
// A push before `last` (which the loop does only after run_until looked past cancelled
// events it then dropped, and scheduled again at the earlier bound) files every event
// again against the earlier time: O(n), and never on a run's hot path.
//
// Few events: a sorted array. A run with tens of tasks in flight (retry-breaker-1m has at
// most 16 events queued at 99.9% of its pops) spent an eighth of its time in the radix
// heap's filing, bucket scans and refiling (bench/README.md), where each event touches
// the storage of two or three of 704 buckets. While at most kSmallCapacity events are queued they are
// kept instead in one array in (time, sequence) order, from small_head_ to small_tail_:
// a pop takes the first, a push moves the later ones up by one from the end (a new event
// is mostly later than most queued ones, so the move is short). The first push that
// finds the array full (or too full to be worth compacting) files every event into the
// radix heap, which takes over; a pop that leaves at most kSmallReturn events moves them
// back. Between the two bounds the queue stays as it is, so a size that hovers around one
// bound does not move events to and fro at every push. The order is the same either way.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/runtime/clock.hpp"

namespace squall {

// A queued event: 16 bytes, the time and one word holding the 32-bit scheduling sequence
// over the 32-bit slot of the event loop's side table (sim/event_loop.hpp).
struct QueuedEvent {
  // The sequence in the high half, the slot in the low half, so that (at, seq_slot) is the
  // event's order (the slot never decides: sequences are unique).
  std::uint64_t seq_slot;
  TimePoint at;
  std::uint32_t slot() const { return static_cast<std::uint32_t>(seq_slot); }
  static std::uint64_t pack(std::uint32_t seq, std::uint32_t slot) {
    return (static_cast<std::uint64_t>(seq) << 32) | slot;
  }
  // (at, seq_slot) order. Times are never negative (the loop's clock starts at 0).
  friend bool operator<(const QueuedEvent& a, const QueuedEvent& b) {
    return a.at != b.at ? a.at < b.at : a.seq_slot < b.seq_slot;
  }
};
static_assert(sizeof(QueuedEvent) == 16);

class EventQueue {
 public:
  // The sorted array's size (see the header): 64 events, 1 KiB, inside the queue.
  static constexpr std::size_t kSmallCapacity = 64;
  // A pop that leaves at most this many events in the radix heap moves them to the array
  // (at most a quarter of its size, so that it then has room).
  static constexpr std::size_t kSmallReturn = 16;

  // `small_limit` (at most kSmallCapacity) bounds the sorted array; 0 keeps every event in
  // the radix heap (the tests of the heap use it).
  explicit EventQueue(std::size_t small_limit = kSmallCapacity)
      : small_limit_(static_cast<std::uint32_t>(std::min(small_limit, kSmallCapacity))),
        small_return_(std::min<std::uint32_t>(kSmallReturn, small_limit_ / 4)),
        small_mode_(small_limit_ > 0) {}

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // Whether the events are in the sorted array (true) or the radix heap (see the header).
  bool in_sorted_array() const { return small_mode_; }

  // Adds `e` when that is an append into storage its bucket already has, and returns
  // true; otherwise changes nothing and returns false, and push() must add it. The
  // common case, with no call in it, so that the event loop's schedule_at inlines it and
  // saves no registers (bench/README.md).
  bool try_push(const QueuedEvent& e) {
    if (small_mode_) {
      if (small_tail_ >= small_limit_) return false;
      insert_small(e);
      return true;
    }
    const std::uint64_t t = time_bits(e);
    if (t < last_) [[unlikely]]
      return false;
    const std::uint64_t differ = t ^ last_;
    if (differ == 0) {
      if (present_.size() == present_.capacity()) return false;
      present_.push_back(e);
      ++size_;
      return true;
    }
    const Bucket b = bucket_of(t, differ);
    std::vector<QueuedEvent>& bucket = buckets_[b.index()];
    if (bucket.size() == bucket.capacity()) return false;
    remember_push(b, bucket, e);
    bucket.push_back(e);
    ++size_;
    levels_ |= std::uint32_t{1} << b.level;
    digits_[b.level] |= std::uint64_t{1} << b.digit;
    return true;
  }

  // Adds `e` (e.at >= 0). O(1), but for a time before the last one taken out (see the
  // header).
  void push(const QueuedEvent& e) {
    if (small_mode_ && (small_tail_ < small_limit_ || make_room_small())) {
      insert_small(e);
      return;
    }
    ++size_;
    file(e);
  }

  // The earliest event by (time, sequence); the queue must not be empty. When the present
  // is empty this scans the first non-empty bucket and remembers where its earliest event
  // is, which later calls and the pop that follows use.
  const QueuedEvent& earliest() {
    if (small_mode_) return small_[small_head_];
    if (head_ < present_.size()) return present_[head_];
    if (min_bucket_ == kNoBucket) find_min(first_bucket());
    return buckets_[min_bucket_][min_index_];
  }

  // The earliest event if finding it scans at most kCheapScan events, else null (and null
  // on an empty queue): for a hint, such as the event loop's prefetch of the next frame,
  // which must not cost a scan per event. earliest() scans the whole first bucket, and a
  // near push forgets what it found; with many far events in that bucket (slow calls of
  // many tasks in flight) and one near event run between pushes, a scan per event made
  // the loop quadratic in the tasks in flight.
  const QueuedEvent* earliest_if_cheap() {
    if (size_ == 0) return nullptr;
    if (small_mode_) return &small_[small_head_];
    if (head_ < present_.size()) return &present_[head_];
    if (min_bucket_ == kNoBucket) {
      const std::size_t b = first_bucket();
      if (buckets_[b].size() > kCheapScan) return nullptr;
      find_min(b);
    }
    return &buckets_[min_bucket_][min_index_];
  }
  static constexpr std::size_t kCheapScan = 16;

  // Removes and returns the earliest event; the queue must not be empty.
  QueuedEvent pop() {
    if (small_mode_) {
      const QueuedEvent e = small_[small_head_++];
      if (small_head_ == small_tail_) small_head_ = small_tail_ = 0;
      --size_;
      last_ = time_bits(e);
      return e;
    }
    const QueuedEvent e = pop_from_heap();
    if (size_ <= small_return_ && small_limit_ > 0) [[unlikely]]
      to_small();
    return e;
  }

  // Removes every event `dead(e)` is true of, keeping the others' order.
  template <class Dead>
  void erase_if(Dead dead) {
    if (small_mode_) {
      const auto begin = small_.begin();
      const auto end = std::remove_if(begin + small_head_, begin + small_tail_, dead);
      const auto kept = static_cast<std::uint32_t>(end - (begin + small_head_));
      std::copy(begin + small_head_, end, begin);
      small_head_ = 0;
      small_tail_ = kept;
      size_ = kept;
      return;
    }
    present_.erase(present_.begin(), present_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
    std::erase_if(present_, dead);
    size_ = present_.size();
    levels_ = 0;
    digits_ = {};
    for (std::size_t i = 0; i < kBuckets; ++i) {
      std::erase_if(buckets_[i], dead);
      if (buckets_[i].empty()) continue;
      size_ += buckets_[i].size();
      const std::size_t level = i / kDigits;
      levels_ |= std::uint32_t{1} << level;
      digits_[level] |= std::uint64_t{1} << (i % kDigits);
    }
    min_bucket_ = kNoBucket;
  }

  // Removes every event and returns them sorted by (time, sequence).
  std::vector<QueuedEvent> take_sorted();

 private:
  // Adds `e` to the sorted array, which has room at its end.
  void insert_small(const QueuedEvent& e) {
    std::uint32_t i = small_tail_++;
    while (i > small_head_ && e < small_[i - 1]) {
      small_[i] = small_[i - 1];
      --i;
    }
    small_[i] = e;
    ++size_;
    // The radix heap files events against last_, so none may be earlier (see push).
    if (time_bits(e) < last_) [[unlikely]]
      last_ = time_bits(e);
  }
  // The sorted array is full at its end: moves its events to its start and returns true
  // when they fill at most half of it, else files them all in the radix heap (the array
  // is left empty and unused) and returns false.
  bool make_room_small();
  // Files every event of the radix heap in the sorted array, which is empty; there are at
  // most small_return_.
  void to_small();
  // The radix heap's pop; it must hold an event.
  QueuedEvent pop_from_heap() {
    if (head_ == present_.size()) return pop_first_bucket();
    const QueuedEvent e = present_[head_++];
    if (head_ == present_.size()) {
      present_.clear();
      head_ = 0;
    }
    --size_;
    return e;
  }
  // Files `e` in the radix heap (size_ already counts it).
  void file(const QueuedEvent& e) {
    const std::uint64_t t = time_bits(e);
    if (t < last_) [[unlikely]]
      rebase(t);
    const std::uint64_t differ = t ^ last_;
    if (differ == 0) {
      present_.push_back(e);
      return;
    }
    const Bucket b = bucket_of(t, differ);
    std::vector<QueuedEvent>& bucket = buckets_[b.index()];
    remember_push(b, bucket, e);
    bucket.push_back(e);
    levels_ |= std::uint32_t{1} << b.level;
    digits_[b.level] |= std::uint64_t{1} << b.digit;
  }

  static constexpr unsigned kDigitBits = 6;
  static constexpr std::size_t kDigits = std::size_t{1} << kDigitBits;  // a digit mask is one word
  static constexpr std::size_t kLevels = (64 + kDigitBits - 1) / kDigitBits;
  static constexpr std::size_t kBuckets = kLevels * kDigits;
  static constexpr std::size_t kNoBucket = kBuckets;
  // The most events' worth of storage an emptied bucket keeps (4 KiB): 2.8 MiB at most
  // over all buckets.
  static constexpr std::size_t kKeptCapacity = 256;
  struct Bucket {
    unsigned level;
    unsigned digit;
    std::size_t index() const { return level * kDigits + digit; }
  };
  static std::uint64_t time_bits(const QueuedEvent& e) { return static_cast<std::uint64_t>(e.at); }
  // The bucket of a time `t` that differs from last_ (differ = t ^ last_, not 0).
  static Bucket bucket_of(std::uint64_t t, std::uint64_t differ) {
    const unsigned level = static_cast<unsigned>(std::bit_width(differ) - 1) / kDigitBits;
    return {level, static_cast<unsigned>((t >> (level * kDigitBits)) & (kDigits - 1))};
  }
  // The first non-empty bucket; there must be one.
  std::size_t first_bucket() const {
    const auto level = static_cast<unsigned>(std::countr_zero(levels_));
    return Bucket{level, static_cast<unsigned>(std::countr_zero(digits_[level]))}.index();
  }
  // Keeps the remembered earliest (see earliest()) true when `e` is about to be appended
  // to `bucket`, bucket b: an event in the remembered bucket may be earlier than the
  // remembered event, and one in a bucket before it is.
  void remember_push(Bucket b, const std::vector<QueuedEvent>& bucket, const QueuedEvent& e) {
    if (b.index() <= min_bucket_) [[unlikely]] {
      if (b.index() < min_bucket_) {
        min_bucket_ = kNoBucket;
      } else if (e < bucket[min_index_]) {
        min_index_ = bucket.size();
      }
    }
  }
  void find_min(std::size_t b) {
    const std::vector<QueuedEvent>& bucket = buckets_[b];
    std::size_t best = 0;
    for (std::size_t i = 1; i < bucket.size(); ++i) {
      if (bucket[i] < bucket[best]) best = i;
    }
    min_bucket_ = b;
    min_index_ = best;
  }
  // With the present empty: takes out the first non-empty bucket's earliest event, makes
  // its time last_ and files the bucket's other events again against it (see the header).
  // A bucket of one event, the common case, is taken out without a call (as try_push);
  // one of more events by pop_and_refile.
  QueuedEvent pop_first_bucket();
  QueuedEvent pop_and_refile();
  // The step both take: `first`, just taken out of bucket b, becomes last_, and b's bit
  // is cleared (its other events, if any, are filed again by the caller).
  [[gnu::always_inline]] void took_from_bucket(std::size_t b, const QueuedEvent& first) {
    --size_;
    last_ = time_bits(first);
    const std::size_t level = b / kDigits;
    digits_[level] &= ~(std::uint64_t{1} << (b % kDigits));
    if (digits_[level] == 0) levels_ &= ~(std::uint32_t{1} << level);
  }
  // Files every event again against `t`, earlier than last_.
  void rebase(std::uint64_t t);

  // The events at last_, from head_ on, in sequence order.
  std::vector<QueuedEvent> present_;
  std::size_t head_ = 0;
  // The later events by (level, digit), unordered within a bucket.
  std::array<std::vector<QueuedEvent>, kBuckets> buckets_;
  std::uint64_t last_ = 0;
  std::uint32_t levels_ = 0;                     // bit l set when level l has a non-empty bucket
  std::array<std::uint64_t, kLevels> digits_{};  // per level, bit d set when bucket d is not empty
  std::size_t size_ = 0;
  // The first non-empty bucket and where its earliest event is, when known (kNoBucket:
  // not known). A push into an earlier bucket forgets it.
  std::size_t min_bucket_ = kNoBucket;
  std::size_t min_index_ = 0;

  // The sorted array (see the header): events from small_head_ to small_tail_, in order,
  // while small_mode_; at most small_limit_ of them.
  std::uint32_t small_limit_;
  std::uint32_t small_return_;  // kSmallReturn, or less for a small limit
  bool small_mode_;
  std::uint32_t small_head_ = 0;
  std::uint32_t small_tail_ = 0;
  std::array<QueuedEvent, kSmallCapacity> small_{};
};

}  // namespace squall

#include "sim/event_queue.hpp"

#include <algorithm>
#include <cassert>

namespace squall {

QueuedEvent EventQueue::pop_first_bucket() {
  assert(size_ > 0 && head_ == 0 && present_.empty() && !small_mode_);
  if (min_bucket_ == kNoBucket) find_min(first_bucket());
  const std::size_t b = min_bucket_;
  std::vector<QueuedEvent>& source = buckets_[b];
  if (source.size() > 1) return pop_and_refile();
  min_bucket_ = kNoBucket;
  const QueuedEvent first = source.front();
  source.pop_back();
  took_from_bucket(b, first);
  return first;
}

[[gnu::noinline]] QueuedEvent EventQueue::pop_and_refile() {
  const std::size_t b = min_bucket_;
  min_bucket_ = kNoBucket;
  std::vector<QueuedEvent>& source = buckets_[b];
  const QueuedEvent first = source[min_index_];
  source[min_index_] = source.back();
  source.pop_back();
  took_from_bucket(b, first);
  if (source.empty()) return first;
  // Every other event of `source` agrees with last_ on b's level and above, so it lands on
  // a lower level (or in the present).
  for (const QueuedEvent& e : source) {
    const std::uint64_t t = time_bits(e);
    const std::uint64_t differ = t ^ last_;
    if (differ == 0) {
      present_.push_back(e);
      continue;
    }
    const Bucket to = bucket_of(t, differ);
    buckets_[to.index()].push_back(e);
    levels_ |= std::uint32_t{1} << to.level;
    digits_[to.level] |= std::uint64_t{1} << to.digit;
  }
  // A bucket keeps its storage for the next events filed in it, unless that is large:
  // every bucket of a level in turn holds the near future, so with large buckets kept the
  // queue would hold as much memory as the busiest bucket's peak times the buckets of a
  // level (+300 bytes per task in flight at 500,000 tasks/s, bench/README.md).
  if (source.capacity() > kKeptCapacity) {
    std::vector<QueuedEvent>().swap(source);
  } else {
    source.clear();
  }
  // The events at the new last_ came in no particular order; all of them follow `first`,
  // the earliest.
  if (present_.size() > 1) std::sort(present_.begin(), present_.end());
  return first;
}

void EventQueue::rebase(std::uint64_t t) {
  // The radix heap's: file() calls it, for an event it then files, which size_ counts.
  const std::size_t counted = size_;
  const std::vector<QueuedEvent> all = take_sorted();
  last_ = t;
  small_mode_ = false;
  size_ = counted;
  for (const QueuedEvent& e : all) file(e);
}

bool EventQueue::make_room_small() {
  const std::uint32_t held = small_tail_ - small_head_;
  if (held <= small_limit_ / 2 && small_head_ > 0) {
    std::copy(small_.begin() + small_head_, small_.begin() + small_tail_, small_.begin());
    small_head_ = 0;
    small_tail_ = held;
    return true;
  }
  // In order, so that events at last_ reach the present in sequence order; none is
  // earlier than last_ (insert_small).
  small_mode_ = false;
  for (std::uint32_t i = small_head_; i < small_tail_; ++i) file(small_[i]);
  small_head_ = small_tail_ = 0;
  return false;
}

void EventQueue::to_small() {
  assert(small_head_ == 0 && small_tail_ == 0 && size_ <= small_return_);
  std::uint32_t n = 0;
  for (std::size_t i = head_; i < present_.size(); ++i) small_[n++] = present_[i];
  present_.clear();
  head_ = 0;
  // Only the non-empty buckets, found from the masks, not all 704.
  for (std::uint32_t levels = levels_; levels != 0; levels &= levels - 1) {
    const auto level = static_cast<unsigned>(std::countr_zero(levels));
    for (std::uint64_t digits = digits_[level]; digits != 0; digits &= digits - 1) {
      std::vector<QueuedEvent>& bucket =
          buckets_[Bucket{level, static_cast<unsigned>(std::countr_zero(digits))}.index()];
      for (const QueuedEvent& e : bucket) small_[n++] = e;
      bucket.clear();
    }
    digits_[level] = 0;
  }
  levels_ = 0;
  min_bucket_ = kNoBucket;
  std::sort(small_.begin(), small_.begin() + n);
  small_tail_ = n;
  small_mode_ = true;
}

std::vector<QueuedEvent> EventQueue::take_sorted() {
  std::vector<QueuedEvent> all;
  all.reserve(size_);
  if (small_mode_) {
    all.assign(small_.begin() + small_head_, small_.begin() + small_tail_);
    small_head_ = small_tail_ = 0;
    size_ = 0;
    return all;
  }
  all.insert(all.end(), present_.begin() + static_cast<std::ptrdiff_t>(head_), present_.end());
  present_.clear();
  head_ = 0;
  for (std::vector<QueuedEvent>& bucket : buckets_) {
    all.insert(all.end(), bucket.begin(), bucket.end());
    bucket.clear();
  }
  levels_ = 0;
  digits_ = {};
  size_ = 0;
  min_bucket_ = kNoBucket;
  small_mode_ = small_limit_ > 0;  // empty: new events go to the sorted array again
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace squall

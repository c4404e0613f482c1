#include "sim/event_queue.hpp"

#include <algorithm>
#include <cassert>

namespace squall {

QueuedEvent EventQueue::pop_first_bucket() {
  assert(size_ > 0 && head_ == 0 && present_.empty());
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
  std::vector<QueuedEvent> all = take_sorted();
  last_ = t;
  for (const QueuedEvent& e : all) push(e);
}

std::vector<QueuedEvent> EventQueue::take_sorted() {
  std::vector<QueuedEvent> all;
  all.reserve(size_);
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
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace squall

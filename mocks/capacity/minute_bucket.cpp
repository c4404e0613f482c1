#include "mocks/capacity/minute_bucket.hpp"

#include <algorithm>
#include <cassert>

namespace squall {

void MinuteBucket::refill(TimePoint now) {
  assert(now >= last_);
  const Nanos elapsed = now - last_;
  last_ = now;
  if (!limit_) return;
  const std::int64_t full = *limit_ * kMinute;
  if (level_ == full) return;
  // Compared before multiplying, so that a long idle spell cannot overflow.
  const std::int64_t to_full_ns = (full - level_ + *limit_ - 1) / *limit_;
  level_ = elapsed >= to_full_ns ? full : level_ + elapsed * *limit_;
}

void MinuteBucket::set_limit(std::optional<std::int64_t> limit, TimePoint now) {
  assert(!limit || *limit > 0);
  refill(now);
  const bool had_limit = limit_.has_value();
  limit_ = limit;
  if (!limit_) return;
  const std::int64_t full = *limit_ * kMinute;
  level_ = had_limit ? std::min(level_, full) : full;
}

Nanos MinuteBucket::wait_for(std::int64_t cost, TimePoint now) {
  refill(now);
  if (!limit_) return 0;
  if (cost > *limit_) return kNever;
  const std::int64_t need = cost * kMinute;
  if (level_ >= need) return 0;
  return (need - level_ + *limit_ - 1) / *limit_;
}

void MinuteBucket::take(std::int64_t cost) {
  if (!limit_) return;
  assert(level_ >= cost * kMinute);
  level_ -= cost * kMinute;
}

void MinuteBucket::charge(std::int64_t cost) {
  if (!limit_) return;
  const std::int64_t floor = -(*limit_ * kMinute / 2);
  level_ = std::max(level_ - cost * kMinute, floor);
}

std::int64_t MinuteBucket::remaining() const { return limit_ ? std::max<std::int64_t>(level_, 0) / kMinute : -1; }

Nanos MinuteBucket::until_full() const {
  if (!limit_) return 0;
  return (*limit_ * kMinute - level_ + *limit_ - 1) / *limit_;
}

}  // namespace squall

#include "engine/strategies/breaker_window.hpp"

#include <array>
#include <cassert>

namespace squall {

std::string_view to_string(SlidingWindowType type) {
  static constexpr std::array<std::string_view, kSlidingWindowTypeCount> kNames{
      SQUALL_SLIDING_WINDOW_TYPES(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(type)];
}

BreakerWindow::BreakerWindow(SlidingWindowType type, std::int64_t size)
    : type_(type), size_(size), buckets_(static_cast<std::size_t>(size)) {
  assert(size >= 1);
}

namespace {

void add(BreakerWindow::Counts& to, const BreakerWindow::Counts& c, std::int64_t sign) {
  to.calls += sign * c.calls;
  to.failures += sign * c.failures;
  to.slow += sign * c.slow;
}

}  // namespace

BreakerWindow::Bucket& BreakerWindow::current(TimePoint now) {
  const std::int64_t second = now / kSecond;
  Bucket& b = buckets_[static_cast<std::size_t>(second % size_)];
  if (b.second != second) {
    // The slot last counted second - k * size for some k >= 1 (or nothing): it left the
    // window. Every other slot that left it is cleared now too, so the totals hold only
    // the seconds still in the window (the sweep is `size` steps, once per second seen).
    for (Bucket& old : buckets_) {
      if (old.second >= 0 && old.second <= second - size_) {
        add(total_, old.counts, -1);
        old = Bucket{};
      }
    }
    b.second = second;
  }
  return b;
}

void BreakerWindow::record(TimePoint now, bool failure, bool slow) {
  const Counts c{1, failure ? 1 : 0, slow ? 1 : 0};
  if (type_ == SlidingWindowType::time_based) {
    add(current(now).counts, c, 1);
  } else {
    // The ring's slot for this call held the call `size` calls ago, which leaves.
    Bucket& b = buckets_[static_cast<std::size_t>(recorded_ % size_)];
    add(total_, b.counts, -1);
    b.counts = c;
    ++recorded_;
  }
  add(total_, c, 1);
}

BreakerWindow::Counts BreakerWindow::counts(TimePoint now) {
  if (type_ == SlidingWindowType::time_based) current(now);
  return total_;
}

void BreakerWindow::clear() {
  for (Bucket& b : buckets_) b = Bucket{};
  recorded_ = 0;
  total_ = Counts{};
}

}  // namespace squall

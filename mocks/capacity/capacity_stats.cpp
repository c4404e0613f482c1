#include "mocks/capacity/capacity_stats.hpp"

#include <algorithm>
#include <cassert>

namespace squall {

CapacityStats::CapacityStats(Nanos window, std::size_t max_windows) : window_(window), max_windows_(max_windows) {
  assert(window > 0 && max_windows >= 1);
}

std::size_t CapacityStats::index_of(TimePoint t) const {
  return std::min(static_cast<std::size_t>(t / window_), max_windows_ - 1);
}

CapacityWindow& CapacityStats::at(TimePoint t) {
  const std::size_t i = index_of(t);
  if (i >= windows_.size()) windows_.resize(i + 1);
  return windows_[i];
}

void CapacityStats::integrate(TimePoint from, TimePoint to, std::int64_t level, std::int64_t CapacityWindow::*field) {
  if (level == 0 || to <= from) return;
  // One span per window crossed; the last window takes whatever lies beyond it.
  while (from < to) {
    const std::size_t i = index_of(from);
    const TimePoint window_end = i + 1 == max_windows_ ? to : static_cast<TimePoint>(i + 1) * window_;
    const TimePoint end = std::min(to, window_end);
    at(from).*field += level * (end - from);
    from = end;
  }
}

void CapacityStats::set_level(TimePoint now, std::int64_t value, Level& level, std::int64_t CapacityWindow::*integral,
                              std::int64_t CapacityWindow::*window_max, std::int64_t& run_max) {
  integrate(level.since, now, level.value, integral);
  level.value = value;
  level.since = now;
  CapacityWindow& w = at(now);
  w.*window_max = std::max(w.*window_max, value);
  run_max = std::max(run_max, value);
}

void CapacityStats::set_queue(TimePoint now, std::int64_t length) {
  set_level(now, length, queue_, &CapacityWindow::queue_ns, &CapacityWindow::queue_max, totals_.max_queue);
}

void CapacityStats::set_in_flight(TimePoint now, std::int64_t count) {
  set_level(now, count, in_flight_, &CapacityWindow::in_flight_ns, &CapacityWindow::in_flight_max,
            totals_.max_in_flight);
}

void CapacityStats::finish(TimePoint end) {
  integrate(queue_.since, end, queue_.value, &CapacityWindow::queue_ns);
  integrate(in_flight_.since, end, in_flight_.value, &CapacityWindow::in_flight_ns);
  queue_.since = in_flight_.since = end;
}

}  // namespace squall

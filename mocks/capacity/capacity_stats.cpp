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

void CapacityStats::integrate(TimePoint from, TimePoint to, std::int64_t level,
                              std::int64_t CapacityWindow::*field) {
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

void CapacityStats::set_queue(TimePoint now, std::int64_t length) {
  integrate(queue_since_, now, queue_, &CapacityWindow::queue_ns);
  queue_ = length;
  queue_since_ = now;
  CapacityWindow& w = at(now);
  w.queue_max = std::max(w.queue_max, length);
  totals_.max_queue = std::max(totals_.max_queue, length);
}

void CapacityStats::set_in_flight(TimePoint now, std::int64_t count) {
  integrate(in_flight_since_, now, in_flight_, &CapacityWindow::in_flight_ns);
  in_flight_ = count;
  in_flight_since_ = now;
  CapacityWindow& w = at(now);
  w.in_flight_max = std::max(w.in_flight_max, count);
  totals_.max_in_flight = std::max(totals_.max_in_flight, count);
}

void CapacityStats::finish(TimePoint end) {
  integrate(queue_since_, end, queue_, &CapacityWindow::queue_ns);
  integrate(in_flight_since_, end, in_flight_, &CapacityWindow::in_flight_ns);
  queue_since_ = in_flight_since_ = end;
}

}  // namespace squall

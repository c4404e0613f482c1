#include "sim/arrivals.hpp"

#include <cmath>

namespace squall {

ArrivalSchedule::ArrivalSchedule(const ArrivalConfig& config, TimePoint end) : config_(config), end_(end) {}

double ArrivalSchedule::rate_at(TimePoint t) const {
  double rate = config_.rate_per_s;
  for (const Burst& b : config_.bursts) {
    if (b.from <= t && t < b.to) rate = b.rate_per_s;
  }
  return rate;
}

TimePoint ArrivalSchedule::next_change(TimePoint t) const {
  TimePoint change = kNever;
  for (const Burst& b : config_.bursts) {
    if (b.from > t && b.from < change) change = b.from;
    if (b.to > t && b.to < change) change = b.to;
  }
  return change;
}

std::optional<TimePoint> ArrivalSchedule::next(Rng& rng) {
  // Each pass either returns an arrival or moves the cursor to the next rate change, so
  // the loop is bounded by the number of burst boundaries before `end_`.
  while (cursor_ < end_) {
    const double rate = rate_at(cursor_);
    const TimePoint change = next_change(cursor_);
    if (rate <= 0) {
      cursor_ = change;
      first_ = true;
      continue;
    }
    const double mean_gap_ns = 1e9 / rate;
    TimePoint candidate;
    if (config_.process == ArrivalProcess::constant) {
      candidate = first_ ? cursor_ : add_saturating(cursor_, std::llround(mean_gap_ns));
    } else {
      candidate = add_saturating(cursor_, std::llround(rng.exponential(mean_gap_ns)));
    }
    if (candidate >= change) {
      cursor_ = change;
      first_ = true;
      continue;
    }
    first_ = false;
    cursor_ = candidate;
    if (candidate >= end_) break;
    return candidate;
  }
  cursor_ = end_;
  return std::nullopt;
}

}  // namespace squall

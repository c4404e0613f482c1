#include "sim/arrivals.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace squall {
namespace {

// A gap of `ns` nanoseconds (a non-negative double) after `t`: at least 1 ns so that time
// advances, saturating at kNever.
TimePoint after_gap(TimePoint t, double ns) {
  if (!(ns < static_cast<double>(kNever - t))) return kNever;
  return t + std::max<Nanos>(1, std::llround(ns));
}

}  // namespace

ArrivalSchedule::ArrivalSchedule(const ArrivalConfig& config, TimePoint end)
    : base_rate_(config.rate_per_s), bursts_(config.bursts), end_(end), process_(config.process) {
  std::sort(bursts_.begin(), bursts_.end(), [](const Burst& a, const Burst& b) { return a.from < b.from; });
  for (std::size_t i = 1; i < bursts_.size(); ++i) assert(bursts_[i - 1].to <= bursts_[i].from);
}

const Burst* ArrivalSchedule::burst_at(TimePoint t) const {
  // The last burst starting at or before t is the only one that can contain it.
  auto it = std::upper_bound(bursts_.begin(), bursts_.end(), t, [](TimePoint x, const Burst& b) { return x < b.from; });
  if (it == bursts_.begin()) return nullptr;
  --it;
  return t < it->to ? &*it : nullptr;
}

double ArrivalSchedule::rate_at(TimePoint t) const {
  const Burst* b = burst_at(t);
  return b != nullptr ? b->rate_per_s : base_rate_;
}

TimePoint ArrivalSchedule::next_change(TimePoint t) const {
  if (const Burst* b = burst_at(t)) return b->to;
  const auto it = std::upper_bound(bursts_.begin(), bursts_.end(), t, [](TimePoint x, const Burst& b) { return x < b.from; });
  return it != bursts_.end() ? it->from : kNever;
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
    TimePoint candidate = cursor_;
    if (process_ == ArrivalProcess::poisson) {
      candidate = after_gap(cursor_, rng.exponential(mean_gap_ns));
    } else if (!first_) {
      candidate = after_gap(cursor_, mean_gap_ns);
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

#include "sim/arrivals.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "engine/runtime/rounding.hpp"

namespace squall {
namespace {

// The time `ns` nanoseconds (a non-negative double) after `start`, rounded to a whole
// nanosecond, saturating at kNever.
TimePoint at_offset(TimePoint start, double ns) {
  constexpr double kMaxOffset = 9.2e18;  // below 2^63, so the rounding cannot overflow
  if (!(ns < kMaxOffset)) return kNever;
  const Nanos rounded = round_non_negative(ns);  // inline, not a libm call per arrival
  return rounded >= kNever - start ? kNever : start + rounded;
}

}  // namespace

double expected_arrivals(const ArrivalConfig& config, Nanos duration) {
  const double seconds = static_cast<double>(std::max<Nanos>(duration, 0)) / 1e9;
  double expected = config.rate_per_s * seconds;
  for (const Burst& b : config.bursts) {
    const TimePoint from = std::clamp<TimePoint>(b.from, 0, duration);
    const TimePoint to = std::clamp<TimePoint>(b.to, from, duration);
    expected += (b.rate_per_s - config.rate_per_s) * static_cast<double>(to - from) / 1e9;
  }
  if (config.max_tasks) expected = std::min(expected, static_cast<double>(*config.max_tasks));
  return expected;
}

std::uint64_t count_constant_arrivals(const ArrivalConfig& config, Nanos duration) {
  assert(config.process == ArrivalProcess::constant);
  ArrivalSchedule schedule(config, duration);
  Xoshiro256 unused(0);  // constant arrivals draw nothing
  const std::uint64_t cap = config.max_tasks ? static_cast<std::uint64_t>(*config.max_tasks) : UINT64_MAX;
  std::uint64_t n = 0;
  while (n < cap && schedule.next(unused)) ++n;
  return n;
}

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
  const auto it =
      std::upper_bound(bursts_.begin(), bursts_.end(), t, [](TimePoint x, const Burst& b) { return x < b.from; });
  return it != bursts_.end() ? it->from : kNever;
}

void ArrivalSchedule::start_segment(TimePoint start, double rate) {
  // The rate integrated over the segment that ends here (its arrivals owed, whole or not).
  if (start != kNever) intensity_ += rate * static_cast<double>(start - segment_start_) / 1e9;
  segment_start_ = start;
  offset_ns_ = 0;
}

std::optional<TimePoint> ArrivalSchedule::next(Rng& rng) {
  // Each pass either returns an arrival or moves to the next rate change, so the loop is
  // bounded by the number of burst boundaries before `end_`.
  while (segment_start_ < end_) {
    // The segment's rate and end, looked up once per segment rather than per arrival.
    if (looked_up_for_ != segment_start_) {
      segment_rate_ = rate_at(segment_start_);
      segment_mean_gap_ns_ = segment_rate_ > 0 ? 1e9 / segment_rate_ : 0;
      segment_change_ = next_change(segment_start_);
      looked_up_for_ = segment_start_;
    }
    const double rate = segment_rate_;
    const TimePoint change = segment_change_;
    if (rate <= 0) {
      start_segment(change, 0);
      continue;
    }
    // The arrival's exact offset in the segment, rounded once (see the header).
    TimePoint candidate = 0;
    double offset = 0;
    if (process_ == ArrivalProcess::poisson) {
      offset = offset_ns_ + rng.exponential(segment_mean_gap_ns_);
    } else {
      // Arrival k is where the integrated rate reaches k (k6's ramping-arrival-rate), so a
      // rate change keeps the spacing's phase; never before the segment's start.
      offset = std::max(0.0, (static_cast<double>(arrivals_) - intensity_) * 1e9 / rate);
    }
    candidate = at_offset(segment_start_, offset);
    // At least 1 ns after the previous arrival, so that time always advances.
    if (candidate <= last_) candidate = last_ + 1;
    if (candidate >= change) {
      start_segment(change, rate);
      continue;
    }
    if (candidate >= end_) break;
    offset_ns_ = offset;
    ++arrivals_;
    last_ = candidate;
    return candidate;
  }
  segment_start_ = end_;
  return std::nullopt;
}

}  // namespace squall

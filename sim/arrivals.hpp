// ArrivalSchedule: the arrival times of tasks under a piecewise-constant rate.
//
// The rate is arrivals.rate_per_s except inside bursts, where the burst's rate applies.
// Bursts must not overlap (the scenario loader rejects overlapping bursts). Poisson
// arrivals draw exponential gaps at the current rate; because the exponential is
// memoryless, a gap that crosses a rate change is discarded and redrawn from the change at
// the new rate, which samples the non-homogeneous Poisson process exactly for
// piecewise-constant rates (no thinning needed; Lewis and Shedler 1979 treat the general
// case). Constant arrivals are 1/rate apart, the first at time 0, as in k6's
// constant-arrival-rate executor; across rate changes the k-th arrival (k = 0, 1, ...) is
// where the rate integrated from 0 reaches k, as k6's ramping-arrival-rate executor places
// its iterations, so a run of T seconds holds ceil(integral of the rate over [0, T))
// arrivals whatever its bursts (0.1/s for 100 s is 10 arrivals with or without bursts at
// 0.1/s), and a burst neither adds nor loses an arrival at its edges. A rate of 0 means no
// arrivals until the next change.
//
// Times are kept exact within a rate segment and rounded once per arrival: the k-th
// constant arrival, in a segment starting at s with the rate integrated to I there, is at
// s + round((k - I) * 1e9 / rate) ns, and a Poisson arrival at s + round(sum of its
// segment's exponential gaps), so rounding errors never accumulate (9 per second for 10 s
// is 90 arrivals, not 91 from 111,111,111 ns gaps). Arrivals are at least 1 ns apart (so
// time always advances) and saturate at kNever (so tiny rates cannot overflow).
#pragma once

#include <optional>
#include <vector>

#include "engine/runtime/rng.hpp"
#include "sim/workload_config.hpp"

namespace squall {

// The expected number of tasks that arrive in [0, duration): the rate integrated over the
// run (bursts clipped to it), capped at max_tasks. For constant arrivals the count is this
// rounded up (up to the rounding of times to whole nanoseconds); for Poisson ones, its mean.
double expected_arrivals(const ArrivalConfig& config, Nanos duration);

// The exact number of tasks constant arrivals start in [0, duration), max_tasks applied:
// the schedule below run to its end, so times rounded to whole nanoseconds count as the
// run counts them (rate 1 over "3.000000001s" starts 4, at 0, 1, 2 and 3 s, where the
// integrated rate rounded up with a tolerance gave 3). O(arrivals): for a count a user
// reads before a run, not for millions. `config.process` must be constant.
std::uint64_t count_constant_arrivals(const ArrivalConfig& config, Nanos duration);

class ArrivalSchedule {
 public:
  // Arrivals happen in [0, end). `config.bursts` must not overlap; they may be unsorted.
  ArrivalSchedule(const ArrivalConfig& config, TimePoint end);

  // The next arrival time, or nullopt when no arrival happens before `end`.
  std::optional<TimePoint> next(Rng& rng);

  // The rate in force at time t, and the first time after t at which it changes (kNever
  // if none). O(log bursts).
  double rate_at(TimePoint t) const;
  TimePoint next_change(TimePoint t) const;

 private:
  // The burst containing t, or nullptr.
  const Burst* burst_at(TimePoint t) const;

  double base_rate_;
  std::vector<Burst> bursts_;  // sorted by `from`
  TimePoint end_;
  // Moves to the segment starting at `start` (a rate change), the one ending there having
  // had `rate`.
  void start_segment(TimePoint start, double rate);

  TimePoint segment_start_ = 0;  // where the current rate segment began
  std::int64_t arrivals_ = 0;    // constant process: arrivals so far
  double intensity_ = 0;         // constant process: the rate integrated over [0, segment_start_)
  double offset_ns_ = 0;         // poisson process: the previous arrival, exact, since segment_start_
  TimePoint last_ = -1;          // the previous arrival (-1: none yet)
  // rate_at(segment_start_) and next_change(segment_start_), for segment_start_ ==
  // looked_up_for_ (-1: not yet looked up; segments start at 0 or later).
  TimePoint looked_up_for_ = -1;
  double segment_rate_ = 0;
  double segment_mean_gap_ns_ = 0;  // 1e9 / segment_rate_: a Poisson arrival's mean gap, divided once
  TimePoint segment_change_ = 0;
  ArrivalProcess process_;
};

}  // namespace squall

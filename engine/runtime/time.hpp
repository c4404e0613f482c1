// Virtual and real time as integer nanoseconds.
//
// Time in squall is never floating point (DESIGN section 3): a TimePoint is a count of
// nanoseconds since the start of the run, a Nanos a signed duration. int64 nanoseconds
// cover +-292 years, far beyond any scenario.
#pragma once

#include <cstdint>
#include <limits>

namespace squall {

using Nanos = std::int64_t;      // a duration in nanoseconds
using TimePoint = std::int64_t;  // nanoseconds since the start of the run

inline constexpr Nanos kNanosecond = 1;
inline constexpr Nanos kMicrosecond = 1'000;
inline constexpr Nanos kMillisecond = 1'000'000;
inline constexpr Nanos kSecond = 1'000'000'000;
inline constexpr Nanos kMinute = 60 * kSecond;
inline constexpr Nanos kHour = 60 * kMinute;

// "Never": a deadline that does not expire, an open-ended window.
inline constexpr TimePoint kNever = std::numeric_limits<TimePoint>::max();

// The longest duration a scenario may give (a run's length, a deadline, a timeout, a
// latency): 100 years (876000h). Far beyond any scenario, it leaves room below int64's
// 292 years, so that a run's time plus any of them cannot overflow, and it keeps every
// deadline and timeout shorter than the longest latency a provider answers with
// (kMaxLatency, mocks/latency.hpp): a call whose latency is cut to that bound still
// misses them, as the uncut one would.
inline constexpr Nanos kLongestScenarioDuration = 876'000 * kHour;

constexpr Nanos millis(std::int64_t n) { return n * kMillisecond; }
constexpr Nanos seconds(std::int64_t n) { return n * kSecond; }

// Reports show milliseconds; this is the one place nanoseconds become a double.
constexpr double to_millis(Nanos d) { return static_cast<double>(d) / 1e6; }

// Saturating addition so that `now + timeout` never overflows past kNever.
constexpr TimePoint add_saturating(TimePoint t, Nanos d) {
  if (d > 0 && t > kNever - d) return kNever;
  return t + d;
}

}  // namespace squall

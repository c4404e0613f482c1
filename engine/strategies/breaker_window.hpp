// breaker_window: the sliding window of call results a rate-based circuit breaker judges
// (engine/strategies/circuit_breaker.hpp), as resilience4j's CircuitBreakerMetrics keeps it.
//
// count_based: the results of the last `size` calls, a ring of `size` entries
//   (resilience4j's FixedSizeSlidingWindowMetrics): the call recorded after the ring is
//   full replaces the oldest.
// time_based: the results of the calls that finished in the last `size` seconds, in one
//   bucket per second, `size` buckets (resilience4j's SlidingTimeWindowMetrics: bounded
//   memory whatever the load). At time t the counts are those of the buckets for seconds
//   floor(t / 1 s) - size + 1 up to floor(t / 1 s), the current partial second included;
//   a result is counted in the second it was recorded in.
//
// Each result is a call (always), a failure or not, a slow call or not (both may hold).
// Counts are exact integers; memory is `size` entries either way.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/runtime/time.hpp"
#include "engine/vocabulary.hpp"

namespace squall {

// resilience4j's SlidingWindowType, in snake case. X(name, what the window holds)
#define SQUALL_SLIDING_WINDOW_TYPES(X)                               \
  X(count_based, "the last `size` calls (resilience4j COUNT_BASED)") \
  X(time_based, "the calls that finished in the last `size` seconds (TIME_BASED)")

enum class SlidingWindowType : std::uint8_t { SQUALL_SLIDING_WINDOW_TYPES(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kSlidingWindowTypeCount = 0 SQUALL_SLIDING_WINDOW_TYPES(SQUALL_COUNT);
std::string_view to_string(SlidingWindowType type);

class BreakerWindow {
 public:
  struct Counts {
    std::int64_t calls = 0;
    std::int64_t failures = 0;
    std::int64_t slow = 0;
  };

  // `size`: calls (count_based) or seconds (time_based); >= 1.
  BreakerWindow(SlidingWindowType type, std::int64_t size);

  // Records one call's result, finished at `now`.
  void record(TimePoint now, bool failure, bool slow);
  // The counts of the window as of `now` (time_based: the seconds that left it are
  // dropped first, so `now` must not go back in time).
  Counts counts(TimePoint now);
  // Forgets every result (a new state period starts with an empty window).
  void clear();

 private:
  struct Bucket {
    std::int64_t second = -1;  // time_based: the second it counts; -1: never used
    Counts counts;
  };
  // time_based: the bucket of `now`'s second, after dropping the seconds that left.
  Bucket& current(TimePoint now);

  SlidingWindowType type_;
  std::int64_t size_;
  // count_based: one bucket per call (counts of 0 or 1), a ring; time_based: one per second.
  std::vector<Bucket> buckets_;
  std::int64_t recorded_ = 0;  // count_based: calls recorded since the last clear
  Counts total_;               // the sums over the buckets
};

}  // namespace squall

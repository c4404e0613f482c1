// CapacityStats: what a provider's capacity layer saw, as totals and per time window, for
// the report (reports/report.hpp, CapacityReport).
//
// Counters are added to the window of the time they happen; queue length and in-flight
// requests are levels, integrated over time (level x nanoseconds) per window so that the
// report gives their time-weighted mean, with their maximum per window. Windows have the
// recorder's width (reports/recorder.hpp, RecorderOptions::window); events beyond
// `max_windows` fold into the last window, as the recorder's series do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/runtime/time.hpp"

namespace squall {

struct CapacityWindow {
  std::uint64_t arrivals = 0;      // requests that reached the capacity layer (offered load)
  std::uint64_t goodput = 0;       // 2xx answers delivered to a client still waiting
  std::uint64_t rate_limited = 0;  // 429s from the request or token bucket
  std::uint64_t rejected = 0;      // queue full or queue timeout
  std::int64_t queue_ns = 0;       // integral of the queue length (requests x ns)
  std::int64_t in_flight_ns = 0;   // integral of the requests in service (requests x ns)
  std::int64_t queue_max = 0;      // longest queue seen in the window
  std::int64_t in_flight_max = 0;  // most requests in service in the window
};

struct CapacityTotals {
  std::uint64_t arrivals = 0;
  std::uint64_t goodput = 0;                // 2xx delivered to a waiting client
  std::uint64_t served = 0;                 // requests that held a slot to the end of their service
  std::uint64_t queued = 0;                 // requests that waited for a slot
  std::uint64_t rate_limited_requests = 0;  // 429: the requests-per-minute bucket was empty
  std::uint64_t rate_limited_tokens = 0;    // 429: the tokens-per-minute bucket was short
  std::uint64_t queue_full = 0;             // rejected: the queue was full
  std::uint64_t queue_timeouts = 0;         // rejected: waited queue_timeout without a slot
  // Requests whose client gave up (deadline or cancellation) before the answer: the
  // server went on queueing and serving them.
  std::uint64_t abandoned = 0;
  // Of those, the ones served anyway, and the service time they took (slot x ns): work
  // wasted on answers nobody read.
  std::uint64_t wasted_requests = 0;
  Nanos wasted_service = 0;
  std::int64_t max_queue = 0;
  std::int64_t max_in_flight = 0;
};

class CapacityStats {
 public:
  // `window` > 0; `max_windows` >= 1.
  CapacityStats(Nanos window, std::size_t max_windows);

  CapacityTotals& totals() { return totals_; }
  const CapacityTotals& totals() const { return totals_; }
  // The window of time `t`, created on first use.
  CapacityWindow& at(TimePoint t);
  // Sets the queue length or in-flight count from `now` on.
  void set_queue(TimePoint now, std::int64_t length);
  void set_in_flight(TimePoint now, std::int64_t count);
  // Integrates the levels up to `end` (the end of the run); call once, at the end.
  void finish(TimePoint end);

  Nanos window() const { return window_; }
  const std::vector<CapacityWindow>& windows() const { return windows_; }

 private:
  // Adds level x (to - from) to the windows [from, to) spans, via `field`.
  void integrate(TimePoint from, TimePoint to, std::int64_t level, std::int64_t CapacityWindow::*field);
  std::size_t index_of(TimePoint t) const;

  Nanos window_;
  std::size_t max_windows_;
  CapacityTotals totals_;
  std::vector<CapacityWindow> windows_;
  // A level and the time it has held since.
  struct Level {
    std::int64_t value = 0;
    TimePoint since = 0;
  };
  void set_level(TimePoint now, std::int64_t value, Level& level, std::int64_t CapacityWindow::*integral,
                 std::int64_t CapacityWindow::*window_max, std::int64_t& run_max);
  Level queue_;
  Level in_flight_;
};

}  // namespace squall

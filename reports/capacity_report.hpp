// What a provider's capacity layer (mocks/capacity/capacity_provider.hpp) saw in a run, as
// the report carries it: totals, and one row per time window of the report's time series
// (same width, from 0). The simulator fills it at the end of the run
// (Recorder::set_capacity); docs/ci.md describes every field of its JSON form.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/runtime/time.hpp"

namespace squall {

struct CapacityWindowRow {
  std::uint64_t arrivals = 0;      // requests that reached the server (offered load)
  std::uint64_t goodput = 0;       // 2xx answers delivered before the client gave up
  std::uint64_t rate_limited = 0;  // 429s from the request or token bucket
  std::uint64_t rejected = 0;      // queue full or queue timeout
  double queue_mean = 0;           // time-weighted mean queue length
  std::int64_t queue_max = 0;      // longest queue
  double in_flight_mean = 0;       // time-weighted mean of requests in service
  std::int64_t in_flight_max = 0;  // most requests in service
};

// Recovery after the provider's capacity drops (reports/capacity_recovery.hpp).
struct CapacityRecovery {
  Nanos time = 0;          // from the last drop's end to recovery, or to the run's end
  bool recovered = false;  // false: goodput never came back within the run
};

struct CapacityReport {
  std::string provider;
  std::uint64_t arrivals = 0;
  std::uint64_t goodput = 0;
  std::uint64_t served = 0;                 // requests served to the end of their service
  std::uint64_t queued = 0;                 // requests that waited for a slot
  std::uint64_t rate_limited_requests = 0;  // 429: requests-per-minute bucket empty
  std::uint64_t rate_limited_tokens = 0;    // 429: tokens-per-minute bucket short
  std::uint64_t queue_full = 0;             // rejected on arrival: queue full
  std::uint64_t queue_timeouts = 0;         // rejected after queue_timeout in the queue
  std::uint64_t abandoned = 0;              // clients that gave up before the answer
  std::uint64_t wasted_requests = 0;        // of which the server served anyway
  Nanos wasted_service = 0;                 // the service time those took
  std::int64_t max_queue = 0;
  std::int64_t max_in_flight = 0;
  std::vector<CapacityWindowRow> windows;  // by report window, from 0
  // Only for a provider with drops and a whole window before the first one.
  std::optional<CapacityRecovery> recovery;
};

}  // namespace squall

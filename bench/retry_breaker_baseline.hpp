// The hand-inlined baseline of the retry-breaker throughput model.
//
// The same model as bench/scenarios/retry-breaker-1m.json (see bench/README.md), written
// the way one would write it by hand for speed: one flat event loop over plain task
// records, no coroutines, no strategy pipeline, no recorder. It is the yardstick the
// simulator's throughput is reported against, measured in the same run.
#pragma once

#include <cstdint>

namespace squall::bench {

struct BaselineModel {
  std::int64_t tasks = 1'000'000;
  double arrivals_per_s = 50;
  double mean_latency_ms = 80;
  double failure_probability = 0.2;
  std::int32_t max_attempts = 4;
  double base_delay_ms = 100;
  double max_delay_ms = 2000;
  std::int32_t failure_threshold = 5;
  double open_duration_ms = 10'000;
  std::int32_t half_open_probes = 1;
};

struct BaselineResult {
  std::uint64_t provider_calls = 0;
  std::uint64_t succeeded = 0;
  std::uint64_t failed = 0;
  std::uint64_t breaker_opened = 0;
};

BaselineResult run_baseline(const BaselineModel& model, std::uint64_t seed);

}  // namespace squall::bench

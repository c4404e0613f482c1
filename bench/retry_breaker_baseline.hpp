// The hand-inlined baseline of the retry-breaker throughput model.
//
// The same model as bench/scenarios/retry-breaker-1m.json (see bench/README.md), written
// the way one would write it by hand for speed: one flat event loop over plain task
// records, no coroutines, no strategy pipeline, no recorder. It is the yardstick the
// simulator's throughput is reported against, measured in the same run.
//
// It computes what the model is run for, the figures squall's report gives for it: task
// outcomes by reason, provider calls by outcome, and the end-to-end task latency's p50,
// p90 and p99 (nearest rank, as reports/trend.hpp defines them). It keeps no event trace,
// no fingerprint, no time series and no per-call latency: those are squall's extras.
#pragma once

#include <cstdint>

#include "engine/runtime/time.hpp"

namespace squall::bench {

struct BaselineModel {
  std::int64_t tasks = 1'000'000;
  double arrivals_per_s = 50;
  double mean_latency_ms = 80;
  // Each call fails with one of these, drawn in this order as the chaos decorator does
  // (mocks/chaos/chaos_provider.hpp): 429 without Retry-After, then 503.
  double rate_limited_probability = 0.1;
  double overloaded_probability = 0.1;
  std::int32_t max_attempts = 4;
  double base_delay_ms = 100;
  double max_delay_ms = 2000;
  // Off for the rate sweep (bench/rate_sweep_bench.cpp), whose model has no breaker: every
  // call is admitted and the four variables below are never read.
  bool circuit_breaker = true;
  std::int32_t failure_threshold = 5;
  double open_duration_ms = 10'000;
  std::int32_t half_open_probes = 1;
};

struct BaselineResult {
  std::uint64_t provider_calls = 0;
  // Provider calls by outcome.
  std::uint64_t calls_succeeded = 0;
  std::uint64_t calls_rate_limited = 0;
  std::uint64_t calls_overloaded = 0;
  // Tasks by outcome: failed tasks by the reason of their last call.
  std::uint64_t succeeded = 0;
  std::uint64_t failed_circuit_open = 0;
  std::uint64_t failed_rate_limited = 0;
  std::uint64_t failed_overloaded = 0;
  std::uint64_t breaker_opened = 0;
  // Most tasks arrived and not yet finished at any one time.
  std::uint64_t peak_tasks_in_flight = 0;
  // End-to-end task latency, every outcome.
  Nanos task_latency_p50 = 0;
  Nanos task_latency_p90 = 0;
  Nanos task_latency_p99 = 0;
};

BaselineResult run_baseline(const BaselineModel& model, std::uint64_t seed);

}  // namespace squall::bench

// The rate sweep (bench/README.md, "Cost in concurrency"): 1 M tasks of the
// retry model at 50, 5,000, 50,000 and 500,000 arrivals per second, squall against the
// hand-inlined baseline (bench/retry_breaker_baseline.hpp, breaker off) in the same run,
// and the heap each squall run holds per task in flight.
//
// The benchmarks themselves are in bench/rate_sweep_bench.cpp; this is what squall_bench's
// main needs to print the sweep's table after they ran.
#pragma once

#include <benchmark/benchmark.h>

namespace squall::bench {

// Keeps the median CPU time of each BM_RateSweep_Squall/<rate> and _Baseline/<rate> (or
// the single run, without repetitions). Called by the reporter for every run it sees.
void note_rate_sweep_run(const benchmark::BenchmarkReporter::Run& run);

// Prints one line per rate that has both sides (and the memory figures of the rates that
// BM_RateSweep_Memory measured); nothing if the sweep did not run.
void print_rate_sweep();

}  // namespace squall::bench

// The capacity-bound model (bench/README.md): bench/scenarios/capacity-bound-1m.json
// is 1,000,000 tasks against one provider with 50 slots at 96% utilisation, every call
// through the capacity layer's wait queue and slot accounting. Its provider calls per second
// stand beside BM_RetryBreaker1M_Squall's, which never touches that layer. There is no
// hand-inlined baseline: the figure is compared with its own earlier value. The name has no
// "_Squall" suffix, so bench_main.cpp's ratio line stays the retry-breaker model's.
#include <benchmark/benchmark.h>

#include "bench/bench_support.hpp"

namespace {

using namespace squall;

const Scenario& capacity_bound_scenario() {
  static const Scenario scenario = [] {
    return bench::load_bench_scenario(SQUALL_SOURCE_DIR "/bench/scenarios/capacity-bound-1m.json");
  }();
  return scenario;
}

// One run per repetition, report included, as BM_RetryBreaker1M_Squall; the median of five
// is the figure. Rates are per CPU second of the benchmark thread.
void BM_CapacityBound1M(benchmark::State& state) {
  const Scenario& scenario = capacity_bound_scenario();
  bench::RunCounts counts;
  for (auto _ : state) {
    const Report report = counts.run(scenario);
    state.counters["task_p99_ms"] = report.latency.p99_ms;
    state.counters["max_queue"] = report.capacity.empty() ? 0.0 : static_cast<double>(report.capacity[0].max_queue);
  }
  counts.report_rates(state);
}
BENCHMARK(BM_CapacityBound1M)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(5);

}  // namespace

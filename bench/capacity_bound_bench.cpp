// The capacity-bound model (issue 7, bench/README.md): bench/scenarios/capacity-bound-1m.json
// is 1,000,000 tasks against one provider with 50 slots at 96% utilisation, every call
// through the capacity layer's wait queue and slot accounting. Its provider calls per second
// stand beside BM_RetryBreaker1M_Squall's, which never touches that layer. There is no
// hand-inlined baseline: the figure is compared with its own earlier value. The name has no
// "_Squall" suffix, so bench_main.cpp's ratio line stays the retry-breaker model's.
#include <benchmark/benchmark.h>

#include <stdexcept>

#include "sim/scenario_loader.hpp"
#include "sim/world.hpp"

namespace {

using namespace squall;

const Scenario& capacity_bound_scenario() {
  static const Scenario scenario = [] {
    LoadResult loaded = load_scenario(SQUALL_SOURCE_DIR "/bench/scenarios/capacity-bound-1m.json");
    if (!loaded.errors.empty()) throw std::runtime_error(to_string(loaded.errors.front()));
    return std::move(*loaded.scenario);
  }();
  return scenario;
}

// One run per repetition, report included, as BM_RetryBreaker1M_Squall; the median of five
// is the figure. Rates are per CPU second of the benchmark thread.
void BM_CapacityBound1M(benchmark::State& state) {
  const Scenario& scenario = capacity_bound_scenario();
  std::uint64_t calls = 0;
  std::uint64_t events = 0;
  for (auto _ : state) {
    World world(scenario, scenario.seed);
    const Report report = world.run();
    for (const ProviderSummary& provider : report.providers) calls += provider.calls;
    events += world.loop().events_run();
    state.counters["task_p99_ms"] = report.latency.p99_ms;
    state.counters["max_queue"] = report.capacity.empty() ? 0.0 : static_cast<double>(report.capacity[0].max_queue);
  }
  state.counters["provider_calls_per_s"] = benchmark::Counter(static_cast<double>(calls), benchmark::Counter::kIsRate);
  state.counters["events_per_s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CapacityBound1M)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(5);

}  // namespace

// squall's benchmarks. Figures are ratios against baselines measured in the same run
// (bench/README.md): the simulator's throughput on the retry-breaker model against the
// hand-inlined version of the same model.
#include <benchmark/benchmark.h>
#include <coroutine>
#include <cstdio>
#include <fmt/core.h>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/retry_breaker_baseline.hpp"
#include "sim/event_loop.hpp"
#include "sim/scenario_loader.hpp"
#include "sim/world.hpp"

namespace {

using namespace squall;

double g_squall_calls_per_s = 0;
double g_baseline_calls_per_s = 0;

// Prints as the console reporter does and keeps the finished rate counters, so that main
// can print the ratio of the two throughput runs measured in this process.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      const auto it = run.counters.find("provider_calls_per_s");
      if (it == run.counters.end()) continue;
      const std::string name = run.benchmark_name();
      if (name.find("_Squall") != std::string::npos) g_squall_calls_per_s = it->second.value;
      if (name.find("_Baseline") != std::string::npos) g_baseline_calls_per_s = it->second.value;
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

// Schedules and runs `range(0)` events through the EventLoop with a spread of times, the
// heap's typical mix of near and far timers.
void BM_EventLoopScheduleRun(benchmark::State& state) {
  const auto n = static_cast<std::int64_t>(state.range(0));
  Xoshiro256 rng(42);
  for (auto _ : state) {
    EventLoop loop;
    for (std::int64_t i = 0; i < n; ++i) {
      loop.schedule_at(rng.uniform_range(0, 10 * kSecond), std::noop_coroutine());
    }
    benchmark::DoNotOptimize(loop.run());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_EventLoopScheduleRun)->Arg(1'000)->Arg(100'000);

Scenario load_bench_scenario() {
  LoadResult loaded = load_scenario(SQUALL_SOURCE_DIR "/bench/scenarios/retry-breaker-1m.json");
  if (!loaded.errors.empty()) throw std::runtime_error(to_string(loaded.errors.front()));
  return std::move(*loaded.scenario);
}

void BM_RetryBreaker1M_Squall(benchmark::State& state) {
  const Scenario scenario = load_bench_scenario();
  std::uint64_t calls = 0;
  for (auto _ : state) {
    World world(scenario, scenario.seed);
    const Report report = world.run();
    for (const ProviderSummary& provider : report.providers) calls += provider.calls;
  }
  state.counters["provider_calls_per_s"] = benchmark::Counter(static_cast<double>(calls), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RetryBreaker1M_Squall)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

void BM_RetryBreaker1M_Baseline(benchmark::State& state) {
  std::uint64_t calls = 0;
  for (auto _ : state) {
    const bench::BaselineResult r = bench::run_baseline(bench::BaselineModel{}, 1);
    calls += r.provider_calls;
  }
  state.counters["provider_calls_per_s"] = benchmark::Counter(static_cast<double>(calls), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RetryBreaker1M_Baseline)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  if (g_squall_calls_per_s > 0 && g_baseline_calls_per_s > 0) {
    fmt::print("retry-breaker-1m: squall {:.2f}M provider calls/s, hand-inlined baseline {:.2f}M/s, "
               "baseline/squall = {:.2f}x\n",
               g_squall_calls_per_s / 1e6, g_baseline_calls_per_s / 1e6,
               g_baseline_calls_per_s / g_squall_calls_per_s);
  }
  return 0;
}

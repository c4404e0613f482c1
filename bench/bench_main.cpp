// squall's benchmarks. Figures are ratios against baselines measured in the same run
// (bench/README.md): the simulator's throughput on the retry-breaker model against the
// hand-inlined version of the same model.
#include <benchmark/benchmark.h>
#include <fmt/core.h>
#include <coroutine>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "bench/rate_sweep.hpp"
#include "bench/retry_breaker_baseline.hpp"
#include "sim/event_loop.hpp"
#include "sim/scenario_loader.hpp"
#include "sim/world.hpp"

namespace {

using namespace squall;

double g_squall_calls_per_s = 0;
double g_baseline_calls_per_s = 0;

// Prints as the console reporter does and keeps the finished rate counters, so that main
// can print the ratio of the two throughput runs measured in this process. With
// repetitions (the default for the throughput runs) it keeps their median.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      bench::note_rate_sweep_run(run);
      const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      if (run.run_type == Run::RT_Aggregate && !median) continue;
      const auto it = run.counters.find("provider_calls_per_s");
      if (it == run.counters.end()) continue;
      // A single run stands for itself until its median arrives.
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

Scenario retry_breaker_scenario() {
  return bench::load_bench_scenario(SQUALL_SOURCE_DIR "/bench/scenarios/retry-breaker-1m.json");
}

// The throughput runs: one simulation per repetition, five repetitions each, interleaved
// at random with the other side's (main turns interleaving on), and the median kept, so
// that a burst of load from other processes moves one repetition, not the ratio. Rates
// are per second of the benchmark thread's CPU time (page faults included), which is its
// wall time on an idle machine and leaves out the time other processes take the core.
constexpr int kThroughputRepetitions = 5;

void BM_RetryBreaker1M_Squall(benchmark::State& state) {
  const Scenario scenario = retry_breaker_scenario();
  bench::RunCounts counts;
  for (auto _ : state) {
    const Report report = counts.run(scenario);
    // The model's product, shown beside the baseline's as a check that both run the same
    // model (their random streams differ, so the figures agree closely, not exactly).
    const std::uint64_t succeeded = report.tasks.by_status[index_of(TaskStatus::succeeded)] +
                                    report.tasks.by_status[index_of(TaskStatus::degraded)];
    state.counters["task_success"] = static_cast<double>(succeeded) / static_cast<double>(report.tasks.total);
    state.counters["task_p99_ms"] = report.latency.p99_ms;
  }
  counts.report_rates(state);
}
BENCHMARK(BM_RetryBreaker1M_Squall)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(kThroughputRepetitions);

void BM_RetryBreaker1M_Baseline(benchmark::State& state) {
  std::uint64_t calls = 0;
  const bench::BaselineModel model;
  for (auto _ : state) {
    const bench::BaselineResult r = bench::run_baseline(model, 1);
    calls += r.provider_calls;
    state.counters["task_success"] = static_cast<double>(r.succeeded) / static_cast<double>(model.tasks);
    state.counters["task_p99_ms"] = to_millis(r.task_latency_p99);
  }
  state.counters["provider_calls_per_s"] = benchmark::Counter(static_cast<double>(calls), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RetryBreaker1M_Baseline)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(kThroughputRepetitions);

}  // namespace

int main(int argc, char** argv) {
  // Interleave repetitions by default; a flag given on the command line comes later and
  // wins.
  std::string interleave = "--benchmark_enable_random_interleaving=true";
  std::vector<char*> args(argv, argv + argc);
  args.insert(args.begin() + 1, interleave.data());
  int args_count = static_cast<int>(args.size());
  benchmark::Initialize(&args_count, args.data());
  if (benchmark::ReportUnrecognizedArguments(args_count, args.data())) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  if (g_squall_calls_per_s > 0 && g_baseline_calls_per_s > 0) {
    fmt::print(
        "retry-breaker-1m: squall {:.2f}M provider calls/s, hand-inlined baseline {:.2f}M/s, "
        "baseline/squall = {:.2f}x\n",
        g_squall_calls_per_s / 1e6, g_baseline_calls_per_s / 1e6, g_baseline_calls_per_s / g_squall_calls_per_s);
  }
  bench::print_rate_sweep();
  return 0;
}

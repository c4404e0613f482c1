// The rate sweep (bench/rate_sweep.hpp, bench/README.md): the cost of a task as the
// number of tasks in flight grows, and the heap a task in flight holds.
#include <benchmark/benchmark.h>

#include <fmt/core.h>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

#include "bench/bench_support.hpp"
#include "bench/heap_meter.hpp"
#include "bench/rate_sweep.hpp"
#include "bench/retry_breaker_baseline.hpp"
#include "engine/runtime/frame_pool.hpp"
#include "reports/sample_log.hpp"
#include "sim/corpora.hpp"
#include "sim/scenario_loader.hpp"
#include "sim/world.hpp"

namespace squall::bench {
namespace {

// Arrivals per second. At 500,000 per second the million tasks arrive within 2 s of
// simulated time and about 60,000 are in flight at once (tasks last 80 ms and up, a
// retried one seconds).
constexpr std::int64_t kRates[] = {50, 5'000, 50'000, 500'000};

// Every benchmark of the sweep runs at each rate of kRates.
void sweep_rates(benchmark::internal::Benchmark* b) {
  b->ArgName("rate");
  for (const std::int64_t rate : kRates) b->Arg(rate);
}
constexpr int kRepetitions = 3;

struct Loaded {
  Scenario scenario;
  Corpora corpora;
};

// bench/scenarios/retry-1m.json with its arrival rate set to `rate`, corpora loaded once.
const Loaded& scenario_at(std::int64_t rate) {
  static std::map<std::int64_t, Loaded> cache;
  auto it = cache.find(rate);
  if (it == cache.end()) {
    Scenario s = bench::load_bench_scenario(SQUALL_SOURCE_DIR "/bench/scenarios/retry-1m.json");
    s.workload.arrivals.rate_per_s = static_cast<double>(rate);
    Corpora corpora = load_corpora(s);
    it = cache.emplace(rate, Loaded{std::move(s), std::move(corpora)}).first;
  }
  return it->second;
}

struct Sides {
  double squall_ms = 0;
  double baseline_ms = 0;
  std::uint64_t squall_peak_in_flight = 0;
  std::int64_t squall_peak_heap = -1;  // bytes; -1 until BM_RateSweep_Memory measured it
  std::uint64_t memory_peak_in_flight = 0;
};
std::map<std::int64_t, Sides> sweep;

void BM_RateSweep_Squall(benchmark::State& state) {
  const std::int64_t rate = state.range(0);
  const Loaded& loaded = scenario_at(rate);
  std::uint64_t tasks = 0;
  for (auto _ : state) {
    World world(loaded.scenario, loaded.scenario.policy, loaded.corpora, loaded.scenario.seed);
    const Report report = world.run();
    tasks += report.tasks.total;
    sweep[rate].squall_peak_in_flight = world.peak_tasks_in_flight();
    state.counters["peak_in_flight"] = static_cast<double>(world.peak_tasks_in_flight());
    state.counters["task_p99_ms"] = report.latency.p99_ms;
  }
  state.counters["tasks_per_s"] = benchmark::Counter(static_cast<double>(tasks), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RateSweep_Squall)
    ->Apply(sweep_rates)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(kRepetitions);

void BM_RateSweep_Baseline(benchmark::State& state) {
  BaselineModel model;
  model.arrivals_per_s = static_cast<double>(state.range(0));
  model.circuit_breaker = false;
  std::uint64_t tasks = 0;
  for (auto _ : state) {
    const BaselineResult r = run_baseline(model, 1);
    tasks += static_cast<std::uint64_t>(model.tasks);
    state.counters["peak_in_flight"] = static_cast<double>(r.peak_tasks_in_flight);
    state.counters["task_p99_ms"] = to_millis(r.task_latency_p99);
  }
  state.counters["tasks_per_s"] = benchmark::Counter(static_cast<double>(tasks), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RateSweep_Baseline)
    ->Apply(sweep_rates)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(kRepetitions);

// The peak heap of one squall run from nothing: the thread's recycled coroutine frames and
// sample blocks are freed first, so the run allocates everything it holds. Not a timing
// (the meter is armed); print_rate_sweep turns it into bytes per task in flight.
void BM_RateSweep_Memory(benchmark::State& state) {
  const std::int64_t rate = state.range(0);
  const Loaded& loaded = scenario_at(rate);
  for (auto _ : state) {
    frame_pool::release_free_frames();
    SampleLog::release_spare_blocks();
    std::int64_t peak = 0;
    std::uint64_t in_flight = 0;
    {
      const HeapMeter meter;
      World world(loaded.scenario, loaded.scenario.policy, loaded.corpora, loaded.scenario.seed);
      benchmark::DoNotOptimize(world.run());
      peak = meter.peak_bytes();
      in_flight = world.peak_tasks_in_flight();
    }
    sweep[rate].squall_peak_heap = peak;
    sweep[rate].memory_peak_in_flight = in_flight;
    state.counters["peak_heap_MiB"] = static_cast<double>(peak) / (1 << 20);
    state.counters["peak_in_flight"] = static_cast<double>(in_flight);
  }
}
BENCHMARK(BM_RateSweep_Memory)->Apply(sweep_rates)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

void note_rate_sweep_run(const benchmark::BenchmarkReporter::Run& run) {
  const std::string& name = run.run_name.function_name;
  const bool squall = name == "BM_RateSweep_Squall";
  if (!squall && name != "BM_RateSweep_Baseline") return;
  if (run.run_type == benchmark::BenchmarkReporter::Run::RT_Aggregate && run.aggregate_name != "median") return;
  // "rate:5000"
  const std::string& args = run.run_name.args;
  const std::int64_t rate = std::stoll(args.substr(args.find(':') + 1));
  (squall ? sweep[rate].squall_ms : sweep[rate].baseline_ms) = run.GetAdjustedCPUTime();
}

void print_rate_sweep() {
  if (sweep.empty()) return;
  // Bytes per task in flight: the growth of the peak heap from the origin rate over the
  // growth of the tasks in flight. What a run holds besides its tasks in flight (the
  // recorder's samples, one per task and per call, the report) is the same million tasks
  // at every rate and cancels out, except the time series, which grow with virtual time:
  // the slowest rate runs for 5.6 hours, 2,000 windows of 10 s that each keep their 500
  // task latencies (reports/window_sample.hpp, 16 MB in all), where the faster rates hold
  // at most 20 windows. So the origin is the second rate (200 s, tens of tasks in flight),
  // not the first, whose row would make every difference negative.
  constexpr std::int64_t kOrigin = kRates[1];
  const auto origin = sweep.find(kOrigin);
  const bool have_floor = origin != sweep.end() && origin->second.squall_peak_heap >= 0;
  fmt::print("rate sweep, 1M tasks of bench/scenarios/retry-1m.json (medians of CPU time):\n");
  fmt::print("{:>9} {:>10} {:>12} {:>7} {:>10} {:>11} {:>16}\n", "tasks/s", "squall ms", "baseline ms", "ratio",
             "in flight", "peak heap", "bytes/in-flight");
  for (const auto& [rate, s] : sweep) {
    std::string ratio = "-";
    if (s.squall_ms > 0 && s.baseline_ms > 0) ratio = fmt::format("{:.2f}x", s.squall_ms / s.baseline_ms);
    std::string heap = "-";
    std::string per_task = "-";
    if (s.squall_peak_heap >= 0) {
      heap = fmt::format("{:.1f} MiB", static_cast<double>(s.squall_peak_heap) / (1 << 20));
      if (have_floor && rate > kOrigin && s.memory_peak_in_flight > origin->second.memory_peak_in_flight) {
        const double bytes = static_cast<double>(s.squall_peak_heap - origin->second.squall_peak_heap);
        const double tasks = static_cast<double>(s.memory_peak_in_flight - origin->second.memory_peak_in_flight);
        per_task = fmt::format("{:.0f}", bytes / tasks);
      }
    }
    const std::uint64_t in_flight = s.memory_peak_in_flight > 0 ? s.memory_peak_in_flight : s.squall_peak_in_flight;
    fmt::print("{:>9} {:>10.0f} {:>12.0f} {:>7} {:>10} {:>11} {:>16}\n", rate, s.squall_ms, s.baseline_ms, ratio,
               in_flight, heap, per_task);
  }
}

}  // namespace squall::bench

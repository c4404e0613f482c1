// A sweep of 40 runs (bench/sweeps/launch-surge-40-runs.json: the flagship incident under
// four policies on ten seeds) at 1 and 2 jobs, the scenario prepared once, outside the
// timing, as `squall sweep` does (the target: --jobs 2 at least 1.8 times faster
// than --jobs 1 on two cores). Wall time (UseRealTime), since the point is the work spread over threads;
// the figure is the median of five, and the ratio is only meaningful from one invocation
// on a machine whose other load is stated (bench/README.md).
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "sim/run.hpp"
#include "sim/sweep/sweep_runner.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace {

using namespace squall;

const SweepSpec& sweep_40() {
  static const SweepSpec spec = [] {
    SweepLoadResult loaded = load_sweep(SQUALL_SOURCE_DIR "/bench/sweeps/launch-surge-40-runs.json");
    if (!loaded.ok()) throw std::runtime_error(to_string(loaded.errors.front()));
    return std::move(*loaded.spec);
  }();
  return spec;
}

// CPU seconds (user + system) of the calling thread so far: a CPU clock, which load on the
// machine delays but does not add to (not a wall clock; bench output is never a report).
double thread_cpu_s() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// Wall time, and in the CPU column the CPU time of the whole process (every thread the
// sweep used, MeasureProcessCPUTime): the same for 1 and 2 jobs when parallel runs cost
// nothing extra.
void BM_Sweep40Runs(benchmark::State& state) {
  const SweepSpec& spec = sweep_40();
  const PreparedScenario prepared(spec.scenario);
  SweepRunOptions options;
  options.jobs = static_cast<std::size_t>(state.range(0));
  std::size_t runs = 0;
  for (auto _ : state) {
    const SweepResult result = run_sweep(spec, prepared, options);
    runs += result.runs.size();
  }
  state.counters["runs_per_s"] = benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Sweep40Runs)
    ->ArgName("jobs")
    ->Arg(1)
    ->Arg(2)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(5);

// What two threads can gain at best on this sweep's work, measured without a second
// thread, so that other load on the machine does not decide it: each of the 40 runs is
// timed on the thread's CPU clock, in the order run_sweep hands them to its pool
// (variant-major), then dealt as a FIFO pool deals them (each to the thread that frees
// first). two_thread_bound = total CPU / the busier thread's CPU: the --jobs 2 speedup on
// an otherwise idle two-core machine, if runs in parallel cost what they cost alone
// (BM_Sweep40Runs's process CPU column checks that).
void BM_Sweep40Runs_TwoThreadBound(benchmark::State& state) {
  const SweepSpec& spec = sweep_40();
  const PreparedScenario prepared(spec.scenario);
  std::vector<std::uint64_t> seeds;
  for (std::size_t i = 0; i < spec.seeds; ++i) seeds.push_back(spec.first_seed + i);
  for (auto _ : state) {
    std::vector<double> costs;
    for (const SweepVariant& variant : spec.variants) {
      for (const std::uint64_t seed : seeds) {
        const double before = thread_cpu_s();
        benchmark::DoNotOptimize(prepared.run(variant.policy, seed, Provenance{}));
        costs.push_back(thread_cpu_s() - before);
      }
    }
    double total = 0;
    double threads[2] = {0, 0};
    for (const double c : costs) {
      total += c;
      *std::min_element(threads, threads + 2) += c;
    }
    const double busier = std::max(threads[0], threads[1]);
    state.counters["cpu_s"] = total;
    state.counters["busier_thread_s"] = busier;
    state.counters["two_thread_bound"] = total / busier;
  }
}
BENCHMARK(BM_Sweep40Runs_TwoThreadBound)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);

}  // namespace

// A sweep of 40 runs (bench/sweeps/launch-surge-40-runs.json: the flagship incident under
// four policies on ten seeds) at 1 and 2 jobs, the scenario prepared once, outside the
// timing, as `squall sweep` does (issue 9: --jobs 2 at least 1.8 times faster than
// --jobs 1). Wall time (UseRealTime), since the point is the work spread over threads;
// the figure is the median of five, and the ratio is only meaningful from one invocation
// on a machine whose other load is stated (bench/README.md).
#include <benchmark/benchmark.h>

#include <stdexcept>

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
BENCHMARK(BM_Sweep40Runs)->ArgName("jobs")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(5);

}  // namespace

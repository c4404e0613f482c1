// The flagship incident stretched (bench/README.md):
// bench/scenarios/launch-surge-hour.json is scenarios/incidents/launch-surge-429-storm.json
// run for one hour of simulated time at 100 tasks per second (300 during its burst): 406,398
// tasks, each a web search through timeout, simplification, retry and breaker, then an LLM
// answer through timeout, retry and budget. The target is under 0.5 s for the hour.
#include <benchmark/benchmark.h>

#include <stdexcept>

#include "bench/bench_support.hpp"
#include "sim/run.hpp"
#include "sim/scenario_loader.hpp"

namespace {

using namespace squall;

const PreparedScenario& flagship_hour() {
  static const PreparedScenario prepared = [] {
    return PreparedScenario(bench::load_bench_scenario(SQUALL_SOURCE_DIR "/bench/scenarios/launch-surge-hour.json"));
  }();
  return prepared;
}

// One run per repetition (corpora loaded once, before), report included; the median of
// five is the figure. Rates are per CPU second of the benchmark thread.
void BM_FlagshipHour_Squall(benchmark::State& state) {
  const PreparedScenario& prepared = flagship_hour();
  std::uint64_t tasks = 0;
  for (auto _ : state) {
    const Report report = prepared.run(prepared.scenario().policy, prepared.scenario().seed, Provenance{});
    tasks += report.tasks.total;
    const std::uint64_t succeeded = report.tasks.by_status[index_of(TaskStatus::succeeded)] +
                                    report.tasks.by_status[index_of(TaskStatus::degraded)];
    state.counters["task_success"] = static_cast<double>(succeeded) / static_cast<double>(report.tasks.total);
    state.counters["task_p99_ms"] = report.latency.p99_ms;
  }
  state.counters["tasks_per_s"] = benchmark::Counter(static_cast<double>(tasks), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FlagshipHour_Squall)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(5);

}  // namespace

// The RAG incident stretched (bench/README.md): scenarios/incidents/pinecone-index-outage-rag.json
// run for one hour of simulated time at 100 tasks per second (360,000 tasks, each a vector
// search through the cache and the recovery loop, then an LLM answer), against a target of
// under 3 s of wall time, so that an hour of incident is checked in a unit test's time. The
// incident's own fault windows stay where they are (3m to 15m); the rest of the hour is the
// steady state, cache hits mostly.
//
// Beside it, the same stretch with the scenario's vector search replaced by nothing but
// its index (no cache, no recovery loop: scenarios/policies/rag-no-recovery.json), so the
// README can state what the retrieval strategies cost per task as a ratio measured in the
// same run.
#include <benchmark/benchmark.h>

#include <stdexcept>
#include <string>

#include "bench/bench_support.hpp"
#include "sim/run.hpp"
#include "sim/scenario_loader.hpp"

namespace {

using namespace squall;

constexpr const char* kIncident = SQUALL_SOURCE_DIR "/scenarios/incidents/pinecone-index-outage-rag.json";
constexpr const char* kNoRecovery = SQUALL_SOURCE_DIR "/scenarios/policies/rag-no-recovery.json";

// The incident, one hour long at 100 tasks per second.
const PreparedScenario& stretched() {
  static const PreparedScenario prepared = [] {
    Scenario s = bench::load_bench_scenario(kIncident);
    s.duration = 60 * 60 * kSecond;
    s.workload.arrivals.rate_per_s = 100;
    s.thresholds.clear();
    return PreparedScenario(std::move(s));
  }();
  return prepared;
}

void run(benchmark::State& state, const PolicyConfig& policy) {
  std::uint64_t tasks = 0;
  for (auto _ : state) {
    const Report report = stretched().run(policy, stretched().scenario().seed, Provenance{});
    tasks += report.tasks.total;
    state.counters["answered"] = static_cast<double>(report.answers.by_verdict[index_of(AnswerVerdict::answered)]) /
                                 static_cast<double>(report.answers.total());
  }
  state.counters["tasks_per_s"] = benchmark::Counter(static_cast<double>(tasks), benchmark::Counter::kIsRate);
}

void BM_RagIncidentHour_Squall(benchmark::State& state) { run(state, stretched().scenario().policy); }
BENCHMARK(BM_RagIncidentHour_Squall)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);

void BM_RagIncidentHour_NoRecovery(benchmark::State& state) {
  static const PolicyConfig policy = [] {
    PolicyLoadResult loaded = load_policy_file(kNoRecovery);
    if (!loaded.errors.empty()) throw std::runtime_error(to_string(loaded.errors.front()));
    return std::move(*loaded.policy);
  }();
  run(state, policy);
}
BENCHMARK(BM_RagIncidentHour_NoRecovery)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);

}  // namespace

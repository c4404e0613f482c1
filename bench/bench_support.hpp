// What several benchmarks share: loading a shipped scenario (a benchmark cannot report a
// bad input, so the first error is thrown), and running a World while counting its
// provider calls and events, reported as rates per CPU second of the benchmark thread.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/scenario_loader.hpp"
#include "sim/world.hpp"

namespace squall::bench {

// The scenario at `path` (SQUALL_SOURCE_DIR-based); throws std::runtime_error with the
// loader's first error.
inline Scenario load_bench_scenario(const std::string& path) {
  LoadResult loaded = load_scenario(path);
  if (!loaded.errors.empty()) throw std::runtime_error(to_string(loaded.errors.front()));
  return std::move(*loaded.scenario);
}

// Provider calls and events over a benchmark's runs.
struct RunCounts {
  std::uint64_t calls = 0;
  std::uint64_t events = 0;

  // One run of `scenario` at its own seed, report included; its calls and events counted.
  Report run(const Scenario& scenario) {
    World world(scenario, scenario.seed);
    Report report = world.run();
    for (const ProviderSummary& provider : report.providers) calls += provider.calls;
    events += world.loop().events_run();
    return report;
  }

  // The counters provider_calls_per_s and events_per_s.
  void report_rates(benchmark::State& state) const {
    state.counters["provider_calls_per_s"] =
        benchmark::Counter(static_cast<double>(calls), benchmark::Counter::kIsRate);
    state.counters["events_per_s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  }
};

}  // namespace squall::bench

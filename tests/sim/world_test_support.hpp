// Helpers for the simulator's end-to-end tests: scenarios written inline as JSON, loaded
// through the real loader, and run through sim::World.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "sim/corpora.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/scenario_loader.hpp"
#include "sim/world.hpp"

namespace squall::test {

// Loads `json` as if it were tests/sim/data/inline.json (so "corpus.jsonl" resolves to
// tests/sim/data/corpus.jsonl); fails the test on any validation error.
inline Scenario inline_scenario(std::string_view json) {
  LoadResult loaded = load_scenario_text(json, std::string(SQUALL_SOURCE_DIR) + "/tests/sim/data/inline.json");
  std::string errors;
  for (const ValidationError& e : loaded.errors) errors += to_string(e) + "\n";
  EXPECT_TRUE(loaded.errors.empty()) << errors;
  return loaded.scenario ? std::move(*loaded.scenario) : Scenario{};
}

inline Scenario file_scenario(std::string_view relative_path) {
  LoadResult loaded = load_scenario(std::string(SQUALL_SOURCE_DIR) + "/" + std::string(relative_path));
  std::string errors;
  for (const ValidationError& e : loaded.errors) errors += to_string(e) + "\n";
  EXPECT_TRUE(loaded.errors.empty()) << errors;
  return loaded.scenario ? std::move(*loaded.scenario) : Scenario{};
}

// Runs the world with the invariant checker watching (sim/invariant_checker.hpp); a
// violation fails the test.
inline Report run_world(const Scenario& scenario, std::uint64_t seed) {
  const Corpora corpora = load_corpora(scenario);
  InvariantChecker checker(scenario);
  World world(scenario, scenario.policy, corpora, seed, &checker);
  Report report = world.run();
  EXPECT_EQ(checker.summary(), "");
  return report;
}

inline std::uint64_t provider_calls(const Report& report) {
  std::uint64_t calls = 0;
  for (const ProviderSummary& p : report.providers) calls += p.calls;
  return calls;
}

// Two tools, a and b, served by one web_search provider "search" (constant 200 ms, the
// fault rules `faults`, a JSON array); one task a second for 30 s through either tool;
// the scenario's policy is `policy` (a JSON object). For tests of state a provider's
// stack shares across the tools reaching it.
inline std::string two_tools_on_one_search(std::string_view faults, std::string_view policy) {
  return std::string(R"({
  "name": "two-tools-one-provider",
  "duration": "30s",
  "workload": {
    "arrivals": { "process": "constant", "rate_per_s": 1 },
    "tasks": [ { "name": "via-a", "steps": [ { "tool": "a", "query_from": "q" } ] },
               { "name": "via-b", "steps": [ { "tool": "b", "query_from": "q" } ] } ],
    "queries": { "q": [ "Acme Corp" ] }
  },
  "tools": { "a": { "provider": "search" }, "b": { "provider": "search" } },
  "providers": {
    "search": { "type": "web_search", "corpus": "corpus.jsonl",
                "latency": { "distribution": "constant", "value": "200ms" },
                "faults": )") +
         std::string(faults) + R"( }
  },
  "policy": )" +
         std::string(policy) + "\n}";
}

inline std::uint64_t count(const Report& report, TaskStatus status) { return report.tasks.by_status[index_of(status)]; }

}  // namespace squall::test

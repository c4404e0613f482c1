#include "sim/run.hpp"

#include <gtest/gtest.h>

#include "reports/json_writer.hpp"
#include "world_test_support.hpp"

namespace squall {
namespace {

std::string json_of(const Report& report) { return to_json(report).dump(); }

Provenance provenance_of(std::string repro) {
  Provenance p;
  p.scenario_file = "scenarios/incidents/launch-surge-429-storm.json";
  p.repro = std::move(repro);
  return p;
}

TEST(PreparedScenarioTest, RunsAreIndependentOfWhatRanBefore) {
  // One preparation, three runs: seed 7, seed 8, seed 7 again. The two seed-7 reports are
  // byte-identical, and equal to a World built from scratch.
  const PreparedScenario prepared(test::file_scenario("scenarios/incidents/launch-surge-429-storm.json"));
  const std::string first = json_of(prepared.run(7, provenance_of("r")));
  const std::string other = json_of(prepared.run(8, provenance_of("r")));
  const std::string again = json_of(prepared.run(7, provenance_of("r")));
  EXPECT_EQ(first, again);
  EXPECT_NE(first, other);
  Report fresh = test::run_world(prepared.scenario(), 7);
  fresh.produced_by = prepared.run(7, provenance_of("r")).produced_by;
  EXPECT_EQ(json_of(fresh), first);
}

TEST(PreparedScenarioTest, AReplacementPolicyRunsAsIfItWereTheScenariosOwn) {
  const Scenario scenario = test::file_scenario("scenarios/incidents/launch-surge-429-storm.json");
  const PreparedScenario prepared(scenario);
  PolicyLoadResult naive = load_policy_file(std::string(SQUALL_SOURCE_DIR) + "/scenarios/policies/naive-retry.json");
  ASSERT_TRUE(naive.ok());
  Scenario with_naive = scenario;
  with_naive.policy = *naive.policy;
  const Report replaced = prepared.run(*naive.policy, 7, provenance_of("r"));
  Report rebuilt = test::run_world(with_naive, 7);
  rebuilt.produced_by = replaced.produced_by;
  EXPECT_EQ(json_of(replaced), json_of(rebuilt));
  EXPECT_NE(replaced.fingerprint, prepared.run(7, provenance_of("r")).fingerprint);
}

TEST(PreparedScenarioTest, TheReportRecordsWhatProducedIt) {
  const PreparedScenario prepared(test::file_scenario("scenarios/quickstart.json"));
  Provenance p;
  p.scenario_file = "scenarios/quickstart.json";
  p.policy_file = "scenarios/policies/x.json";
  p.repro = "squall run scenarios/quickstart.json --seed 3";
  const Report report = prepared.run(3, p);
  EXPECT_EQ(report.produced_by.squall_version, squall_version());
  EXPECT_FALSE(report.produced_by.squall_version.empty());
  EXPECT_EQ(report.produced_by.scenario_file, "scenarios/quickstart.json");
  EXPECT_EQ(report.produced_by.policy_file, "scenarios/policies/x.json");
  EXPECT_EQ(report.produced_by.repro, "squall run scenarios/quickstart.json --seed 3");
  const auto j = to_json(report);
  EXPECT_EQ(j["produced_by"]["repro"], "squall run scenarios/quickstart.json --seed 3");
}

TEST(PreparedScenarioTest, AProgressCallbackSeesTheRunAdvanceAndChangesNothing) {
  const PreparedScenario prepared(test::file_scenario("scenarios/incidents/launch-surge-429-storm.json"));
  std::vector<RunProgress> seen;
  const Report with = prepared.run(7, provenance_of("r"), nullptr, [&](const RunProgress& p) { seen.push_back(p); });
  const Report without = prepared.run(7, provenance_of("r"));
  EXPECT_EQ(json_of(with), json_of(without));
  ASSERT_FALSE(seen.empty());
  for (std::size_t i = 1; i < seen.size(); ++i) {
    EXPECT_LE(seen[i - 1].now, seen[i].now);
    EXPECT_LE(seen[i - 1].tasks_finished, seen[i].tasks_finished);
  }
  // The last call is at the end of the run: every task started has finished.
  EXPECT_EQ(seen.back().tasks_finished, with.tasks.total);
  EXPECT_EQ(seen.back().tasks_started, with.tasks.total);
  EXPECT_EQ(seen.back().duration, prepared.scenario().duration);
}

}  // namespace
}  // namespace squall

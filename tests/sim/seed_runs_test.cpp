// Many seeds of one scenario (run_seeds) and of many (run_seed_batches) on one pool: the
// same outcomes as one seed at a time, in seed order, whatever the number of jobs.
#include "sim/seed_runs.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reports/json_writer.hpp"
#include "world_test_support.hpp"

namespace squall {
namespace {

std::vector<std::uint64_t> fingerprints(std::span<const SeedRunResult> results) {
  std::vector<std::uint64_t> out;
  for (const SeedRunResult& r : results) out.push_back(r.outcome ? r.outcome->fingerprint : 0);
  return out;
}

TEST(SeedRunsTest, BatchesGiveEachScenarioWhatRunSeedsGivesItForAnyJobs) {
  const PreparedScenario storm(test::file_scenario("scenarios/incidents/launch-surge-429-storm.json"));
  const PreparedScenario quickstart(test::file_scenario("scenarios/quickstart.json"));
  const auto provenance = [](std::uint64_t) { return Provenance{}; };
  const std::vector<std::uint64_t> storm_seeds{7, 8, 9};
  const std::vector<std::uint64_t> quick_seeds{42, 1};
  const std::vector<SeedBatch> batches{{&storm, &storm.scenario().policy, storm_seeds, provenance},
                                       {&quickstart, &quickstart.scenario().policy, {}, provenance},
                                       {&quickstart, &quickstart.scenario().policy, quick_seeds, provenance}};
  const std::vector<SeedRunResult> storm_alone = run_seeds(storm, storm.scenario().policy, storm_seeds, 1, provenance);
  const std::vector<SeedRunResult> quick_alone =
      run_seeds(quickstart, quickstart.scenario().policy, quick_seeds, 1, provenance);
  for (const std::size_t jobs : {1u, 3u}) {
    std::vector<std::size_t> ready;
    const auto results = run_seed_batches(batches, jobs, [&](std::size_t b, std::span<const SeedRunResult> r) {
      EXPECT_EQ(r.size(), batches[b].seeds.size());
      EXPECT_EQ(fingerprints(r), b == 0   ? fingerprints(storm_alone)
                                 : b == 2 ? fingerprints(quick_alone)
                                          : std::vector<std::uint64_t>{});
      ready.push_back(b);
    });
    EXPECT_EQ(ready, (std::vector<std::size_t>{0, 1, 2})) << jobs;
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(fingerprints(results[0]), fingerprints(storm_alone)) << jobs;
    EXPECT_TRUE(results[1].empty());
    EXPECT_EQ(fingerprints(results[2]), fingerprints(quick_alone)) << jobs;
    // Each batch keeps its first seed's report, and only that one.
    ASSERT_TRUE(results[2][0].report.has_value());
    EXPECT_EQ(to_json_text(*results[2][0].report), to_json_text(*quick_alone[0].report));
    EXPECT_FALSE(results[2][1].report.has_value());
    EXPECT_EQ(results[0][1].outcome->seed, 8u);
  }
}

}  // namespace
}  // namespace squall

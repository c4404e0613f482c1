#include "sim/parallel_runs.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reports/json_writer.hpp"
#include "sim/run.hpp"
#include "world_test_support.hpp"

namespace squall {
namespace {

TEST(ParallelRunsTest, ResultsComeBackInIndexOrderForAnyNumberOfJobs) {
  for (const std::size_t jobs : {1u, 2u, 7u}) {
    const std::vector<std::size_t> squares = run_parallel<std::size_t>(20, jobs, [](std::size_t i) { return i * i; });
    ASSERT_EQ(squares.size(), 20u);
    for (std::size_t i = 0; i < squares.size(); ++i) EXPECT_EQ(squares[i], i * i) << "jobs " << jobs;
  }
}

TEST(ParallelRunsTest, OnReadySeesEveryResultOnceInIndexOrder) {
  std::vector<std::size_t> seen;
  run_parallel<std::size_t>(
      50, 4, [](std::size_t i) { return i + 100; },
      [&](std::size_t i, const std::size_t& result) {
        EXPECT_EQ(result, i + 100);
        seen.push_back(i);
      });
  ASSERT_EQ(seen.size(), 50u);
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], i);
}

TEST(ParallelRunsTest, NoRunsIsNoResults) {
  EXPECT_TRUE(run_parallel<int>(0, 3, [](std::size_t) { return 1; }).empty());
}

TEST(ParallelRunsTest, ZeroJobsMeansOneThread) {
  EXPECT_EQ(run_parallel<int>(3, 0, [](std::size_t i) { return static_cast<int>(i); }), (std::vector<int>{0, 1, 2}));
}

TEST(ParallelRunsTest, DefaultJobsIsAtLeastOne) { EXPECT_GE(default_jobs(), 1u); }

TEST(ParallelRunsTest, SeedsOfOnePreparedScenarioGiveTheSameReportsOnOneThreadOrFour) {
  // A sweep's shape: one preparation shared read-only, runs on several threads at once.
  const PreparedScenario prepared(test::file_scenario("scenarios/incidents/launch-surge-429-storm.json"));
  const auto run = [&](std::size_t i) { return to_json_text(prepared.run(7 + i % 3, Provenance{})); };
  const std::vector<std::string> serial = run_parallel<std::string>(6, 1, run);
  const std::vector<std::string> parallel = run_parallel<std::string>(6, 4, run);
  EXPECT_EQ(serial, parallel);
  EXPECT_EQ(serial[0], serial[3]);  // the same seed, whatever ran before or beside it
  EXPECT_NE(serial[0], serial[1]);
}

}  // namespace
}  // namespace squall

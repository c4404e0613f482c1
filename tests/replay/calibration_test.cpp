#include "replay/calibration.hpp"

#include <gtest/gtest.h>

namespace squall::replay {
namespace {

// Twenty seeds whose figure "x" is 1..20 in every window.
std::vector<std::vector<Figures>> seeds_one_to_twenty(std::size_t windows) {
  std::vector<std::vector<Figures>> seeds;
  for (int s = 1; s <= 20; ++s) seeds.push_back(std::vector<Figures>(windows, Figures{{"x", s}}));
  return seeds;
}

TEST(CalibrationTest, TheBandIsTheFifthToNinetyFifthPercentileByNearestRank) {
  const Calibration c = calibrate({0, 10, 20}, {Figures{{"x", 19}}, Figures{{"x", 20}}}, seeds_one_to_twenty(2));
  ASSERT_EQ(c.windows.size(), 2U);
  const CalibrationCell& inside = c.windows[0].cells.at(0);
  EXPECT_EQ(inside.low, 1);    // rank ceil(0.05 * 20) = 1
  EXPECT_EQ(inside.high, 19);  // rank ceil(0.95 * 20) = 19
  EXPECT_TRUE(inside.inside);
  EXPECT_FALSE(c.windows[1].cells.at(0).inside);
  EXPECT_FALSE(c.windows[1].passed);
  EXPECT_EQ(c.failed_windows, 1U);
  EXPECT_FALSE(c.passed);  // 1 of 2 windows failing is above 20%
}

TEST(CalibrationTest, AFigureMissingOnOneSideIsZeroThere) {
  const Calibration c = calibrate({0, 10}, {Figures{{"x", 5}, {"only_observed", 3}}}, seeds_one_to_twenty(1));
  ASSERT_EQ(c.windows[0].cells.size(), 2U);
  const CalibrationCell& missing = c.windows[0].cells.at(0);
  EXPECT_EQ(missing.figure, "only_observed");
  EXPECT_EQ(missing.high, 0);
  EXPECT_FALSE(missing.inside);
  EXPECT_FALSE(c.windows[0].passed);  // 1 of 2 figures inside: below 80%
}

TEST(CalibrationTest, TheRunPassesWithAtMostAFifthOfWindowsFailing) {
  std::vector<Figures> observed(5, Figures{{"x", 10}});
  observed[2]["x"] = 50;
  const Calibration c = calibrate({0, 1, 2, 3, 4, 5}, observed, seeds_one_to_twenty(5));
  EXPECT_EQ(c.failed_windows, 1U);
  EXPECT_TRUE(c.passed);
}

TEST(CalibrationTest, WindowFiguresCountTasksAttemptsAndTokensByStart) {
  TraceData data;
  for (int i = 0; i < 3; ++i) {
    AttemptRecord a;
    a.trace_id = "t" + std::to_string(i);
    a.operation = "chat";
    a.provider = "gpt";
    a.start_ns = (1 + 10 * i) * 1'000'000'000LL;
    a.end_ns = a.start_ns + 2'000'000'000LL;
    a.outcome = i == 2 ? OutcomeKind::timeout : OutcomeKind::success;
    a.input_tokens = 100;
    a.output_tokens = 10;
    data.attempts.push_back(a);
  }
  const std::vector<Figures> f = window_figures(data, group_attempts(data), 0, {0, 15'000'000'000LL, 30'000'000'000LL});
  ASSERT_EQ(f.size(), 2U);
  EXPECT_EQ(f[0].at("tasks_finished"), 2);
  EXPECT_EQ(f[0].at("task_success"), 1);
  EXPECT_EQ(f[0].at("tokens"), 220);
  EXPECT_EQ(f[0].at("attempts{provider:gpt,outcome:success}"), 2);
  EXPECT_EQ(f[1].at("task_success"), 0);
  EXPECT_EQ(f[1].at("attempts{provider:gpt,outcome:timeout}"), 1);
  EXPECT_EQ(f[1].at("task_latency_p99_ms"), 2000);
}

}  // namespace
}  // namespace squall::replay

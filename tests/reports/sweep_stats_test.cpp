// Sweep statistics (reports/sweep_stats.hpp) against values computed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "reports/sweep_stats.hpp"

namespace squall {
namespace {

TEST(SweepStatsTest, TQuantilesAreTheTablesUpToThirtyDegrees) {
  // NIST/SEMATECH e-Handbook table 1.3.6.7.2, column 0.975.
  EXPECT_DOUBLE_EQ(t_quantile_975(1), 12.706205);
  EXPECT_DOUBLE_EQ(t_quantile_975(2), 4.302653);
  EXPECT_DOUBLE_EQ(t_quantile_975(9), 2.262157);
  EXPECT_DOUBLE_EQ(t_quantile_975(30), 2.042272);
  EXPECT_TRUE(std::isinf(t_quantile_975(0)));
}

TEST(SweepStatsTest, TQuantilesBeyondThirtyAreWithinAMillionthOfTheExactValues) {
  // Exact values (e.g. R's qt(0.975, df)): 2.039513, 2.021075, 2.000298, 1.979930.
  EXPECT_NEAR(t_quantile_975(31), 2.039513, 1e-6);
  EXPECT_NEAR(t_quantile_975(40), 2.021075, 1e-6);
  EXPECT_NEAR(t_quantile_975(60), 2.000298, 1e-6);
  EXPECT_NEAR(t_quantile_975(120), 1.979930, 1e-6);
  EXPECT_NEAR(t_quantile_975(100000), 1.959988, 1e-6);  // z + (z^3 + z) / (4 df) and less
}

TEST(SweepStatsTest, IntervalOfFourValues) {
  // 1, 2, 3, 4: mean 2.5; squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5, s = sqrt(5 / 3)
  // = 1.2909944; half width t(0.975, 3) s / sqrt(4) = 3.182446 * 1.2909944 / 2 = 2.0542601.
  const std::vector<double> xs{1, 2, 3, 4};
  const Interval i = interval_of(xs);
  EXPECT_EQ(i.n, 4U);
  EXPECT_DOUBLE_EQ(i.mean, 2.5);
  EXPECT_NEAR(i.sd, 1.2909944, 1e-7);
  ASSERT_TRUE(i.half_width);
  EXPECT_NEAR(*i.half_width, 2.0542601, 1e-7);
  EXPECT_NEAR(i.low(), 0.4457399, 1e-7);
  EXPECT_NEAR(i.high(), 4.5542601, 1e-7);
}

TEST(SweepStatsTest, OneValueHasNoInterval) {
  const std::vector<double> xs{7};
  const Interval i = interval_of(xs);
  EXPECT_EQ(i.n, 1U);
  EXPECT_DOUBLE_EQ(i.mean, 7);
  EXPECT_FALSE(i.half_width);
}

// Two variants on three seeds: B - A per seed is 0.5, 0.7, 0.6 on task_success, so the
// paired difference is 0.6 with s = 0.1 and half width 4.302653 * 0.1 / sqrt(3) = 0.2484138,
// [0.3515862, 0.8484138], which excludes zero: B is better. On latency the differences are
// +1, -1, 0: mean 0, interval around zero: no verdict.
SweepResult two_variants() {
  SweepResult r;
  r.variants = {{"A", "scenario", {}, "0"}, {"B", "b.json", {}, "1"}};
  r.metrics = {"task_success", "latency_ms.p99"};
  r.objectives = {{"task_success", Goal::max}, {"latency_ms.p99", Goal::min}};
  r.seeds = {1, 2, 3};
  r.runs = {{0, 1, {0.1, 10}, {}}, {0, 2, {0.2, 20}, {}}, {0, 3, {0.3, 30}, {}},
            {1, 1, {0.6, 11}, {}}, {1, 2, {0.9, 19}, {}}, {1, 3, {0.9, 30}, {}}};
  return r;
}

TEST(SweepStatsTest, PairedDifferencesAgainstTheBaseline) {
  const SweepAnalysis a = analyse(two_variants());
  const MetricSummary& base = a.variants[0][0];
  EXPECT_FALSE(base.difference);
  EXPECT_NEAR(base.value.mean, 0.2, 1e-12);
  const MetricSummary& b = a.variants[1][0];
  ASSERT_TRUE(b.difference);
  EXPECT_NEAR(b.difference->mean, 0.6, 1e-12);
  EXPECT_NEAR(b.difference->sd, 0.1, 1e-12);
  EXPECT_NEAR(*b.difference->half_width, 0.2484138, 1e-7);
  EXPECT_EQ(b.verdict, Verdict::better);
  const MetricSummary& latency = a.variants[1][1];
  EXPECT_NEAR(latency.difference->mean, 0, 1e-12);
  EXPECT_EQ(latency.verdict, Verdict::none);
}

TEST(SweepStatsTest, AHigherValueOfALowerIsBetterMetricIsWorse) {
  SweepResult r = two_variants();
  r.baseline = 1;  // now A - B: -0.6 on task_success
  const SweepAnalysis a = analyse(r);
  EXPECT_EQ(a.variants[0][0].verdict, Verdict::worse);
  r.metrics = {"tasks.total", "latency_ms.p99"};  // no better direction: higher or lower
  r.objectives.clear();                           // they named the metric replaced
  EXPECT_EQ(analyse(r).variants[0][0].verdict, Verdict::lower);
}

TEST(SweepStatsTest, ParetoFrontKeepsTheUndominated) {
  // (success, p99): A (0.9, 10) dominates C (0.8, 12); B (0.95, 20) trades; D equals A.
  const std::vector<std::vector<std::optional<double>>> points{
      {0.9, 10.0}, {0.95, 20.0}, {0.8, 12.0}, {0.9, 10.0}, {std::nullopt, 1.0}};
  const std::vector<Goal> goals{Goal::max, Goal::min};
  EXPECT_EQ(pareto_front(points, goals), (std::vector<bool>{true, true, false, true, false}));
}

TEST(SweepStatsTest, AnalysisMarksTheFront) {
  const SweepAnalysis a = analyse(two_variants());
  // B: success 0.8 > 0.2 and p99 20 = 20: B dominates A.
  EXPECT_EQ(a.pareto, (std::vector<bool>{false, true}));
}

}  // namespace
}  // namespace squall

// What a sweep decides (reports/sweep_decision.hpp) and the minimum effect of its verdicts
// (reports/sweep_stats.hpp), on results built by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reports/sweep_decision.hpp"
#include "reports/sweep_stats.hpp"

namespace squall {
namespace {

// Three variants on four seeds, two thresholds. task_success: A 0.50, B 0.80, C 0.90 on
// every seed but one (C 0.70 on seed 4). B misses threshold 1 on one seed of four, C on two.
SweepResult three_variants() {
  SweepResult r;
  r.variants = {{"A", "scenario", {}, "0000000000000000"},
                {"B", "b.json", {}, "1111111111111111"},
                {"C", "c.json", {}, "2222222222222222"}};
  r.metrics = {"task_success", "cost_usd.total"};
  r.objectives = {{"task_success", Goal::max}};
  r.seeds = {1, 2, 3, 4};
  r.thresholds = {"task_success rate>=0.75", "cost_usd sum<=10"};
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    r.runs.push_back({0, seed, {0.5, 4.0}, {false, true}});
    r.runs.push_back({1, seed, {0.8, 6.0}, {true, seed != 2}});
    r.runs.push_back({2, seed, {seed == 4 ? 0.7 : 0.9, 8.0}, {seed != 4, seed != 1}});
  }
  return r;
}

TEST(SweepDecisionTest, FeasibleMeansEveryThresholdOnEnoughSeeds) {
  SweepResult r = three_variants();
  const std::vector<Feasibility> f = feasibility(r);
  EXPECT_EQ(f[0].pass_rates, (std::vector<double>{0, 1}));
  EXPECT_EQ(f[1].pass_rates, (std::vector<double>{1, 0.75}));
  EXPECT_EQ(f[2].pass_rates, (std::vector<double>{0.75, 0.75}));
  EXPECT_EQ(f[1].runs, 4u);
  EXPECT_FALSE(f[0].feasible);
  EXPECT_FALSE(f[1].feasible);  // 0.75 < 0.9
  EXPECT_FALSE(f[2].feasible);
  r.decision.feasible_pass_rate = 0.75;
  EXPECT_TRUE(feasibility(r)[1].feasible);  // at least the rate: feasible
  EXPECT_TRUE(feasibility(r)[2].feasible);
}

TEST(SweepDecisionTest, TheRecommendationIsTheBestFeasibleVariantByTheObjective) {
  SweepResult r = three_variants();
  r.decision.feasible_pass_rate = 0.75;
  SweepAnalysis a = analyse(r);
  ASSERT_TRUE(a.recommended);
  EXPECT_EQ(*a.recommended, 2u);  // C: 0.85 > B: 0.8
  EXPECT_EQ(recommendation_line(r, a),
            "recommendation: C: task_success max 0.85 (95% CI 0.690878 to 1.00912), every threshold on at least 75% "
            "of 4 seeds");
  // Minimising cost instead: B (6) beats C (8); A (4) is cheaper but infeasible.
  r.decision.objective = {"cost_usd.total", Goal::min};
  a = analyse(r);
  EXPECT_EQ(a.recommended, std::optional<std::size_t>(1));
  EXPECT_EQ(recommendation_line(r, a),
            "recommendation: B: cost_usd.total min 6 (95% CI 6 to 6), every threshold on at least 75% of 4 seeds");
}

TEST(SweepDecisionTest, TighteningTheRateLeavesNoVariantFeasibleAndSaysWhatBlocksEach) {
  const SweepResult r = three_variants();
  const SweepAnalysis a = analyse(r);
  EXPECT_FALSE(a.recommended);
  EXPECT_EQ(recommendation_line(r, a),
            "recommendation: no variant is feasible (every threshold on at least 90% of seeds): A: task_success "
            "rate>=0.75 passes on 0 of 4 seeds; B: cost_usd sum<=10 passes on 3 of 4 seeds; C: task_success "
            "rate>=0.75 passes on 3 of 4 seeds");
}

TEST(SweepDecisionTest, WithoutThresholdsEveryVariantIsFeasible) {
  SweepResult r = three_variants();
  r.thresholds.clear();
  for (SweepRun& run : r.runs) run.passed.clear();
  const SweepAnalysis a = analyse(r);
  EXPECT_EQ(a.recommended, std::optional<std::size_t>(2));
  EXPECT_EQ(recommendation_line(r, a),
            "recommendation: C: task_success max 0.85 (95% CI 0.690878 to 1.00912), the scenario has no thresholds");
}

// Baseline 10 on every seed; the variant differs by d on each seed.
SweepResult paired(const std::vector<double>& d) {
  SweepResult r;
  r.variants = {{"A", "scenario", {}, "0000000000000000"}, {"B", "b.json", {}, "1111111111111111"}};
  r.metrics = {"latency_ms.p99"};
  r.objectives = {{"latency_ms.p99", Goal::min}};
  r.decision.objective = {"latency_ms.p99", Goal::min};
  for (std::size_t i = 0; i < d.size(); ++i) {
    r.seeds.push_back(i + 1);
    r.runs.push_back({0, i + 1, {10.0}, {}});
  }
  for (std::size_t i = 0; i < d.size(); ++i) r.runs.push_back({1, i + 1, {10.0 + d[i]}, {}});
  return r;
}

TEST(SweepDecisionTest, ADifferenceWithinTheMinimumEffectIsTheSame) {
  // Differences 0.01, 0.02, 0.03: mean 0.02, interval [-0.0048, 0.0448], within 1% of 10.
  EXPECT_EQ(analyse(paired({0.01, 0.02, 0.03})).variants[1][0].verdict, Verdict::same);
  // Ten differences alternating 0.05 and 0.11: mean 0.08, interval [0.0574, 0.1026]. It
  // excludes zero and reaches past 0.1, but the mean is below it: neither same nor worse.
  EXPECT_EQ(analyse(paired({0.05, 0.11, 0.05, 0.11, 0.05, 0.11, 0.05, 0.11, 0.05, 0.11})).variants[1][0].verdict,
            Verdict::none);
  // 1.0, 1.1, 1.2: worse.
  EXPECT_EQ(analyse(paired({1.0, 1.1, 1.2})).variants[1][0].verdict, Verdict::worse);
}

TEST(SweepDecisionTest, MinimumEffectsAreAbsoluteOrRelativeToTheBaseline) {
  SweepResult r = paired({1.0, 1.1, 1.2});
  r.decision.min_effects = {{"latency_ms.p99", 2.0, false}};  // 2 ms: the interval [0.85, 1.35] is within
  EXPECT_EQ(analyse(r).variants[1][0].verdict, Verdict::same);
  r.decision.min_effects = {{"latency_ms.p99", 0.05, true}};  // 5% of 10 = 0.5: worse
  EXPECT_EQ(analyse(r).variants[1][0].verdict, Verdict::worse);
  EXPECT_DOUBLE_EQ(min_effect(r.decision, "latency_ms.p99", -20), 1.0);
  EXPECT_DOUBLE_EQ(min_effect(r.decision, "task_success", 0.5), 0.005);  // the default 1%
}

TEST(SweepDecisionTest, WarnsOfVariantsThatCannotDiffer) {
  SweepResult r = three_variants();
  EXPECT_TRUE(sweep_warnings(r).empty());
  r.variants[2].policy_digest = r.variants[1].policy_digest;
  r.variants.push_back({"D", "d.json", {{"/llm/0/retry/jitter", "\"full\""}}, "3333333333333333"});
  for (std::uint64_t seed = 1; seed <= 4; ++seed) r.runs.push_back({3, seed, {0.8, 6.0}, {true, seed != 2}});
  EXPECT_EQ(sweep_warnings(r),
            (std::vector<std::string>{
                "variants B and C have the same policy (digest 1111111111111111): one of them measures nothing",
                "variants B and D gave the same values on every seed: what tells their policies apart changes "
                "nothing in this scenario"}));
}

TEST(SweepDecisionTest, WarnsOfAScenarioSettingThatChangesNothing) {
  // Policies P and Q over a fault's probability 0.1, 0.3 and 0.5: both run the same at 0.1
  // and 0.3 (the fault's provider is never called there, say), Q differs at 0.5.
  SweepResult r;
  r.metrics = {"task_success"};
  r.objectives = {{"task_success", Goal::max}};
  r.seeds = {1, 2};
  const std::string pointer = "/scenario/providers/llm/faults/0/probability";
  for (const std::string policy : {"P", "Q"}) {
    for (const std::string p : {"0.1", "0.3", "0.5"}) {
      r.variants.push_back(
          {policy + "[probability=" + p + "]", policy + ".json", {{pointer, p}}, policy == "P" ? "1111" : "2222"});
    }
  }
  for (std::size_t v = 0; v < r.variants.size(); ++v) {
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      const double value = v == 5 ? 0.5 : 0.9 + 0.01 * static_cast<double>(seed) + (v >= 3 ? 0.05 : 0.0);
      r.runs.push_back({v, seed, {value}, {}});
    }
  }
  EXPECT_EQ(sweep_warnings(r),
            (std::vector<std::string>{"scenario settings probability=0.1 and probability=0.3 gave the same values on "
                                      "every seed for every policy: what tells them apart changes nothing in this "
                                      "scenario"}));
  // Once one policy tells 0.1 and 0.3 apart, they differ.
  r.runs[2].values = {0.1};
  EXPECT_TRUE(sweep_warnings(r).empty());
}

TEST(SweepDecisionTest, TheGateFailsAWorseOrInfeasibleCandidate) {
  SweepResult r = three_variants();
  r.metrics = {"task_success", "cost_usd.total"};
  const SweepAnalysis a = analyse(r);
  // C against A: cost 8 vs 4 on every seed: worse (no interval width: sd 0 still gives one).
  EXPECT_EQ(gate_failures(r, a, 2, SweepGate{true, false}),
            (std::vector<std::string>{"C is worse than the baseline A on cost_usd.total: +4 (95% CI 4 to 4)"}));
  EXPECT_EQ(gate_failures(r, a, 2, SweepGate{false, true}),
            (std::vector<std::string>{"C is infeasible: task_success rate>=0.75 passes on 3 of 4 seeds"}));
  EXPECT_TRUE(gate_failures(r, a, 0, SweepGate{true, false}).empty());  // the baseline is never worse than itself
}

}  // namespace
}  // namespace squall

// Gates on a comparison (reports/compare_gate.hpp): the grammar, the direction of each
// metric, the margins and the messages for malformed expressions.
#include "reports/compare_gate.hpp"

#include <gtest/gtest.h>

namespace squall {
namespace {

FailOn parsed(const std::string& expression) {
  auto r = parse_fail_on(expression);
  EXPECT_TRUE(std::holds_alternative<FailOn>(r)) << std::get<std::string>(r);
  return std::get<FailOn>(r);
}

std::string error_of(const std::string& expression) {
  auto r = parse_fail_on(expression);
  EXPECT_TRUE(std::holds_alternative<std::string>(r)) << expression;
  return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : "";
}

bool passes(const std::string& expression, std::optional<double> a, std::optional<double> b) {
  const std::vector<FailOn> gates{parsed(expression)};
  const std::vector<MetricComparison> rows{{gates[0].metric, a, b}};
  const std::vector<GateResult> results = check_gates(gates, rows);
  EXPECT_EQ(results.size(), 1u);
  return results[0].passed;
}

TEST(CompareGateTest, ParsesRelativeAndAbsoluteMargins) {
  const FailOn p99 = parsed("latency_ms.p99:+10%");
  EXPECT_EQ(p99.metric, "latency_ms.p99");
  EXPECT_TRUE(p99.worse_is_higher);
  EXPECT_TRUE(p99.relative);
  EXPECT_EQ(p99.margin, 10.0);
  EXPECT_EQ(margin_text(p99), "+10%");
  const FailOn success = parsed("task_success:-0.01");
  EXPECT_FALSE(success.worse_is_higher);
  EXPECT_FALSE(success.relative);
  EXPECT_EQ(success.margin, 0.01);
  EXPECT_EQ(margin_text(success), "-0.01");
}

TEST(CompareGateTest, LowerIsBetterFailsOnARiseBeyondTheMargin) {
  // 10% of 200 ms is 20 ms: 220 is at the margin (passes), 220.001 beyond it.
  EXPECT_TRUE(passes("latency_ms.p99:+10%", 200, 220));
  EXPECT_FALSE(passes("latency_ms.p99:+10%", 200, 220.001));
  EXPECT_TRUE(passes("latency_ms.p99:+10%", 200, 10));  // better is never a failure
  EXPECT_TRUE(passes("cost_usd.total:+0.5", 1.0, 1.5));
  EXPECT_FALSE(passes("cost_usd.total:+0.5", 1.0, 1.500001));
}

TEST(CompareGateTest, HigherIsBetterFailsOnAFallBeyondTheMargin) {
  EXPECT_TRUE(passes("task_success:-0.01", 0.95, 0.94));
  EXPECT_FALSE(passes("task_success:-0.01", 0.95, 0.939999));
  EXPECT_TRUE(passes("task_success:-0.01", 0.5, 1.0));
  EXPECT_FALSE(passes("thresholds_passed:-0", 5, 4));
}

TEST(CompareGateTest, AMetricWithoutADirectionIsGatedTheWayTheSignSays) {
  EXPECT_FALSE(passes("tasks.total:+0", 100, 101));
  EXPECT_TRUE(passes("tasks.total:+0", 100, 99));
  EXPECT_FALSE(passes("tasks.total:-0", 100, 99));
}

TEST(CompareGateTest, ARelativeGateOnZeroAllowsNoWorsening) {
  EXPECT_TRUE(passes("tasks.failed:+50%", 0, 0));
  EXPECT_FALSE(passes("tasks.failed:+50%", 0, 1));
}

TEST(CompareGateTest, AMissingValueFails) {
  EXPECT_FALSE(passes("latency_ms.p99:+10%", 200, std::nullopt));
  EXPECT_FALSE(passes("latency_ms.p99:+10%", std::nullopt, 200));
  const std::vector<FailOn> gates{parsed("latency_ms.p99:+10%")};
  const std::vector<MetricComparison> rows{{"latency_ms.p99", 200, std::nullopt}};
  EXPECT_EQ(gates_text(check_gates(gates, rows)),
            "gate latency_ms.p99:+10%: FAIL (B has no value)\n"
            "gates: 1 of 1 failed\n");
}

TEST(CompareGateTest, TextAndMarkdownSayEachGatesVerdictAndMargin) {
  const std::vector<FailOn> gates{parsed("latency_ms.p99:+10%"), parsed("task_success:-0.01")};
  const std::vector<MetricComparison> rows{{"task_success", 0.95, 0.9}, {"latency_ms.p99", 200, 210}};
  const std::vector<GateResult> results = check_gates(gates, rows);
  EXPECT_EQ(failed_gates(results), 1u);
  EXPECT_EQ(gates_text(results),
            "gate latency_ms.p99:+10%: pass (A 200, B 210, B - A +10, +5.00%)\n"
            "gate task_success:-0.01: FAIL (A 0.95, B 0.9, B - A -0.05, -5.26%)\n"
            "gates: 1 of 2 failed\n");
  EXPECT_EQ(gates_markdown(results),
            "\n#### Gates: 1 of 2 failed\n\n"
            "| gate | A | B | B − A | (B − A) / A | margin | result |\n"
            "|:--|--:|--:|--:|--:|--:|:--|\n"
            "| `latency_ms.p99` | 200 | 210 | +10 | +5.00% | +10% | ✅ pass |\n"
            "| `task_success` | 0.95 | 0.9 | -0.05 | -5.26% | -0.01 | ❌ fail |\n");
  EXPECT_EQ(gates_text(check_gates({gates[0]}, rows)),
            "gate latency_ms.p99:+10%: pass (A 200, B 210, B - A +10, +5.00%)\n"
            "gates: all 1 passed\n");
}

TEST(CompareGateTest, MalformedExpressionsAreNamed) {
  const std::string shape =
      "expected METRIC:+MARGIN or METRIC:-MARGIN (a number, or a percentage with %), e.g. latency_ms.p99:+10% or "
      "task_success:-0.01";
  EXPECT_EQ(error_of("task_success"), "--fail-on \"task_success\": " + shape);
  EXPECT_EQ(error_of(":+1"), "--fail-on \":+1\": " + shape);
  EXPECT_EQ(error_of("task_success:"), "--fail-on \"task_success:\": " + shape);
  EXPECT_EQ(error_of("latency:+1").substr(0, 96),
            "--fail-on \"latency:+1\": unknown metric \"latency\"; the metrics are tasks.total, tasks.succeeded, ");
  EXPECT_EQ(error_of("task_success:0.01"),
            "--fail-on \"task_success:0.01\": the margin \"0.01\" has no sign: write task_success:-0.01 (B is worse "
            "when task_success is lower)");
  EXPECT_EQ(error_of("latency_ms.p99:10%"),
            "--fail-on \"latency_ms.p99:10%\": the margin \"10%\" has no sign: write latency_ms.p99:+10% (B is "
            "worse when latency_ms.p99 is higher)");
  EXPECT_EQ(error_of("tasks.total:5"),
            "--fail-on \"tasks.total:5\": the margin \"5\" has no sign: + gates a rise, - a fall");
  EXPECT_EQ(error_of("task_success:+0.01"),
            "--fail-on \"task_success:+0.01\": B is worse when task_success is lower: write task_success:-0.01");
  EXPECT_EQ(error_of("latency_ms.p99:-10%"),
            "--fail-on \"latency_ms.p99:-10%\": B is worse when latency_ms.p99 is higher: write latency_ms.p99:+10%");
  for (const char* bad : {"latency_ms.p99:+ten", "latency_ms.p99:+", "latency_ms.p99:+1e3", "latency_ms.p99:+inf",
                          "latency_ms.p99:+10%%", "latency_ms.p99:+-1", "latency_ms.p99:+1..2"}) {
    const std::string margin = std::string(bad).substr(15);
    EXPECT_EQ(error_of(bad), "--fail-on \"" + std::string(bad) + "\": the margin \"" + margin +
                                 "\" is not a number (digits with an optional point, e.g. +10 or +2.5%)");
  }
}

TEST(CompareGateTest, TheFirstMalformedExpressionIsReported) {
  auto r = parse_fail_ons({"task_success:-0.01", "nope:+1", "also:+1"});
  ASSERT_TRUE(std::holds_alternative<std::string>(r));
  EXPECT_EQ(std::get<std::string>(r).substr(0, 40), "--fail-on \"nope:+1\": unknown metric \"nop");
  auto ok = parse_fail_ons({"task_success:-0.01", "latency_ms.p99:+10%"});
  ASSERT_TRUE(std::holds_alternative<std::vector<FailOn>>(ok));
  EXPECT_EQ(std::get<std::vector<FailOn>>(ok).size(), 2u);
}

}  // namespace
}  // namespace squall

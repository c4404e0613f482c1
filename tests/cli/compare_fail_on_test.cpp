// `squall compare --fail-on METRIC:MARGIN`: gates that exit 1 when B is worse than A by
// more than a margin (reports/compare_gate.hpp), in the terminal and in the Markdown file.
#include <gtest/gtest.h>

#include <string>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
using squall::test_support::squall;

const std::string kQuickstartVsNaive = "compare scenarios/quickstart.json --policy scenarios/policies/naive-retry.json";

std::string tail_from(const std::string& out, const std::string& start) {
  const std::size_t at = out.find(start);
  return at == std::string::npos ? "(not found: " + start + ")\n" + out : out.substr(at);
}

TEST(CompareFailOnTest, AGateBeyondItsMarginExitsOne) {
  // The naive policy's success rate is 0.245614 below the scenario policy's; its p99 and
  // cost are lower (better), so their gates pass.
  const Result r = squall(kQuickstartVsNaive +
                          " --fail-on latency_ms.p99:+10% --fail-on task_success:-0.01 --fail-on cost_usd.total:+0.5");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(tail_from(r.out, "gate "),
            "gate latency_ms.p99:+10%: pass (A 27293.402, B 19238.836, B - A -8054.566, -29.51%)\n"
            "gate task_success:-0.01: FAIL (A 0.982456, B 0.736842, B - A -0.245614, -25.00%)\n"
            "gate cost_usd.total:+0.5: pass (A 0.095577, B 0.068362, B - A -0.027215, -28.47%)\n"
            "gates: 1 of 3 failed\n");
}

TEST(CompareFailOnTest, GatesWithinTheirMarginsExitZero) {
  const Result r = squall(kQuickstartVsNaive + " --fail-on task_success:-0.3 --fail-on tasks.failed:+200%");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(tail_from(r.out, "gate "),
            "gate task_success:-0.3: pass (A 0.982456, B 0.736842, B - A -0.245614, -25.00%)\n"
            "gate tasks.failed:+200%: pass (A 2, B 0, B - A -2, -100.00%)\n"
            "gates: all 2 passed\n");
}

TEST(CompareFailOnTest, TwoReportsGateTheSecondAgainstTheFirst) {
  // A is the naive policy's report, B the scenario policy's: B's p99 is 41.87% higher.
  const auto a = temp_path("fail-on-a.json");
  const auto b = temp_path("fail-on-b.json");
  ASSERT_EQ(squall("run scenarios/quickstart.json --policy scenarios/policies/naive-retry.json --out " + a.string())
                .exit_code,
            1);
  ASSERT_EQ(squall("run scenarios/quickstart.json --out " + b.string()).exit_code, 0);
  const Result fails = squall("compare --fail-on latency_ms.p99:+10% " + a.string() + " " + b.string());
  EXPECT_EQ(fails.exit_code, 1) << fails.err;
  EXPECT_EQ(tail_from(fails.out, "gate "),
            "gate latency_ms.p99:+10%: FAIL (A 19238.836, B 27293.402, B - A +8054.566, +41.87%)\n"
            "gates: 1 of 1 failed\n");
  const Result passes = squall("compare " + a.string() + " " + b.string() + " --fail-on latency_ms.p99:+45%");
  EXPECT_EQ(passes.exit_code, 0) << passes.err;
}

TEST(CompareFailOnTest, TheMarkdownReportEndsWithTheGatesTable) {
  const auto md = temp_path("fail-on.md");
  const Result r = squall("compare --fail-on task_success:-0.01 --report markdown=" + md.string() +
                          " scenarios/quickstart.json --policy scenarios/policies/naive-retry.json");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(tail_from(read_file(md), "\n#### Gates"),
            "\n#### Gates: 1 of 1 failed\n\n"
            "| gate | A | B | B − A | (B − A) / A | margin | result |\n"
            "|:--|--:|--:|--:|--:|--:|:--|\n"
            "| `task_success` | 0.982456 | 0.736842 | -0.245614 | -25.00% | -0.01 | ❌ fail |\n");
}

TEST(CompareFailOnTest, AMalformedGateIsAUsageErrorBeforeAnythingRuns) {
  const auto md = temp_path("fail-on-bad.md");
  fs::remove(md);
  const Result r = squall(kQuickstartVsNaive + " --report markdown=" + md.string() +
                          " --fail-on task_success:-0.01 --fail-on task_success:+0.01");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "squall compare: --fail-on \"task_success:+0.01\": B is worse when task_success is lower: write "
            "task_success:-0.01\n");
  EXPECT_FALSE(fs::exists(md));
  const Result unknown = squall(kQuickstartVsNaive + " --fail-on p99:+10%");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.err.substr(0, 82),
            "squall compare: --fail-on \"p99:+10%\": unknown metric \"p99\"; the metrics are tasks.");
  const Result number = squall("compare --fail-on latency_ms.p99:+ten% " + kQuickstartVsNaive.substr(8));
  EXPECT_EQ(number.exit_code, 2);
  EXPECT_EQ(number.err,
            "squall compare: --fail-on \"latency_ms.p99:+ten%\": the margin \"+ten%\" is not a number (digits with an "
            "optional point, e.g. +10 or +2.5%)\n");
  const Result empty = squall(kQuickstartVsNaive + " --fail-on");
  EXPECT_EQ(empty.exit_code, 2);
}

}  // namespace

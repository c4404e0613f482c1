#include "reports/compare.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace squall {
namespace {

using nlohmann::json;

json small_report(int succeeded, double p99, bool passed) {
  return json{{"squall_report_version", 1},
              {"tasks", {{"total", 10}, {"succeeded", succeeded}, {"degraded", 0}}},
              {"latency_ms", {{"p99", p99}}},
              {"thresholds", json::array({json{{"passed", passed}}, json{{"passed", true}}})}};
}

TEST(CompareTest, EveryHeadlineMetricInItsOrderWithMissingOnesAsNullopt) {
  const std::vector<MetricComparison> rows = compare_reports(small_report(8, 120.5, true), small_report(4, 60.25, false));
  ASSERT_EQ(rows.size(), 27u);
  EXPECT_EQ(rows[0].metric, "tasks.total");
  EXPECT_EQ(rows[6].metric, "task_success");
  EXPECT_EQ(rows[6].a, 0.8);
  EXPECT_EQ(rows[6].b, 0.4);
  EXPECT_EQ(rows[9].metric, "latency_ms.p99");
  EXPECT_EQ(rows[3].metric, "tasks.safe_failed");
  EXPECT_FALSE(rows[3].a.has_value());
  EXPECT_EQ(rows.back().metric, "thresholds_passed");
  EXPECT_EQ(rows.back().a, 2.0);
  EXPECT_EQ(rows.back().b, 1.0);
}

TEST(CompareTest, TheTableShowsBothValuesTheDifferenceAndTheRelativeDifference) {
  const std::vector<MetricComparison> rows{{"tasks.succeeded", 8.0, 4.0},
                                           {"latency_ms.p99", 0.1, 0.3},
                                           {"tasks.wrong_answer", 0.0, 2.0},
                                           {"breaker_transitions_total", std::nullopt, 3.0}};
  EXPECT_EQ(comparison_table("a.json", "b.json", rows),
            "metric                          A: a.json       B: b.json           B - A   (B - A) / A\n"
            "tasks.succeeded                         8               4              -4       -50.00%\n"
            "latency_ms.p99                        0.1             0.3            +0.2      +200.00%\n"
            "tasks.wrong_answer                      0               2              +2             -\n"
            "breaker_transitions_total               -               3               -             -\n");
}

TEST(CompareTest, ADocumentThatIsNoReportIsRefused) {
  try {
    compare_reports(json{{"tasks", 1}}, small_report(1, 1, true));
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "not a squall report: no squall_report_version");
  }
}

}  // namespace
}  // namespace squall

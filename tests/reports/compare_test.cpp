#include "reports/compare.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace squall {
namespace {

using nlohmann::json;

// Every headline pointer of a version 1 report (reports/compare.hpp), each null unless set,
// but breaker_openings: these reports are as squall wrote them before it counted openings.
constexpr const char* kHeadlinePointers[] = {"/tasks/total",
                                             "/tasks/succeeded",
                                             "/tasks/degraded",
                                             "/tasks/safe_failed",
                                             "/tasks/failed",
                                             "/tasks/wrong_answer",
                                             "/latency_ms/p50",
                                             "/latency_ms/p90",
                                             "/latency_ms/p99",
                                             "/latency_ms/max",
                                             "/latency_ms/mean",
                                             "/retry_amplification/overall",
                                             "/tokens/input",
                                             "/tokens/output",
                                             "/tokens/burned_by_failed_attempts",
                                             "/cost_usd/total",
                                             "/cost_usd/burned_by_failed_attempts",
                                             "/cost_usd/per_task",
                                             "/task_spend/tokens/p50",
                                             "/task_spend/tokens/p99",
                                             "/task_spend/tokens/max",
                                             "/task_spend/cost_usd/p50",
                                             "/task_spend/cost_usd/p99",
                                             "/task_spend/cost_usd/max",
                                             "/breaker_transitions_total"};

json small_report(int succeeded, double p99, bool passed, std::uint64_t seed = 7) {
  json r{{"squall_report_version", 1}, {"scenario", "small"}, {"seed", seed}};
  for (const char* pointer : kHeadlinePointers) r[json::json_pointer(pointer)] = nullptr;
  r["tasks"]["total"] = 10;
  r["tasks"]["succeeded"] = succeeded;
  r["tasks"]["degraded"] = 0;
  r["latency_ms"]["p99"] = p99;
  r["thresholds"] = json::array({json{{"passed", passed}}, json{{"passed", true}}});
  return r;
}

std::string problem(const json& r) { return report_problem(r).value_or("none"); }

TEST(CompareTest, EveryHeadlineMetricInItsOrderWithMissingOnesAsNullopt) {
  const std::vector<MetricComparison> rows =
      compare_reports(small_report(8, 120.5, true), small_report(4, 60.25, false));
  ASSERT_EQ(rows.size(), 31u);
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

TEST(CompareTest, BreakerOpeningsByCauseFollowTheTransitions) {
  json a = small_report(8, 120.5, true);
  json b = small_report(4, 60.25, false);
  a["breaker_openings"] =
      json{{"consecutive_failures", 2}, {"failure_rate", 0}, {"slow_call_rate", 0}, {"probe_failed", 1}};
  b["breaker_openings"] =
      json{{"consecutive_failures", 0}, {"failure_rate", 5}, {"slow_call_rate", 1}, {"probe_failed", 1}};
  const std::vector<MetricComparison> rows = compare_reports(a, b);
  ASSERT_EQ(rows.size(), 31u);
  EXPECT_EQ(rows[25].metric, "breaker_transitions_total");
  const std::vector<MetricComparison> openings(rows.begin() + 26, rows.begin() + 30);
  EXPECT_EQ(comparison_table("a.json", "b.json", openings),
            "metric                                      A: a.json       B: b.json           B - A   (B - A) / A\n"
            "breaker_openings.consecutive_failures               2               0              -2      -100.00%\n"
            "breaker_openings.failure_rate                       0               5              +5             -\n"
            "breaker_openings.slow_call_rate                     0               1              +1             -\n"
            "breaker_openings.probe_failed                       1               1              +0        +0.00%\n");
  EXPECT_EQ(rows.back().metric, "thresholds_passed");
  // A report written before squall counted openings compares, with "-" for them.
  const std::vector<MetricComparison> old_and_new = compare_reports(small_report(8, 120.5, true), b);
  EXPECT_EQ(old_and_new[27].metric, "breaker_openings.failure_rate");
  EXPECT_FALSE(old_and_new[27].a.has_value());
  EXPECT_EQ(old_and_new[27].b, 5.0);
  // With breaker_openings, each cause must be there, as a number or null.
  b["breaker_openings"]["failure_rate"] = "five";
  EXPECT_EQ(problem(b),
            "not a squall report of version 1: /breaker_openings/failure_rate is \"five\", expected a number or null");
  b["breaker_openings"].erase("probe_failed");
  b["breaker_openings"]["failure_rate"] = nullptr;
  EXPECT_EQ(problem(b),
            "not a squall report of version 1: /breaker_openings/probe_failed is missing, expected a number or null");
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

TEST(CompareTest, OnlyReportsOfThisVersionWithTheirShapeAreCompared) {
  EXPECT_EQ(problem(small_report(1, 1, true)), "none");
  EXPECT_EQ(problem(json("a report")), "not a squall report: a JSON string, not an object");
  EXPECT_EQ(problem(json::array()), "not a squall report: a JSON array, not an object");
  EXPECT_EQ(problem(json{{"tasks", 1}}), "not a squall report: no squall_report_version");
  json r = small_report(1, 1, true);
  r["squall_report_version"] = 2;
  EXPECT_EQ(problem(r), "squall report version 2: this squall reads version 1");
  r["squall_report_version"] = "1";
  EXPECT_EQ(problem(r), "not a squall report: squall_report_version is \"1\", expected an integer");
  r = small_report(1, 1, true);
  r["tasks"]["total"] = "many";
  EXPECT_EQ(problem(r), "not a squall report of version 1: /tasks/total is \"many\", expected a number or null");
  r = small_report(1, 1, true);
  r["latency_ms"].erase("p50");
  EXPECT_EQ(problem(r), "not a squall report of version 1: /latency_ms/p50 is missing, expected a number or null");
  // A parent of the wrong type is named, not its missing child.
  r = small_report(1, 1, true);
  r["tasks"] = "x";
  EXPECT_EQ(problem(r), "not a squall report of version 1: /tasks is \"x\", expected an object");
  r = small_report(1, 1, true);
  r.erase("scenario");
  EXPECT_EQ(problem(r), "not a squall report of version 1: /scenario is missing, expected a string");
  r = small_report(1, 1, true);
  r["seed"] = -1;
  EXPECT_EQ(problem(r), "not a squall report of version 1: /seed is -1, expected an unsigned integer");
  r = small_report(1, 1, true);
  r["thresholds"] = json::object();
  EXPECT_EQ(problem(r), "not a squall report of version 1: /thresholds is {}, expected an array");
  // Each threshold says whether it passed (thresholds_passed counts them).
  r = small_report(1, 1, true);
  r["thresholds"] = json::array({1, 2});
  EXPECT_EQ(problem(r), "not a squall report of version 1: /thresholds/0 is 1, expected an object");
  r["thresholds"] = json::array({json{{"passed", true}}, json::object()});
  EXPECT_EQ(problem(r), "not a squall report of version 1: /thresholds/1/passed is missing, expected a boolean");
  r["thresholds"] = json::array({json{{"passed", "yes"}}});
  EXPECT_EQ(problem(r), "not a squall report of version 1: /thresholds/0/passed is \"yes\", expected a boolean");
}

TEST(CompareTest, WarnsWhenTheRunsAreOfDifferentScenariosOrSeeds) {
  EXPECT_EQ(comparison_warnings(small_report(1, 1, true), small_report(2, 2, false)), std::vector<std::string>{});
  json other = small_report(1, 1, true, 8);
  other["scenario"] = "other";
  EXPECT_EQ(comparison_warnings(small_report(1, 1, true), other),
            (std::vector<std::string>{"the reports are of different scenarios: \"small\" and \"other\"",
                                      "the reports are of different seeds: 7 and 8"}));
}

TEST(CompareTest, DifferencesAsNumbersAndAsText) {
  const MetricComparison row{"m", 8.0, 4.0};
  EXPECT_EQ(difference(row), -4.0);
  EXPECT_EQ(relative_difference(row), -0.5);
  EXPECT_EQ(difference_text(row), "-4");
  EXPECT_EQ(relative_difference_text(row), "-50.00%");
  const MetricComparison from_zero{"m", 0.0, 2.0};
  EXPECT_EQ(relative_difference(from_zero), std::nullopt);
  EXPECT_EQ(relative_difference_text(from_zero), "-");
  EXPECT_EQ(difference(MetricComparison{"m", std::nullopt, 1.0}), std::nullopt);
}

}  // namespace
}  // namespace squall

namespace squall {
namespace {

// One rule each: a headline number is from 0 to 2^53, and 0 or at least 0.000001.
TEST(CompareTest, HeadlineNumbersOutsideWhatAReportHoldsAreRefused) {
  json negative = small_report(8, 120.5, true);
  negative["tasks"]["succeeded"] = -5;
  EXPECT_EQ(
      problem(negative),
      "not a squall report of version 1: /tasks/succeeded is -5, expected a number from 0 to 9007199254740992 (2^53)");
  json huge = small_report(8, 120.5, true);
  huge["tasks"]["total"] = 1e308;
  EXPECT_EQ(
      problem(huge),
      "not a squall report of version 1: /tasks/total is 1e+308, expected a number from 0 to 9007199254740992 (2^53)");
  json tiny = small_report(8, 120.5, true);
  tiny["latency_ms"]["p99"] = 5e-324;
  EXPECT_EQ(problem(tiny),
            "not a squall report of version 1: /latency_ms/p99 is 5e-324, expected 0 or at least 0.000001 "
            "(reports round to 6 decimals)");
  // The bounds themselves are values a report may hold.
  json bounds = small_report(8, 0.000001, true);
  bounds["tokens"]["input"] = kMaxHeadlineValue;
  EXPECT_EQ(problem(bounds), "none");
  // Integers compare as integers: 2^53 + 1 is not 2^53, though both read as 2^53 in a double.
  json over = json::parse(R"({"v": 9007199254740993, "w": 9007199254740992, "n": -1})");
  EXPECT_STREQ(headline_number_problem(over["v"]), "a number from 0 to 9007199254740992 (2^53)");
  EXPECT_EQ(headline_number_problem(over["w"]), nullptr);
  EXPECT_STREQ(headline_number_problem(over["n"]), "a number from 0 to 9007199254740992 (2^53)");
  // Built in memory, an int64 is signed whatever its sign.
  EXPECT_EQ(headline_number_problem(json(std::int64_t{107367})), nullptr);
  bounds["tokens"]["input"] = std::uint64_t{9007199254740993ULL};
  EXPECT_EQ(problem(bounds),
            "not a squall report of version 1: /tokens/input is 9007199254740993, expected a number from 0 to "
            "9007199254740992 (2^53)");
}

}  // namespace
}  // namespace squall

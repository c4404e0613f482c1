// `squall compare`: two policies on one scenario and seed, or two JSON reports.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
using squall::test_support::squall;

TEST(CompareCommandTest, TwoPoliciesOnTheSameSeedSideBySide) {
  const Result r =
      squall("compare scenarios/incidents/launch-surge-429-storm.json --policy scenarios/policies/naive-retry.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(first_line(r.out), "squall compare launch-surge-429-storm: seed 7");
  // The README's two runs of the flagship, as differences.
  EXPECT_NE(
      r.out.find("\ntasks.succeeded                                      1117                 1053             -64"
                 "        -5.73%\n"),
      std::string::npos)
      << r.out;
  EXPECT_NE(
      r.out.find("\ntask_success                                     0.860714             0.376071       -0.484643"
                 "       -56.31%\n"),
      std::string::npos)
      << r.out;
  // The scenario's breaker opened once on a streak and six times on a failed probe; the
  // naive policy has no breaker.
  EXPECT_NE(
      r.out.find("\nbreaker_transitions_total                              15                    0             -15"
                 "      -100.00%\n"
                 "breaker_openings.consecutive_failures                   1                    0              -1"
                 "      -100.00%\n"
                 "breaker_openings.failure_rate                           0                    0              +0"
                 "             -\n"
                 "breaker_openings.slow_call_rate                         0                    0              +0"
                 "             -\n"
                 "breaker_openings.probe_failed                           6                    0              -6"
                 "      -100.00%\n"),
      std::string::npos)
      << r.out;
  EXPECT_EQ(
      last_line(r.out),
      "thresholds_passed                                       5                    4              -1       -20.00%");
}

TEST(CompareCommandTest, TwoReportsWrittenByRun) {
  const auto a = temp_path("compare-a.json");
  const auto b = temp_path("compare-b.json");
  ASSERT_EQ(squall("run scenarios/quickstart.json --out " + a.string()).exit_code, 0);
  ASSERT_EQ(squall("run scenarios/quickstart.json --seed 43 --out " + b.string()).exit_code, 0);
  const Result r = squall("compare " + a.string() + " " + b.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(first_line(r.out), "squall compare: " + a.string() + " and " + b.string());
  EXPECT_NE(r.out.find("A: compare-a.json  B: compare-b.json"), std::string::npos) << r.out;
  // The same report twice: every difference is zero.
  const Result same = squall("compare " + a.string() + " " + a.string());
  std::istringstream lines(same.out);
  std::string line;
  std::getline(lines, line);  // the title
  std::getline(lines, line);  // the header
  int rows = 0;
  while (std::getline(lines, line)) {
    ++rows;
    const bool zero = line.ends_with(" +0        +0.00%") || line.ends_with(" +0             -");
    EXPECT_TRUE(zero) << line;
  }
  EXPECT_EQ(rows, 31);
}

TEST(CompareCommandTest, UsageAndBadInputAreExit2) {
  const Result none = squall("compare scenarios/quickstart.json");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err,
            "squall compare: give a scenario and one or two --policy files (and optionally --seed), or two JSON "
            "reports\n");
  const Result not_report = squall("compare scenarios/quickstart.json scenarios/quickstart.json");
  EXPECT_EQ(not_report.exit_code, 2);
  // Reports are strict JSON, but a scenario (with its comments) is recognised as one.
  EXPECT_EQ(not_report.err,
            "scenarios/quickstart.json: this is a scenario file, not a squall report: give it as the scenario (squall "
            "run FILE, squall compare FILE --policy P)\n");
  const Result scenario_json = squall("compare scenarios/corpora/queries-crm.json scenarios/corpora/queries-crm.json");
  EXPECT_EQ(scenario_json.exit_code, 2);
  EXPECT_EQ(scenario_json.err,
            "scenarios/corpora/queries-crm.json: not a squall report: a JSON array, not an object\n");
}

TEST(CompareCommandTest, OtherVersionsAndNonReportsAreRefusedWithExit2) {
  const auto report = temp_path("compare-v1.json");
  ASSERT_EQ(squall("run scenarios/quickstart.json --out " + report.string()).exit_code, 0);
  const auto text = temp_path("compare-string.json");
  std::ofstream(text) << "\"squall_report_version\"\n";
  const Result string = squall("compare " + report.string() + " " + text.string());
  EXPECT_EQ(string.exit_code, 2);
  EXPECT_EQ(string.err, text.string() + ": not a squall report: a JSON string, not an object\n");
  EXPECT_EQ(string.out, "");
  // The same report, claiming version 2.
  std::string v2 = read_file(report);
  v2.replace(v2.find("\"squall_report_version\": 1"), 26, "\"squall_report_version\": 2");
  const auto future = temp_path("compare-v2.json");
  std::ofstream(future) << v2;
  const Result other = squall("compare " + future.string() + " " + report.string());
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_EQ(other.err, future.string() + ": squall report version 2: this squall reads version 1\n");
}

TEST(CompareCommandTest, ReportsOfOtherScenariosOrSeedsAreComparedWithAWarning) {
  const auto a = temp_path("compare-warn-a.json");
  const auto b = temp_path("compare-warn-b.json");
  ASSERT_EQ(squall("run scenarios/quickstart.json --out " + a.string()).exit_code, 0);
  ASSERT_EQ(squall("run scenarios/examples/search-429s.json --seed 8 --out " + b.string()).exit_code, 0);
  const Result r = squall("compare " + a.string() + " " + b.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err,
            "squall compare: warning: the reports are of different scenarios: \"quickstart\" and \"search-429s\"\n"
            "squall compare: warning: the reports are of different seeds: 42 and 8\n");
  EXPECT_EQ(squall("compare " + a.string() + " " + a.string()).err, "");
}

TEST(CompareCommandTest, ReportFlagsWriteTheComparisonAsJsonAndMarkdown) {
  const auto json_file = temp_path("comparison.json");
  const auto md_file = temp_path("comparison.md");
  const Result r = squall(
      "compare scenarios/incidents/launch-surge-429-storm.json --policy "
      "scenarios/policies/naive-retry.json --report json=" +
      json_file.string() + " --report markdown=" + md_file.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("json comparison written to " + json_file.string() + "\n"), std::string::npos) << r.out;
  const nlohmann::json j = nlohmann::json::parse(read_file(json_file));
  EXPECT_EQ(j["squall_comparison_version"], 1);
  EXPECT_EQ(j["a"]["label"], "scenario policy");
  EXPECT_EQ(j["b"]["label"], "naive-retry.json");
  EXPECT_EQ(j["b"]["policy_file"], "scenarios/policies/naive-retry.json");
  EXPECT_TRUE(j["a"]["policy_file"].is_null());
  EXPECT_EQ(j["a"]["seed"], 7);
  EXPECT_EQ(j["warnings"], nlohmann::json::array());
  ASSERT_EQ(j["metrics"].size(), 31u);
  // The README's two runs of the flagship: 1117 and 1053 clean successes.
  const nlohmann::json& succeeded = j["metrics"][1];
  EXPECT_EQ(succeeded["metric"], "tasks.succeeded");
  EXPECT_EQ(succeeded["a"], 1117);
  EXPECT_EQ(succeeded["b"], 1053);
  EXPECT_EQ(succeeded["difference"], -64);
  EXPECT_EQ(succeeded["relative_difference"], -0.057296);
  // The Markdown table: a heading row, the alignment row, then one row per metric.
  const std::string md = read_file(md_file);
  EXPECT_EQ(first_line(md), "### squall compare: launch-surge-429-storm, seed 7");
  EXPECT_NE(md.find("| `tasks.succeeded` | 1117 | 1053 | -64 | -5.73% |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| `breaker_openings.probe_failed` | 6 | 0 | -6 | -100.00% |\n"), std::string::npos) << md;
  const nlohmann::json& probe_failed = j["metrics"][29];
  EXPECT_EQ(probe_failed["metric"], "breaker_openings.probe_failed");
  EXPECT_EQ(probe_failed["a"], 6);
  EXPECT_EQ(probe_failed["b"], 0);
  EXPECT_EQ(probe_failed["relative_difference"], -1.0);
  std::istringstream lines(md);
  std::string line;
  int rows = 0;
  while (std::getline(lines, line)) rows += line.starts_with("| `") ? 1 : 0;
  EXPECT_EQ(rows, 31);
}

TEST(CompareCommandTest, BadReportFlagsAreExit2BeforeAnythingRuns) {
  const Result format = squall("compare a.json b.json --report csv=x.csv");
  EXPECT_EQ(format.exit_code, 2);
  EXPECT_EQ(format.err,
            "squall compare: unknown report format \"csv\" in --report csv=x.csv; formats: json, markdown\n");
  const Result spec = squall("compare a.json b.json --report x.json");
  EXPECT_EQ(spec.err, "squall compare: --report expects FORMAT=PATH, got \"x.json\"\n");
  const auto same = temp_path("same.out");
  const Result twice =
      squall("compare a.json b.json --report json=" + same.string() + " --report markdown=" + same.string());
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("write the same file"), std::string::npos) << twice.err;
  const Result input = squall(
      "compare scenarios/quickstart.json --policy scenarios/policies/naive-retry.json --report "
      "json=scenarios/policies/naive-retry.json");
  EXPECT_EQ(input.exit_code, 2);
  EXPECT_EQ(input.out, "");  // refused before running
}

}  // namespace

namespace {

using namespace squall::test_support;
using squall::test_support::squall;

TEST(PrintJsonTest, AScenarioWithCommentsPrintsAsPlainJsonOnStdoutOnly) {
  const Result r = squall("validate --print-json scenarios/quickstart.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("{\n  \"name\": \"quickstart\",\n", 0), 0u) << r.out;
  EXPECT_EQ(r.out.find("//"), std::string::npos);
  EXPECT_EQ(r.err, "");
}

TEST(PrintJsonTest, OneScenarioOnlyAndAnInvalidOneIsExit2) {
  const Result two = squall("validate --print-json scenarios/quickstart.json scenarios/quickstart.json");
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_EQ(two.err, "validate --print-json: give exactly one scenario file or one --policy file\n");
  const Result policy = squall("validate --print-json --policy scenarios/policies/naive-retry.json");
  EXPECT_EQ(policy.exit_code, 0) << policy.err;
  EXPECT_EQ(policy.out.find("//"), std::string::npos);
  const Result bad = squall("validate --print-json scenarios/corpora/queries-crm.json");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(bad.err.rfind("scenarios/corpora/queries-crm.json: ", 0), 0u) << bad.err;
}

}  // namespace

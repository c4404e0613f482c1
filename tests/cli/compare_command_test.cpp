// `squall compare`: two policies on one scenario and seed, or two JSON reports.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
using squall::test_support::squall;

TEST(CompareCommandTest, TwoPoliciesOnTheSameSeedSideBySide) {
  const Result r = squall(
      "compare scenarios/incidents/launch-surge-429-storm.json --policy scenarios/policies/naive-retry.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(first_line(r.out), "squall compare launch-surge-429-storm: seed 7");
  // The README's two runs of the flagship, as differences.
  EXPECT_NE(r.out.find("\ntasks.succeeded                                   1123                  975            -148"
                       "       -13.18%\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\ntask_success                                  0.863929             0.348214       -0.515715"
                       "       -59.69%\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(last_line(r.out),
            "thresholds_passed                                    5                    3              -2       -40.00%");
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
  EXPECT_EQ(rows, 27);
}

TEST(CompareCommandTest, UsageAndBadInputAreExit2) {
  const Result none = squall("compare scenarios/quickstart.json");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err,
            "squall compare: give a scenario and one or two --policy files (and optionally --seed), or two JSON "
            "reports\n");
  const Result not_report = squall("compare scenarios/quickstart.json scenarios/quickstart.json");
  EXPECT_EQ(not_report.exit_code, 2);
  EXPECT_EQ(not_report.err.rfind("scenarios/quickstart.json: not JSON: ", 0), 0u) << not_report.err;
  const Result scenario_json = squall("compare scenarios/corpora/queries-crm.json scenarios/corpora/queries-crm.json");
  EXPECT_EQ(scenario_json.exit_code, 2);
  EXPECT_EQ(scenario_json.err, "scenarios/corpora/queries-crm.json: not a squall report: no squall_report_version\n");
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

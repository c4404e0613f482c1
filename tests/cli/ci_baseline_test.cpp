// `squall ci --report json-dir=DIR` and `ci --baseline DIR --fail-on METRIC:MARGIN`
// (cli/ci_baseline.hpp): each scenario's JSON report saved by name, and gated against the
// report of that name in a baseline directory; `ci --report html-dir=DIR`: each scenario's
// HTML page by name and an index linking them with their verdicts
// (reports/writers/ci_html_index.hpp).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
using squall::test_support::squall;
namespace fs = std::filesystem;

const std::string kQuickstart = "scenarios/quickstart.json";
const std::string kBudget = "scenarios/ci/llm-budget-guard.json";

std::string from(const std::string& out, const std::string& start) {
  const std::size_t at = out.find(start);
  return at == std::string::npos ? "(not found: " + start + ")\n" + out : out.substr(at);
}

TEST(CiBaselineTest, JsonDirWritesEachReportAsRunWouldByItsFileName) {
  const fs::path dir = fresh_dir("ci-json-dir");
  const Result r = squall("ci " + kQuickstart + " " + kBudget + " -j 2 --report json-dir=" + dir.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\njson reports of 2 scenarios written to " + dir.string() + "\n"), std::string::npos) << r.out;
  const fs::path run_out = temp_path("ci-json-dir-run.json");
  ASSERT_EQ(squall("run " + kQuickstart + " --out " + run_out.string()).exit_code, 0);
  EXPECT_EQ(read_file(dir / "quickstart.json"), read_file(run_out));
  EXPECT_TRUE(fs::exists(dir / "llm-budget-guard.json"));
}

TEST(CiBaselineTest, AGateFailsAgainstTheBaselineOfTheSameName) {
  // The baseline of the quickstart is the naive policy's report: its p99 is 41.87% lower,
  // so the scenario's own run is worse by more than 10%. The budget guard has no baseline.
  const fs::path base = fresh_dir("ci-baseline");
  ASSERT_EQ(squall("run " + kQuickstart + " --policy scenarios/policies/naive-retry.json --out " +
                   (base / "quickstart.json").string())
                .exit_code,
            1);
  const Result r = squall("ci " + kQuickstart + " " + kBudget + " -j 2 --baseline " + base.string() +
                          " --fail-on latency_ms.p99:+10% --fail-on task_success:-0.01");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(from(r.out, "baseline: "),
            "baseline: scenarios/quickstart.json against " + (base / "quickstart.json").string() +
                "\n"
                "gate latency_ms.p99:+10%: FAIL (A 19238.836, B 27293.402, B - A +8054.566, +41.87%)\n"
                "gate task_success:-0.01: pass (A 0.736842, B 0.982456, B - A +0.245614, +33.33%)\n"
                "gates: 1 of 2 failed\n"
                "baseline: scenarios/ci/llm-budget-guard.json: no " +
                (base / "llm-budget-guard.json").string() +
                ", not compared\n"
                "squall ci: baselines: 0 passed, 1 failed, 0 unreadable, 1 missing\n"
                "squall ci: 2 scenarios, 2 passed, 0 failed, 0 not run; exit 1\n");
  const Result wide = squall("ci --fail-on latency_ms.p99:+45% --baseline " + base.string() + " " + kQuickstart);
  EXPECT_EQ(wide.exit_code, 0) << wide.err;
  EXPECT_NE(wide.out.find("\nsquall ci: baselines: 1 passed, 0 failed, 0 unreadable, 0 missing\n"), std::string::npos)
      << wide.out;
}

TEST(CiBaselineTest, ABaselineThatIsNotAReportIsExitTwoForItsScenario) {
  const fs::path base = fresh_dir("ci-baseline-bad");
  std::ofstream(base / "quickstart.json") << "{\"a\": 1}";
  const Result r = squall("ci " + kQuickstart + " --baseline " + base.string() + " --fail-on task_success:-0.01");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.out.find("\nbaseline: scenarios/quickstart.json: " + (base / "quickstart.json").string() +
                       ": not a squall report: no squall_report_version\n"),
            std::string::npos)
      << r.out;
}

TEST(CiBaselineTest, BadRequestsAreUsageErrorsBeforeAnythingRuns) {
  const fs::path base = fresh_dir("ci-baseline-usage");
  const auto refused = [](const std::string& args, const std::string& message) {
    const Result r = squall("ci " + kQuickstart + " " + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_EQ(r.err, "squall ci: " + message + "\n") << args;
  };
  refused("--baseline " + base.string(),
          "--baseline needs at least one --fail-on METRIC:MARGIN (e.g. --fail-on task_success:-0.01)");
  refused("--fail-on task_success:-0.01", "--fail-on needs --baseline DIR (the reports to compare with)");
  refused("--baseline " + base.string() + "/nope --fail-on task_success:-0.01",
          "--baseline " + base.string() + "/nope: \"" + base.string() + "/nope\" is not an existing directory");
  refused("--baseline " + base.string() + " --fail-on task_success:+0.01",
          "--fail-on \"task_success:+0.01\": B is worse when task_success is lower: write task_success:-0.01");
  refused("--baseline " + base.string() + " --fail-on latency:+1%",
          "--fail-on \"latency:+1%\": unknown metric \"latency\"; the metrics are tasks.total, tasks.succeeded, "
          "tasks.degraded, tasks.safe_failed, tasks.failed, tasks.wrong_answer, task_success, latency_ms.p50, "
          "latency_ms.p90, latency_ms.p99, latency_ms.max, latency_ms.mean, retry_amplification.overall, "
          "tokens.input, tokens.output, tokens.burned_by_failed_attempts, cost_usd.total, "
          "cost_usd.burned_by_failed_attempts, cost_usd.per_task, task_spend.tokens.p50, task_spend.tokens.p99, "
          "task_spend.tokens.max, task_spend.cost_usd.p50, task_spend.cost_usd.p99, task_spend.cost_usd.max, "
          "breaker_transitions_total, breaker_openings.consecutive_failures, breaker_openings.failure_rate, "
          "breaker_openings.slow_call_rate, breaker_openings.probe_failed, thresholds_passed");
  refused("--report json-dir=" + base.string() + "/nope",
          "--report json-dir=" + base.string() + "/nope: \"" + base.string() + "/nope\" is not an existing directory");
  refused("--report json-dir=" + base.string() + " --report json-dir=/tmp",
          "--report json-dir=" + base.string() + " and --report json-dir=/tmp: give one json-dir");
  refused("--report json-dir=", "--report json-dir= names no directory");
}

TEST(CiBaselineTest, TwoScenariosOfOneNameAreRefusedByJsonDir) {
  const fs::path base = fresh_dir("ci-json-dir-clash");
  const fs::path other = fresh_dir("ci-json-dir-clash-src");
  fs::copy_file(fs::path(SQUALL_SOURCE_DIR) / kBudget, other / "quickstart.json");
  const Result r =
      squall("ci " + kQuickstart + " " + (other / "quickstart.json").string() + " --report json-dir=" + base.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall ci: --report json-dir=" + base.string() + ": scenarios/quickstart.json and " +
                       (other / "quickstart.json").string() + " would both write " +
                       (base / "quickstart.json").string() + "\n");
  EXPECT_TRUE(fs::is_empty(base));
}

}  // namespace

namespace {

using namespace squall::test_support;
namespace fs = std::filesystem;

TEST(CiPolicyTest, EveryScenarioRunsUnderThePolicyWithNotesForWhatItSkipsOrKeeps) {
  const fs::path policy = temp_path("ci-policy.json");
  std::ofstream(policy) << R"({ "web_search": [], "pinecone": [] })";
  const Result r = squall("ci --policy " + policy.string() + " scenarios/quickstart.json -j 1");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("FAIL  scenarios/quickstart.json (seed 42, 1 of 2 thresholds failed)\n"
                       "      note: " +
                       policy.string() +
                       ": skipped \"pinecone\": the scenario has no tool or provider of that name\n"
                       "      note: " +
                       policy.string() + ": \"llm\" not named in it: the scenario's own policy kept\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("repro: " + std::string(SQUALL_BINARY) + " run scenarios/quickstart.json --seed 42 --policy " +
                       policy.string() + "\n"),
            std::string::npos)
      << r.out;
}

TEST(CiPolicyTest, APolicyNamingNoToolOfAnyScenarioIsExitTwoBeforeAnyRun) {
  const fs::path policy = temp_path("ci-policy-none.json");
  std::ofstream(policy) << R"({ "pinecone": [] })";
  const fs::path junit = temp_path("ci-policy-none.xml");
  const Result r = squall("ci scenarios/quickstart.json scenarios/ci --policy " + policy.string() +
                          " --report junit=" + junit.string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "squall ci: " + policy.string() + ": names no tool of any scenario given\n");
  EXPECT_FALSE(fs::exists(junit));
  // A scenario that does not load may hold any tool: the file is not refused, the scenario
  // is an ERROR with its own message and the others run.
  const fs::path broken = temp_path("ci-policy-broken.json");
  std::ofstream(broken) << "{";
  const Result with_broken =
      squall("ci " + broken.string() + " scenarios/ci/llm-capacity-429s.json --policy " + policy.string());
  EXPECT_EQ(with_broken.exit_code, 2) << with_broken.err;
  EXPECT_NE(with_broken.out.find("ERROR " + broken.string() + " (exit 2, not run)\n"), std::string::npos)
      << with_broken.out;
  EXPECT_NE(with_broken.out.find("PASS  scenarios/ci/llm-capacity-429s.json"), std::string::npos) << with_broken.out;
  const Result missing = squall("ci scenarios/quickstart.json --policy " + policy.string() + ".nope");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.out, "");
  EXPECT_EQ(missing.err, "squall ci: " + policy.string() + ".nope: file not found\n");
}

TEST(CiPolicyTest, OnePolicyOverScenariosCiRunsEveryScenarioAndTheReportsSayHowItMerged) {
  // The naive policy names "llm" and "web_search": scenarios with other tools run their own
  // policy, with a note in the output and in every report.
  const fs::path dir = temp_path("ci-policy-json");
  fs::create_directories(dir);
  const fs::path junit = temp_path("ci-policy.xml");
  const std::string naive = "scenarios/policies/naive-retry.json";
  const Result r = squall("ci scenarios/ci --policy " + naive + " -j 2 --report json-dir=" + dir.string() +
                          " --report junit=" + junit.string());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out.find("ERROR"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("squall ci: 14 scenarios, 9 passed, 5 failed, 0 not run; exit 1\n"), std::string::npos) << r.out;
  const std::string kept =
      naive + ": names no tool of the scenario (its tools are \"answer\"): the scenario's own policy kept";
  EXPECT_NE(r.out.find("PASS  scenarios/ci/llm-capacity-429s.json (seed 11, 3 thresholds)\n      note: " + kept + "\n"),
            std::string::npos)
      << r.out;
  const auto report = nlohmann::json::parse(read_file((dir / "llm-capacity-429s.json").string()));
  EXPECT_EQ(report["produced_by"]["policy_notes"], nlohmann::json::array({kept}));
  // It ran its own policy: its repro reruns it without the file (which `run` would refuse).
  EXPECT_EQ(report["produced_by"]["repro"],
            std::string(SQUALL_BINARY) + " run scenarios/ci/llm-capacity-429s.json --seed 11");
  const auto skipped = nlohmann::json::parse(read_file((dir / "search-outage-breaker.json").string()));
  EXPECT_EQ(skipped["produced_by"]["policy_notes"][0],
            naive + ": skipped \"llm\": the scenario has no tool or provider of that name");
  EXPECT_NE(read_file(junit.string())
                .find("<property name=\"policy_note\" value=\"" + naive +
                      ": names no tool of the scenario (its tools are &quot;answer&quot;)"),
            std::string::npos);
}

// The rows of the index's table, one a line.
std::string rows(const std::string& index) {
  const std::size_t from = index.find("<tbody>\n");
  const std::size_t to = index.find("</tbody>");
  if (from == std::string::npos || to == std::string::npos) return "(no table)\n" + index;
  return index.substr(from + 8, to - from - 8);
}

TEST(CiBaselineTest, HtmlDirWritesEachPageAsRunWouldAndAnIndexWithTheVerdicts) {
  const fs::path dir = fresh_dir("ci-html-dir");
  const fs::path bad = temp_path("ci-html-dir-bad.json");
  std::ofstream(bad) << "{";
  const Result r = squall("ci " + kQuickstart + " " + kBudget + " " + bad.string() +
                          " -j 2 --policy scenarios/policies/naive-retry.json --report html-dir=" + dir.string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.out.find("\nhtml pages of 2 scenarios and index.html written to " + dir.string() + "\n"),
            std::string::npos)
      << r.out;
  const fs::path page = temp_path("ci-html-dir-run.html");
  EXPECT_EQ(
      squall("run " + kQuickstart + " --policy scenarios/policies/naive-retry.json --report html=" + page.string())
          .exit_code,
      1);
  EXPECT_EQ(read_file(dir / "quickstart.html"), read_file(page));
  EXPECT_TRUE(fs::exists(dir / "llm-budget-guard.html"));
  EXPECT_FALSE(fs::exists(dir / "ci-html-dir-bad.html"));
  const std::string index = read_file(dir / "index.html");
  EXPECT_EQ(index.rfind("<!DOCTYPE html>\n<html lang=\"en\" data-squall-index=\"1\">\n", 0), 0U);
  EXPECT_NE(index.find("<h1 class=\"fail\">✗ squall ci: 3 scenarios, 1 passed, 1 failed, 1 not run</h1>"),
            std::string::npos)
      << index;
  const std::string first_line = rows(index).substr(0, rows(index).find('\n'));
  EXPECT_EQ(first_line,
            "<tr class=\"fail\" data-scenario=\"scenarios/quickstart.json\"><td>✗</td><td><a "
            "href=\"quickstart.html\">quickstart</a></td><td><code>scenarios/quickstart.json</code></td>"
            "<td>1 of 2 thresholds failed</td></tr>");
  EXPECT_NE(rows(index).find("<td>not run: "), std::string::npos) << index;
  // The same run gives the same bytes.
  const fs::path again = fresh_dir("ci-html-dir-again");
  squall("ci " + kQuickstart + " " + kBudget + " " + bad.string() +
         " -j 1 --policy scenarios/policies/naive-retry.json --report html-dir=" + again.string());
  EXPECT_EQ(read_file(again / "index.html"), index);
  EXPECT_EQ(read_file(again / "quickstart.html"), read_file(dir / "quickstart.html"));
}

TEST(CiBaselineTest, BadHtmlDirRequestsAreRefusedBeforeAnythingRuns) {
  const fs::path base = fresh_dir("ci-html-dir-refused");
  const auto refused = [&base](const std::string& args, const std::string& message) {
    const Result r = squall("ci " + kQuickstart + " " + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.err, "squall ci: " + message + "\n") << args;
    EXPECT_TRUE(fs::is_empty(base)) << args;
  };
  refused("--report html=" + (base / "x.html").string(),
          "ci writes a page per scenario and an index with --report html-dir=DIR; html=PATH is one run's report: use "
          "`squall run SCENARIO --report html=PATH`");
  refused("--report html-dir=" + base.string() + "/nope",
          "--report html-dir=" + base.string() + "/nope: \"" + base.string() + "/nope\" is not an existing directory");
  refused("--report html-dir=" + base.string() + " --report html-dir=/tmp",
          "--report html-dir=" + base.string() + " and --report html-dir=/tmp: give one html-dir");
  refused("--report html-dir=", "--report html-dir= names no directory");
  refused("--report htmldir=" + base.string(),
          "unknown report format \"htmldir\" in --report htmldir=" + base.string() +
              "; formats: json, junit, markdown, csv, jsonl, html, otlp");
  const fs::path src = fresh_dir("ci-html-dir-index-src");
  fs::copy_file(fs::path(SQUALL_SOURCE_DIR) / kBudget, src / "index.json");
  const Result r = squall("ci " + (src / "index.json").string() + " --report html-dir=" + base.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall ci: --report html-dir=" + base.string() + ": " + (src / "index.json").string() +
                       " would write " + (base / "index.html").string() + ", the index\n");
  EXPECT_TRUE(fs::is_empty(base));
}

}  // namespace

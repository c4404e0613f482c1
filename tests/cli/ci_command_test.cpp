// `squall ci`: many scenarios at once, one line each in input order, a final table, one
// JUnit file and one Markdown summary, the worst exit code; the same output for any --jobs.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "cli/commands.hpp"
#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
using squall::test_support::squall;
namespace fs = std::filesystem;

// The quickstart with an impossible latency threshold, so that it fails (exit 1); the
// corpus path made absolute, since the copy lives in the tests' temporary directory.
fs::path failing_scenario() {
  std::string text = read_file(fs::path(SQUALL_SOURCE_DIR) / "scenarios/quickstart.json");
  const auto replace = [&](const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace("\"name\": \"quickstart\"", "\"name\": \"too-fast\"");
  std::string corpus = "\"";
  corpus += SQUALL_SOURCE_DIR;
  corpus += "/scenarios/corpora/crm.jsonl\"";
  replace("\"corpora/crm.jsonl\"", corpus);
  replace("\"p(95)<20s\"", "\"p(95)<1ms\"");
  const fs::path dir = temp_path("ci_failing");
  fs::create_directories(dir);
  std::ofstream(dir / "too-fast.json") << text;
  return dir / "too-fast.json";
}

fs::path bad_scenario() {
  const fs::path dir = temp_path("ci_bad");
  fs::create_directories(dir);
  std::ofstream(dir / "bad.json") << "{ \"name\": 3 }\n";
  return dir / "bad.json";
}

// The scenarios scenarios/ci holds, counted as `squall ci` counts them (its *.json, *.yaml
// and *.yml files),
// so that adding one does not break the tests below.
std::string shipped_ci_count() {
  std::size_t n = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(fs::path(SQUALL_SOURCE_DIR) / "scenarios/ci")) {
    const fs::path ext = e.path().extension();
    if (e.is_regular_file() && (ext == ".json" || ext == ".yaml" || ext == ".yml")) ++n;
  }
  return std::to_string(n);
}

TEST(CiTest, ADirectoryRunsItsScenariosInNameOrderAndAllPass) {
  const Result r = squall("ci scenarios/ci -j 2");
  const std::string n = shipped_ci_count();
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(first_line(r.out), "squall ci: " + n + " scenarios");
  const std::size_t budget = r.out.find("PASS  scenarios/ci/llm-budget-guard.json (seed ");
  const std::size_t window = r.out.find("PASS  scenarios/ci/llm-context-window-fallback.json (seed ");
  const std::size_t vector = r.out.find("PASS  scenarios/ci/vector-threshold-relaxation.json (seed ");
  ASSERT_NE(budget, std::string::npos) << r.out;
  EXPECT_LT(budget, window);
  EXPECT_LT(window, vector);
  EXPECT_EQ(last_line(r.out), "squall ci: " + n + " scenarios, " + n + " passed, 0 failed, 0 not run; exit 0");
  EXPECT_NE(r.err.find("ran " + n + " scenarios on 2 jobs in "), std::string::npos) << r.err;
}

TEST(CiTest, ADirectoryStandsForItsYamlFilesToo) {
  // scenarios/examples holds search-429s.json and its YAML twin search-429s.yaml.
  const Result r = squall("ci scenarios/examples -j 1");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::size_t json = r.out.find("PASS  scenarios/examples/search-429s.json (seed 7");
  const std::size_t yaml = r.out.find("PASS  scenarios/examples/search-429s.yaml (seed 7");
  ASSERT_NE(yaml, std::string::npos) << r.out;
  EXPECT_LT(json, yaml);
}

TEST(CiTest, AFileGivenTwiceGetsUniqueJunitSuiteNames) {
  // The same file twice, and a JSON scenario with its YAML twin (one scenario name): four
  // suites, four names, the same for any --jobs.
  const fs::path junit = temp_path("ci-twice.xml");
  const Result r =
      squall("ci scenarios/quickstart.json scenarios/quickstart.json scenarios/examples -j 2 --report junit=" +
             junit.string());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string xml = read_file(junit);
  for (const std::string name :
       {"quickstart (scenarios/quickstart.json)", "quickstart (scenarios/quickstart.json) #2",
        "search-429s (scenarios/examples/search-429s.json)", "search-429s (scenarios/examples/search-429s.yaml)"}) {
    EXPECT_NE(xml.find("<testsuite name=\"" + name + "\""), std::string::npos) << name << "\n" << xml;
  }
}

TEST(CiTest, OutputAndReportsAreTheSameForAnyNumberOfJobs) {
  const std::string inputs =
      "scenarios/ci scenarios/quickstart.json " + failing_scenario().string() + " " + bad_scenario().string();
  std::string outs[2];
  std::string junits[2];
  std::string markdowns[2];
  const char* jobs[2] = {"1", "3"};
  for (int i = 0; i < 2; ++i) {
    const fs::path junit = temp_path(std::string("ci-") + jobs[i] + ".xml");
    const fs::path md = temp_path(std::string("ci-") + jobs[i] + ".md");
    const Result r = squall("ci " + inputs + " --jobs " + jobs[i] + " --report junit=" + junit.string() +
                            " --report markdown=" + md.string());
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    // The lines naming the files written differ by their paths only.
    outs[i] = r.out.substr(0, r.out.find("junit report written to "));
    junits[i] = read_file(junit);
    markdowns[i] = read_file(md);
  }
  EXPECT_EQ(outs[0], outs[1]);
  EXPECT_EQ(junits[0], junits[1]);
  EXPECT_EQ(markdowns[0], markdowns[1]);
  EXPECT_NE(junits[0].find("<testsuite name=\"llm-budget-guard\""), std::string::npos) << junits[0];
  const int n = std::stoi(shipped_ci_count());
  const std::string heading = "## ✗ squall ci: " + std::to_string(n + 3) + " scenarios (" + std::to_string(n + 1) +
                              " passed, 1 failed, 1 not run)";
  EXPECT_NE(markdowns[0].find(heading), std::string::npos) << markdowns[0];
}

TEST(CiTest, ABadScenarioIsAnErrorLineAndDoesNotStopTheOthers) {
  const fs::path bad = bad_scenario();
  const Result r = squall("ci " + bad.string() + " scenarios/quickstart.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("ERROR " + bad.string() + " (exit 2, not run)\n      " + bad.string() + ": /name: "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("PASS  scenarios/quickstart.json (seed 42, 2 thresholds)\n"), std::string::npos) << r.out;
  EXPECT_EQ(last_line(r.out), "squall ci: 2 scenarios, 1 passed, 0 failed, 1 not run; exit 2");
}

TEST(CiTest, AScenarioOverTheInFlightLimitIsNotRunAndNamesTheFlag) {
  const Result r = squall("ci scenarios/incidents/launch-surge-429-storm.json --max-in-flight 1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("launch-surge-429-storm.json: run stopped, no report written: at "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("more than 1 tasks were in flight (the limit) while tasks arrived at "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("for this workload (--max-in-flight sets the limit)\n"), std::string::npos) << r.out;
  EXPECT_EQ(last_line(r.out), "squall ci: 1 scenario, 0 passed, 0 failed, 1 not run; exit 2");
}

TEST(CiTest, AFailingScenarioEndsWithItsFailuresAndReproAfterTheTable) {
  const fs::path failing = failing_scenario();
  const Result r = squall("ci scenarios/quickstart.json " + failing.string());
  EXPECT_EQ(r.exit_code, 1);
  const std::size_t line = r.out.find("FAIL  " + failing.string() + " (seed 42, 1 of 2 thresholds failed)\n");
  const std::size_t table = r.out.find("\nresult");
  const std::size_t failed =
      r.out.find("threshold failed: " + failing.string() + ": task_latency: p(95)<1ms (observed ");
  const std::size_t repro =
      r.out.find(std::string("repro: ") + SQUALL_BINARY + " run " + failing.string() + " --seed 42\n");
  ASSERT_NE(line, std::string::npos) << r.out;
  EXPECT_LT(line, table);
  EXPECT_LT(table, failed);
  EXPECT_LT(failed, repro);
  EXPECT_EQ(last_line(r.out), "squall ci: 2 scenarios, 1 passed, 1 failed, 0 not run; exit 1");
}

TEST(CiTest, QuietPrintsOnlyWhatDidNotPass) {
  const fs::path failing = failing_scenario();
  const Result r = squall("ci -q scenarios/quickstart.json " + failing.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out.find("PASS"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\nresult"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FAIL  " + failing.string()), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
}

TEST(CiTest, AMissingPathIsAUsageError) {
  const Result r = squall("ci scenarios/cii");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall ci: scenarios/cii: no such file or directory\n");
  EXPECT_EQ(r.out, "");
}

TEST(CiTest, ADirectoryWithoutScenariosIsAUsageError) {
  const fs::path dir = temp_path("ci_empty");
  fs::create_directories(dir / "sub.json");  // a directory, whatever its name, is no scenario
  std::ofstream(dir / "notes.txt") << "not a scenario\n";
  const Result r = squall("ci " + dir.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall ci: " + dir.string() + ": no scenario files (*.json, *.yaml, *.yml) in this directory\n");
}

TEST(CiTest, OneRunsReportFormatsAreRefused) {
  const Result r = squall("ci scenarios/ci --report csv=" + temp_path("x.csv").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "squall ci: ci writes junit and markdown reports; csv is one run's report: use `squall run SCENARIO "
            "--report csv=PATH`\n");
}

TEST(CiTest, TheWorstExitCodeWins) {
  using namespace squall::cli;
  EXPECT_EQ(worst_exit_code(kExitOk, kExitThresholdFailed), kExitThresholdFailed);
  EXPECT_EQ(worst_exit_code(kExitBadInput, kExitThresholdFailed), kExitBadInput);
  EXPECT_EQ(worst_exit_code(kExitBadInput, kExitNondeterministic), kExitNondeterministic);
  EXPECT_EQ(worst_exit_code(kExitInternalError, kExitNondeterministic), kExitInternalError);
}

}  // namespace

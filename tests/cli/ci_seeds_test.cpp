// `squall ci --seeds`: every scenario on every seed, one line each, one table of pass rates
// and pass^k, the pass-rate requirements as the exit code, the same bytes for any --jobs,
// JUnit/Markdown/json-dir from the seed summaries, bad input refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
using squall::test_support::squall;
namespace fs = std::filesystem;

// The quickstart named `name` with `thresholds`, in a directory of its own.
fs::path quickstart_with(const std::string& name, const std::string& thresholds) {
  return quickstart_with_thresholds("ci_seeds_" + name, name, thresholds, name);
}

nlohmann::ordered_json json_of(const fs::path& file) { return nlohmann::ordered_json::parse(read_file(file)); }

// On seeds 1..8 the quickstart's task success is 1, 0.974138, 1, 1, 0.992248, 0.992188, 1,
// 0.992248 and its p99 latency 21.8, 23.2, 21.1, 16.4, 17.7, 17.1, 15.6, 24.2 s
// (tests/cli/run_seeds_test.cpp): rate>=0.99 fails on seed 2 only, p(99)<22s on 1 and 2.
const std::string kSplit =
    R"({"task_success": [{"threshold": "rate>=0.99", "pass_rate": ">=0.8"}], "task_latency": ["p(99)<22s"]})";
const std::string kLenient = R"({"task_latency": [{"threshold": "p(99)<22s", "pass_rate": ">=0.75"}]})";

// Six of eight seeds pass both: pass^k = C(6, k) / C(8, k). The split scenario's latency
// threshold needs every seed (exit 1); the lenient one allows two failed seeds in eight.
TEST(CiSeedsTest, PrintsALinePerScenarioATableOfPassRatesAndTheFailures) {
  const fs::path split = quickstart_with("split", kSplit);
  const fs::path lenient = quickstart_with("lenient", kLenient);
  const Result r = squall("ci " + split.string() + " " + lenient.string() + " --seeds 1..8 -j 2");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string s = split.string();
  const std::string l = lenient.string();
  // The name column is as wide as the longest path (both are longer than its heading).
  const std::size_t width = std::max(s.size(), l.size());
  const auto name = [&](const std::string& text) { return text + std::string(width - text.size(), ' '); };
  const std::string pass_k = "      0.75  0.535714  0.357143  0.214286  0.107143  0.035714         0         0\n";
  EXPECT_EQ(r.out,
            "squall ci: 2 scenarios, seeds 1..8\n"
            "FAIL  " +
                s +
                " (seeds 1..8, 1 of 2 below the required pass rate, 6/8 seeds passed all)\n"
                "PASS  " +
                l +
                " (seeds 1..8, 1 threshold met, 6/8 seeds passed all)\n"
                "\n"
                "result " +
                name("scenario / threshold") +
                "  seeds passed  required      pass^1    pass^2    "
                "pass^3    pass^4    pass^5    pass^6    pass^7    pass^8\n"
                "FAIL   " +
                name(s) + "           6/8            " + pass_k + "       " + name("  task_success rate>=0.99") +
                "           7/8  >=0.8\n"
                "MISS   " +
                name("  task_latency p(99)<22s") +
                "           6/8  every seed\n"
                "PASS   " +
                name(l) + "           6/8            " + pass_k + "       " + name("  task_latency p(99)<22s") +
                "           6/8  >=0.75\n"
                "threshold failed: " +
                s +
                ": task_latency: p(99)<22s on 6/8 seeds (required on every seed), "
                "failed on seeds 1, 2\n"
                "repro: " SQUALL_BINARY " run " +
                s +
                " --seed 1\n"
                "squall ci: 2 scenarios, 1 passed, 1 failed, 0 not run; exit 1\n");
  EXPECT_TRUE(r.err.starts_with("ran 16 runs of 2 scenarios on 2 jobs in ")) << r.err;
}

// `ci --seeds 8` gives, seed by seed, what eight `run --seed S` give for every scenario:
// the same fingerprints, the same thresholds passed, and pass rates that count them. A
// count starts at each scenario's own seed (the quickstart's 42, the budget guard's 5).
TEST(CiSeedsTest, EightSeedsEqualEightSeparateRuns) {
  const fs::path split = quickstart_with("eight", kSplit);
  const fs::path dir = split.parent_path() / "reports";
  fs::create_directories(dir);
  const std::string guard = "scenarios/ci/llm-budget-guard.json";
  const Result all = squall("ci " + split.string() + " " + guard + " --seeds 8 -q --report json-dir=" + dir.string());
  ASSERT_LE(all.exit_code, 1) << all.out << all.err;
  for (const auto& [file, name, first] : {std::tuple{split.string(), std::string("eight"), 42},
                                          std::tuple{std::string(guard), std::string("llm-budget-guard"), 5}}) {
    const nlohmann::ordered_json seeds = json_of(dir / (name + ".json"))["seeds"];
    ASSERT_EQ(seeds["count"], 8) << name;
    std::vector<int> passed(seeds["thresholds"].size(), 0);
    for (int i = 0; i < 8; ++i) {
      const fs::path out = dir / (name + "-one.json");
      const Result one = squall("run " + file + " --seed " + std::to_string(first + i) + " -q --out " + out.string());
      const nlohmann::ordered_json report = json_of(out);
      const nlohmann::ordered_json& run = seeds["runs"][i];
      EXPECT_EQ(run["seed"], first + i) << name;
      EXPECT_EQ(run["fingerprint"], report["fingerprint"]) << name << i;
      EXPECT_EQ(run["passed"], report["thresholds_passed"]) << name << i;
      EXPECT_EQ(one.exit_code, report["thresholds_passed"] ? 0 : 1);
      for (std::size_t t = 0; t < passed.size(); ++t) passed[t] += report["thresholds"][t]["passed"] ? 1 : 0;
    }
    for (std::size_t t = 0; t < passed.size(); ++t) {
      EXPECT_EQ(seeds["thresholds"][t]["seeds_passed"], passed[t]) << name << t;
      EXPECT_EQ(seeds["thresholds"][t]["pass_rate"], passed[t] / 8.0) << name << t;
    }
  }
}

// The runs go to one pool: stdout, JUnit, Markdown and json-dir are the same for any --jobs.
TEST(CiSeedsTest, SameBytesForAnyJobs) {
  const fs::path split = quickstart_with("jobs", kSplit);
  const fs::path dir = split.parent_path();
  const auto run = [&](const std::string& tag) {
    fs::create_directories(dir / tag);
    return squall("ci " + split.string() + " scenarios/ci/llm-budget-guard.json --seeds 3,1,2 -j " +
                  std::string(tag == "j1" ? "1" : "2") + " --report junit=" + (dir / tag / "ci.xml").string() +
                  " --report markdown=" + (dir / tag / "ci.md").string() +
                  " --report json-dir=" + (dir / tag).string());
  };
  const Result one = run("j1");
  const Result two = run("j2");
  EXPECT_EQ(one.exit_code, 1);
  EXPECT_EQ(two.exit_code, 1);
  std::string out = two.out;
  for (std::size_t at; (at = out.find("/j2")) != std::string::npos;) out.replace(at, 3, "/j1");
  EXPECT_EQ(one.out, out);
  for (const char* file : {"ci.xml", "ci.md", "jobs.json", "llm-budget-guard.json"}) {
    EXPECT_EQ(read_file(dir / "j1" / file), read_file(dir / "j2" / file)) << file;
  }
}

// JUnit: a test case per scenario and threshold, its pass rate as properties, a failure
// naming the seeds it failed on; Markdown: the seeds' table per scenario.
TEST(CiSeedsTest, JunitAndMarkdownCarryThePassRates) {
  const fs::path split = quickstart_with("junit", kSplit);
  const fs::path dir = split.parent_path();
  const Result r = squall("ci " + split.string() + " --seeds 1..8 -q --report junit=" + (dir / "ci.xml").string() +
                          " --report markdown=" + (dir / "ci.md").string());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string xml = read_file(dir / "ci.xml");
  const std::string repro = std::string(SQUALL_BINARY) + " run " + split.string() + " --seed 1";
  EXPECT_NE(xml.find("<testsuite name=\"junit\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<property name=\"seeds\" value=\"1..8\"/>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<property name=\"seeds_passed\" value=\"6/8\"/>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<testcase classname=\"junit\" name=\"task_success: rate&gt;=0.99\">\n"
                     "      <properties>\n"
                     "        <property name=\"pass_rate\" value=\"0.875\"/>\n"
                     "        <property name=\"seeds_passed\" value=\"7/8\"/>\n"
                     "        <property name=\"pass_rate_required\" value=\"&gt;=0.8\"/>\n"
                     "        <property name=\"failed_seeds\" value=\"2\"/>\n"
                     "      </properties>\n"
                     "    </testcase>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<failure type=\"pass_rate\" message=\"held on 6/8 seeds (required on every seed); failed on "
                     "seeds 1, 2\">task_latency: p(99)&lt;22s held on 6/8 seeds (required on every seed); failed on "
                     "seeds 1, 2\nrepro: " +
                     repro + "</failure>"),
            std::string::npos)
      << xml;
  const std::string md = read_file(dir / "ci.md");
  EXPECT_TRUE(
      md.starts_with("## ✗ squall ci: 1 scenario (0 passed, 1 failed, 0 not run)\n\n"
                     "| | scenario | result | seeds passed | pass^k |\n|:-:|:--|:--|--:|:--|\n"
                     "| ✗ | `" +
                     split.string() +
                     "` | 1 of 2 thresholds below their pass rate | 6/8 | k=1 0.75  k=2 0.535714  k=3 "
                     "0.357143  k=4 0.214286  k=5 0.107143  k=6 0.035714  k=7 0  k=8 0 |\n\n"
                     "### ✗ squall: junit on 8 seeds (1..8)\n"))
      << md;
}

void expect_usage_error(const std::string& args, const std::string& message) {
  const Result r = squall("ci scenarios/quickstart.json " + args);
  EXPECT_EQ(r.exit_code, 2) << args;
  EXPECT_EQ(r.out, "") << args;
  EXPECT_EQ(r.err, "squall ci: " + message + "\n") << args;
}

TEST(CiSeedsTest, BadSeedsAndCombinationsAreUsageErrors) {
  expect_usage_error("--seeds 0", "--seeds 0: expected at least one seed");
  expect_usage_error("--seeds 5..3", "--seeds 5..3: the range's end is below its start");
  expect_usage_error("--seeds x", "--seeds expects a count (8), a list (1,5,9) or a range (100..107), got \"x\"");
  expect_usage_error("--seeds 2 --baseline scenarios --fail-on task_success:-0.01",
                     "--baseline cannot be combined with --seeds: a baseline report is one run's; with --seeds, gate "
                     "on the thresholds' pass rates (\"pass_rate\")");
  expect_usage_error("--seeds 2 --progress",
                     "--progress cannot be combined with --seeds: it follows one run per scenario");
}

// A count past the largest seed from one scenario's own seed refuses that scenario only.
TEST(CiSeedsTest, ABadScenarioIsAnErrorLineAndDoesNotStopTheOthers) {
  const fs::path dir = temp_path("ci_seeds_bad");
  fs::create_directories(dir);
  std::ofstream(dir / "bad.json") << "{ \"name\": 3 }\n";
  const Result r = squall("ci " + (dir / "bad.json").string() + " scenarios/quickstart.json --seeds 2 -q");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(r.out.starts_with("squall ci: 2 scenarios, seeds 2\nERROR " + (dir / "bad.json").string() +
                                " (exit 2, not run)\n"))
      << r.out;
  EXPECT_TRUE(r.out.ends_with("squall ci: 2 scenarios, 1 passed, 0 failed, 1 not run; exit 2\n")) << r.out;
}

}  // namespace

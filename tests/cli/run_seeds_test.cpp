// `squall run --seeds`: every seed in parallel, per-threshold pass rates and pass^k, the
// same bytes for any --jobs, the pass-rate requirement as the exit code, bad input refused.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
using squall::test_support::squall;
namespace fs = std::filesystem;

fs::path quickstart_with(const std::string& name, const std::string& thresholds) {
  return quickstart_with_thresholds("run_seeds", name, thresholds);
}

nlohmann::ordered_json json_of(const fs::path& file) { return nlohmann::ordered_json::parse(read_file(file)); }

// On seeds 1..8 the quickstart's task success is 1, 0.982759, then 1 on every other seed,
// and its p99 latency 25.2, 22.3, 20.9, 18.2, 19.7, 19.5, 16.2, 17.9 s: rate>=0.99 fails on
// seed 2 only, p(99)<22s on seeds 1 and 2.
const std::string kSplit =
    R"({"task_success": [{"threshold": "rate>=0.99", "pass_rate": ">=0.8"}], "task_latency": ["p(99)<22s"]})";

// Six of eight seeds pass both: pass^k = C(6, k) / C(8, k) = 6/8, 15/28, 20/56, 15/70,
// 6/56, 1/28, 0, 0. The latency threshold needs every seed, so the run fails (exit 1).
TEST(RunSeedsTest, PrintsEachSeedThePassRatesAndPassK) {
  const fs::path scenario = quickstart_with("split", kSplit);
  const Result r = squall("run " + scenario.string() + " --seeds 1..8 -j 2");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out,
            "squall run quickstart: seeds 1..8\n"
            "  seeds: 1..8 (8 seeds), 6 passed every threshold\n"
            "  ✗ seed 1 ...: tasks 98  task_success 1  p99 25172.636 ms  cost $0.073972  failed: task_latency "
            "p(99)<22s\n"
            "  ✗ seed 2 ...: tasks 116  task_success 0.982759  p99 22276.922 ms  cost $0.103874  failed: task_success "
            "rate>=0.99, task_latency p(99)<22s\n"
            "  ✓ seed 3 ...: tasks 108  task_success 1  p99 20896.542 ms  cost $0.103386\n"
            "  ✓ seed 4 ...: tasks 136  task_success 1  p99 18213.662 ms  cost $0.109074\n"
            "  ✓ seed 5 ...: tasks 129  task_success 1  p99 19679.671 ms  cost $0.107754\n"
            "  ✓ seed 6 ...: tasks 128  task_success 1  p99 19450.632 ms  cost $0.107779\n"
            "  ✓ seed 7 ...: tasks 127  task_success 1  p99 16197.52 ms  cost $0.099753\n"
            "  ✓ seed 8 ...: tasks 129  task_success 1  p99 17929.304 ms  cost $0.108196\n"
            "\n"
            "  thresholds over 8 seeds\n"
            "  ✓ task_success rate>=0.99 ..: 7/8 seeds (required >=0.8), failed on seed 2\n"
            "  ✗ task_latency p(99)<22s ...: 6/8 seeds (required on every seed), failed on seeds 1, 2\n"
            "\n"
            "  pass^k (all k runs pass): k=1 0.75  k=2 0.535714  k=3 0.357143  k=4 0.214286  k=5 0.107143  k=6 "
            "0.035714  k=7 0  k=8 0\n"
            "threshold failed: task_latency: p(99)<22s on 6/8 seeds (required on every seed)\n"
            "repro: " SQUALL_BINARY " run " +
                scenario.string() + " --seed 1\n");
  // The wall time varies, so it goes to stderr.
  EXPECT_TRUE(r.err.starts_with("simulated 8 seeds on 2 jobs in ")) << r.err;
  EXPECT_TRUE(r.err.ends_with(" s of wall time\n")) << r.err;
}

// With a pass rate, the latency threshold may fail on two seeds in eight: exit 0.
TEST(RunSeedsTest, APassRateRequirementDecidesTheExitCode) {
  const fs::path lenient =
      quickstart_with("lenient", R"({"task_latency": [{"threshold": "p(99)<22s", "pass_rate": ">=0.75"}]})");
  const Result ok = squall("run " + lenient.string() + " --seeds 1..8 -q");
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_EQ(ok.out, "squall run quickstart: seeds 1..8\n");
  const fs::path strict =
      quickstart_with("strict", R"({"task_latency": [{"threshold": "p(99)<22s", "pass_rate": ">0.75"}]})");
  const Result failed = squall("run " + strict.string() + " --seeds 1..8 -q");
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_EQ(failed.out,
            "squall run quickstart: seeds 1..8\n"
            "threshold failed: task_latency: p(99)<22s on 6/8 seeds (required >0.75)\n"
            "repro: " SQUALL_BINARY " run " +
                strict.string() + " --seed 1\n");
}

// `--seeds 8 --seed 1` gives, seed by seed, what eight runs with --seed 1 ... --seed 8 give:
// the same fingerprint, the same thresholds passed, and pass rates that count them.
TEST(RunSeedsTest, EightSeedsEqualEightSeparateRuns) {
  const fs::path scenario = quickstart_with("eight", kSplit);
  const fs::path dir = scenario.parent_path();
  const Result all = squall("run " + scenario.string() + " --seed 1 --seeds 8 -q --out " + (dir / "all.json").string());
  ASSERT_EQ(all.exit_code, 1) << all.err;
  const nlohmann::ordered_json seeds = json_of(dir / "all.json")["seeds"];
  ASSERT_EQ(seeds["count"], 8);
  std::vector<int> passed(2, 0);
  for (int s = 1; s <= 8; ++s) {
    const fs::path out = dir / ("seed" + std::to_string(s) + ".json");
    const Result one =
        squall("run " + scenario.string() + " --seed " + std::to_string(s) + " -q --out " + out.string());
    const nlohmann::ordered_json report = json_of(out);
    const nlohmann::ordered_json& run = seeds["runs"][s - 1];
    EXPECT_EQ(run["seed"], s);
    EXPECT_EQ(run["fingerprint"], report["fingerprint"]) << s;
    EXPECT_EQ(run["passed"], report["thresholds_passed"]) << s;
    EXPECT_EQ(one.exit_code, report["thresholds_passed"] ? 0 : 1);
    std::vector<int> failed;
    for (int t = 0; t < 2; ++t) {
      if (report["thresholds"][t]["passed"]) {
        ++passed[t];
      } else {
        failed.push_back(t);
      }
    }
    EXPECT_EQ(run["failed_thresholds"].get<std::vector<int>>(), failed) << s;
  }
  for (int t = 0; t < 2; ++t) EXPECT_EQ(seeds["thresholds"][t]["seeds_passed"], passed[t]) << t;
  EXPECT_EQ(passed, (std::vector<int>{7, 6}));
}

// The JSON report is the first seed's, the seeds section last. Seed 2 fails both thresholds,
// seed 3 neither.
TEST(RunSeedsTest, TheJsonReportIsTheFirstSeedsWithASeedsSection) {
  const fs::path scenario = quickstart_with("shape", kSplit);
  const fs::path out = scenario.parent_path() / "shape.out.json";
  ASSERT_EQ(squall("run " + scenario.string() + " --seeds 3,2 -q --out " + out.string()).exit_code, 1);
  const nlohmann::ordered_json report = json_of(out);
  EXPECT_EQ(report["seed"], 3);
  const nlohmann::ordered_json& seeds = report["seeds"];
  EXPECT_EQ(seeds["seeds"].get<std::vector<int>>(), (std::vector<int>{3, 2}));
  EXPECT_EQ(seeds["passed"], false);
  EXPECT_EQ(seeds["seeds_passed"], 1);
  EXPECT_EQ(seeds["thresholds"][1].dump(),
            R"({"metric":"task_latency","expression":"p(99)<22s","pass_rate_required":null,"seeds_passed":1,)"
            R"("pass_rate":0.5,"met":false,"failed_seeds":[2]})");
  EXPECT_EQ(seeds["thresholds"][0]["pass_rate_required"], ">=0.8");
  EXPECT_EQ(seeds["pass_k"].dump(), R"([{"k":1,"value":0.5},{"k":2,"value":0.0}])");
}

// Each seed builds its own world: the outputs are the same bytes for any --jobs.
TEST(RunSeedsTest, SameBytesForAnyJobs) {
  const fs::path scenario = quickstart_with("jobs", kSplit);
  const fs::path dir = scenario.parent_path();
  const std::string base = "run " + scenario.string() + " --seeds 10..21 --report markdown=";
  const Result one = squall(base + (dir / "j1.md").string() + " --out " + (dir / "j1.json").string() + " -j 1");
  const Result two = squall(base + (dir / "j2.md").string() + " --out " + (dir / "j2.json").string() + " -j 2");
  EXPECT_EQ(one.exit_code, two.exit_code);
  const auto without_paths = [&](std::string text, const std::string& tag) {
    for (const std::string ext : {".md", ".json"}) {
      const std::string path = (dir / (tag + ext)).string();
      text.replace(text.find(path), path.size(), "PATH");
    }
    return text;
  };
  EXPECT_EQ(without_paths(one.out, "j1"), without_paths(two.out, "j2"));
  EXPECT_EQ(read_file(dir / "j1.json"), read_file(dir / "j2.json"));
  EXPECT_EQ(read_file(dir / "j1.md"), read_file(dir / "j2.md"));
}

void expect_usage_error(const std::string& args, const std::string& message) {
  const fs::path scenario = quickstart_with("usage", kSplit);
  const Result r = squall("run " + scenario.string() + " " + args);
  EXPECT_EQ(r.exit_code, 2) << args;
  EXPECT_EQ(r.out, "") << args;
  EXPECT_EQ(r.err, "squall: " + message + "\n") << args;
}

TEST(RunSeedsTest, BadSeedsAreUsageErrors) {
  expect_usage_error("--seeds 0", "--seeds 0: expected at least one seed");
  expect_usage_error("--seeds 5..3", "--seeds 5..3: the range's end is below its start");
  expect_usage_error("--seeds abc", "--seeds expects a count (8), a list (1,5,9) or a range (100..107), got \"abc\"");
  expect_usage_error("--seeds 10001", "--seeds 10001: at most 10000 seeds, got 10001");
}

TEST(RunSeedsTest, OptionsThatDescribeOneRunDoNotCombineWithSeeds) {
  expect_usage_error("--seeds 1,5 --seed 3",
                     "--seed cannot be combined with --seeds 1,5, which names every seed; --seeds N runs N seeds from "
                     "--seed");
  expect_usage_error("--seeds 2 --check-determinism",
                     "--check-determinism cannot be combined with --seeds: it checks one run; use --seed N");
  expect_usage_error("--seeds 2 --progress", "--progress cannot be combined with --seeds: it follows one run");
  expect_usage_error("--seeds 2 --report html=x.html",
                     "--report html cannot be combined with --seeds: it describes one run (use --seed N); with "
                     "--seeds, json and markdown");
  expect_usage_error("-j 2", "--jobs runs seeds in parallel: it needs --seeds");
}

TEST(RunSeedsTest, AMalformedPassRateIsABadScenario) {
  const fs::path scenario =
      quickstart_with("bad_rate", R"({"task_success": [{"threshold": "rate>=0.9", "pass_rate": "90%"}]})");
  const Result r = squall("run " + scenario.string() + " --seeds 4");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, scenario.string() +
                       ": /thresholds/task_success/0/pass_rate: expected a pass rate such as \">=0.9\" (>= or > and "
                       "a fraction of seeds in [0, 1]), got \"90%\"\n");
}

}  // namespace

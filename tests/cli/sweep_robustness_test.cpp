// Sweeps with scenario axes (docs/sweeps.md, "Scenario axes"): the robustness tables and
// their JSON section with exact values, the same bytes for any --jobs and for shards
// merged, comparisons only on the baseline's scenario settings, and the shipped robustness
// sweep's table as docs/sweeps.md shows it.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace squall::test_support {
namespace {

const std::string kSweep = "tests/cli/data/sweep-robustness.json";
const char* const kFormats[] = {"json", "markdown", "csv", "html"};

std::string report_args(const std::string& prefix) {
  std::string args;
  for (const char* f : kFormats) args += " --report " + std::string(f) + "=" + temp_path(prefix + "." + f).string();
  return args;
}

std::string table_of(const Result& r) { return r.out.substr(0, r.out.find("json report written")); }

// The text from `from` up to (not including) `to`.
std::string between(const std::string& text, const std::string& from, const std::string& to) {
  const std::size_t begin = text.find(from);
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find(to, begin) - begin);
}

}  // namespace

TEST(SweepRobustnessTest, TablePerMetricRowsArePoliciesColumnsAreScenarioSettings) {
  const Result r = squall("sweep " + kSweep + " --jobs 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("compared with the baseline, on the Pareto front and recommended: only the variants on the "
                       "baseline's scenario settings (probability=0.1); the others are in the robustness tables\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  own[probability=0.3]    4  0.973863  [0.955027, 0.992699]  other scenario\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(between(r.out, "Robustness:", "\nlatency_ms.p50"),
            "Robustness: each policy's mean [95% CI] over the scenario settings\n"
            "\n"
            "task_success (higher is better)\n"
            "  policy  probability=0.1                probability=0.3                probability=0.6\n"
            "  own     0.995429 [0.987022, 1.00384]   0.973863 [0.955027, 0.992699]  0.810691 [0.726165, 0.895218]\n"
            "  naive   0.761747 [0.703966, 0.819528]  0.759389 [0.698914, 0.819863]  0.700374 [0.655262, 0.745486]\n");
  // Only the baseline's setting is on the front and recommended.
  EXPECT_NE(r.out.find("Pareto front (task_success max, latency_ms.p99 min, cost_usd.total min): "
                       "own[probability=0.1], naive[probability=0.1]\n"),
            std::string::npos);
  EXPECT_NE(r.out.find("recommendation: own[probability=0.1]: task_success max 0.995429 (95% CI 0.987022 to "
                       "1.00384), every threshold on at least 90% of 4 seeds\n"),
            std::string::npos);
}

TEST(SweepRobustnessTest, JsonHasTheRobustnessSection) {
  const std::string out = temp_path("robust.json").string();
  const Result r = squall("sweep " + kSweep + " -q --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(read_file(out));
  const nlohmann::json& rob = report["robustness"];
  EXPECT_EQ(rob["rows"], nlohmann::json::parse(R"(["own", "naive"])"));
  EXPECT_EQ(rob["columns"][1], nlohmann::json::parse(R"({"label": "probability=0.3", "settings":
      {"/scenario/providers/llm/faults/0/probability": 0.3}, "x": 0.3})"));
  EXPECT_EQ(rob["metrics"]["task_success"][0][1],
            nlohmann::json::parse(R"({"variant": "own[probability=0.3]", "n": 4, "mean": 0.973863, "sd": 0.011837,
                                      "ci95": [0.955027, 0.992699]})"));
  EXPECT_EQ(rob["metrics"].size(), report["metrics"].size());
  // A variant on another scenario setting has no difference against the baseline.
  EXPECT_FALSE(report["variants"][1]["metrics"]["task_success"].contains("difference"));
  EXPECT_TRUE(report["variants"][3]["metrics"]["task_success"].contains("difference"));
  // A sweep without scenario axes says so.
  const std::string plain = temp_path("plain.json").string();
  ASSERT_EQ(squall("sweep tests/cli/data/sweep-quickstart.json -q --out " + plain).exit_code, 0);
  EXPECT_TRUE(nlohmann::json::parse(read_file(plain))["robustness"].is_null());
}

TEST(SweepRobustnessTest, SameBytesForOneAndTwoJobsAndForShardsMerged) {
  const Result one = squall("sweep " + kSweep + " --jobs 1" + report_args("rjobs1"));
  const Result two = squall("sweep " + kSweep + " --jobs 2" + report_args("rjobs2"));
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_EQ(table_of(one), table_of(two));
  std::string partials;
  for (int i = 1; i <= 2; ++i) {
    const std::string out = temp_path("rpart" + std::to_string(i) + ".json").string();
    const Result r = squall("sweep " + kSweep + " --jobs 2 --shard " + std::to_string(i) + "/2 --out " + out);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    partials = out + " " + partials;
  }
  const Result merged = squall("merge " + partials + report_args("rmerged"));
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(table_of(one), table_of(merged));
  for (const char* f : kFormats) {
    const std::string x = read_file(temp_dir() / ("rjobs1." + std::string(f)));
    EXPECT_FALSE(x.empty()) << f;
    EXPECT_EQ(x, read_file(temp_dir() / ("rjobs2." + std::string(f)))) << f;
    EXPECT_EQ(x, read_file(temp_dir() / ("rmerged." + std::string(f)))) << f;
  }
  const std::string html = read_file(temp_dir() / "rjobs1.html");
  EXPECT_NE(html.find("<div id=\"robustness\"></div>"), std::string::npos);
  EXPECT_NE(html.find("\"x_label\":\"probability\",\"x\":[0.1,0.3,0.6]"), std::string::npos);
  const std::string markdown = read_file(temp_dir() / "rjobs1.markdown");
  // Brackets escaped: "[a, b]" followed by "(...)" would be a Markdown link.
  EXPECT_NE(markdown.find(R"(| own | 0.995429 \[0.987022, 1.00384\] | 0.973863 \[0.955027, 0.992699\] | 0.810691 )"
                          R"(\[0.726165, 0.895218\] |)"),
            std::string::npos)
      << markdown;
}

TEST(SweepRobustnessTest, TheGateComparesOnlyOnTheBaselinesScenario) {
  const Result other = squall("sweep " + kSweep + " -q --fail-on worse --candidate 'naive[probability=0.3]'");
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_EQ(other.err,
            "squall sweep: --candidate \"naive[probability=0.3]\" runs other scenario settings (probability=0.3) than "
            "the baseline own[probability=0.1] (probability=0.1): the gate compares variants on the same scenario\n");
  const Result same = squall("sweep " + kSweep + " -q --fail-on worse --candidate 'naive[probability=0.1]'");
  EXPECT_EQ(same.exit_code, 1);
  EXPECT_EQ(same.out,
            "FAIL naive[probability=0.1] is worse than the baseline own[probability=0.1] on task_success: -0.233682 "
            "(95% CI -0.28603 to -0.181334)\n"
            "gate: naive[probability=0.1] fails --fail-on\n");
}

TEST(SweepRobustnessTest, ShippedRobustnessSweepTableIsTheDocs) {
  // scenarios/sweeps/launch-surge-robustness.json: docs/sweeps.md shows its robustness
  // tables; they must be the tables the sweep prints today.
  const Result r = squall("sweep scenarios/sweeps/launch-surge-robustness.json --jobs 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string tables = between(r.out, "Robustness:", "\nPareto front");
  ASSERT_FALSE(tables.empty()) << r.out;
  EXPECT_NE(read_file(std::string(SQUALL_SOURCE_DIR) + "/docs/sweeps.md").find(tables), std::string::npos)
      << "docs/sweeps.md's robustness table differs from today's output:\n"
      << tables;
  // The storm's intensity costs the incident's policy tail latency, not success.
  EXPECT_NE(r.out.find("recommendation: incident-policy[probability=1]"), std::string::npos) << r.out;
}

}  // namespace squall::test_support

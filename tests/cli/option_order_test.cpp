// Options before or after the positional arguments, as CI steps write them: every option
// takes one value per occurrence, so a repeatable option (--report, --policy) never reads
// the file name that follows it as a second value. One test per command, each repeatable
// option given before the positionals, between them and after them.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
using squall::test_support::squall;
namespace fs = std::filesystem;

const std::string kQuickstart = "scenarios/quickstart.json";
const std::string kNaive = "scenarios/policies/naive-retry.json";
const std::string kSweep = "tests/cli/data/sweep-quickstart.json";

// A second policy that fits the quickstart's tools: a copy of the first.
std::string second_policy() {
  const fs::path copy = temp_path("second-policy.json");
  fs::copy_file(fs::path(SQUALL_SOURCE_DIR) / kNaive, copy);
  return copy.string();
}

TEST(OptionOrderTest, RunTakesEachRepeatableOptionBeforeTheScenario) {
  const fs::path junit = temp_path("run.junit.xml");
  const fs::path md = temp_path("run.md");
  const Result r =
      squall("run --report junit=" + junit.string() + " --report markdown=" + md.string() + " -q " + kQuickstart);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(first_line(r.out), "squall run quickstart: seed 42");
  EXPECT_TRUE(fs::exists(junit));
  EXPECT_TRUE(fs::exists(md));
}

TEST(OptionOrderTest, RunTakesEveryOptionAfterTheScenarioAndBetweenOthers) {
  const fs::path junit = temp_path("run.junit.xml");
  const fs::path out = temp_path("run.json");
  const Result r = squall("run " + kQuickstart + " --report junit=" + junit.string() + " --seed 5 --policy " + kNaive +
                          " --out " + out.string() + " -q");
  EXPECT_EQ(first_line(r.out), "squall run quickstart: seed 5");
  EXPECT_TRUE(fs::exists(junit));
  EXPECT_TRUE(fs::exists(out));
  // The `=` spelling is one value too.
  const Result eq = squall("run --report=junit=" + junit.string() + " " + kQuickstart + " -q");
  EXPECT_EQ(eq.exit_code, 0) << eq.err;
}

TEST(OptionOrderTest, RunRefusesASecondScenarioInsteadOfReadingItAsAReport) {
  const fs::path junit = temp_path("run.junit.xml");
  const Result r = squall("run --report junit=" + junit.string() + " " + kQuickstart + " " + kQuickstart);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.err), "The following argument was not expected: " + kQuickstart);
  EXPECT_FALSE(fs::exists(junit));
}

TEST(OptionOrderTest, ValidateReadsTheFileAfterAPolicyAsAScenario) {
  const Result r = squall("validate --policy " + kNaive + " " + kQuickstart);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kQuickstart + ": ok\n  about 120 tasks expected over 2m\n" + kNaive + ": ok\n");
  const std::string second = second_policy();
  const Result twice = squall("validate --policy " + kNaive + " --policy " + second + " " + kQuickstart);
  EXPECT_EQ(twice.exit_code, 0) << twice.err;
  EXPECT_NE(twice.out.find(second + ": ok\n"), std::string::npos) << twice.out;
  const Result after = squall("validate " + kQuickstart + " --policy " + kNaive + " --print-json");
  EXPECT_EQ(after.exit_code, 2);
  EXPECT_EQ(after.err, "validate --print-json: give exactly one scenario file or one --policy file\n");
}

TEST(OptionOrderTest, CiTakesReportsBeforeAndAfterItsInputs) {
  const fs::path junit = temp_path("ci.junit.xml");
  const fs::path md = temp_path("ci.md");
  const Result r = squall("ci --report junit=" + junit.string() + " -j 1 " + kQuickstart +
                          " --report markdown=" + md.string() + " -q scenarios/examples/search-429s.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2 scenarios"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(junit));
  EXPECT_TRUE(fs::exists(md));
}

TEST(OptionOrderTest, ComparePoliciesAndReportsBeforeTheScenario) {
  const fs::path json = temp_path("compare.json");
  const std::string second = second_policy();
  const Result r = squall("compare --policy " + kNaive + " --policy " + second + " --report json=" + json.string() +
                          " " + kQuickstart + " --seed 3");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(json));
  const Result after = squall("compare " + kQuickstart + " --policy " + kNaive + " --report json=" + json.string());
  EXPECT_EQ(after.exit_code, 0) << after.err;
}

TEST(OptionOrderTest, SweepAndMergeTakeReportsBeforeTheirFiles) {
  const fs::path md = temp_path("sweep.md");
  const fs::path json = temp_path("sweep.json");
  Result r =
      squall("sweep --report markdown=" + md.string() + " --report json=" + json.string() + " -j 1 -q " + kSweep);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(md));
  EXPECT_TRUE(fs::exists(json));
  const fs::path part = temp_path("part.json");
  r = squall("sweep -j 1 --shard 1/1 --out " + part.string() + " -q " + kSweep);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const fs::path csv = temp_path("merged.csv");
  const fs::path html = temp_path("merged.html");
  r = squall("merge --report csv=" + csv.string() + " --report html=" + html.string() + " " + part.string() + " -q");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(csv));
  EXPECT_TRUE(fs::exists(html));
}

TEST(OptionOrderTest, ShrinkAndReplayTakeTheirOptionsBeforeAndAfterTheirFiles) {
  const fs::path before = temp_path("shrink-before.json");
  const fs::path after = temp_path("shrink-after.json");
  const std::string quota = "scenarios/ci/llm-quota-exhausted-fallback.json";
  const std::string policy = "scenarios/policies/quota-as-rate-limit.json";
  Result r = squall("shrink --policy " + policy + " --out " + before.string() + " --seed 5 " + quota);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = squall("shrink " + quota + " --out " + after.string() + " --policy " + policy + " --seed 5");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(before), read_file(after));
  // replay: two trace files, --format between them.
  r = squall("replay scenarios/replay/trace.jsonl --format otlp scenarios/replay/trace.jsonl");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("scenarios/replay/trace.jsonl, scenarios/replay/trace.jsonl (otlp): 1326 records"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("663 duplicates skipped"), std::string::npos) << r.out;  // one trace, every span twice
}

}  // namespace

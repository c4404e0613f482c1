// `squall shrink`: a smaller fault schedule that still fails what the scenario failed
// (cli/shrink_command.hpp, sim/shrink.hpp).
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace squall::test_support {
namespace {

constexpr const char* kOutage = "scenarios/incidents/openai-outage-model-fallback.json";
constexpr const char* kNoFallback = "scenarios/policies/no-fallback.json";

// The outage's two gpt-4o rules under a policy without fallback: the 5xx alone fail it.
TEST(ShrinkCommandTest, KeepsOnlyTheRulesTheFailureNeedsAndTheShrunkScenarioFailsTheSame) {
  const fs::path out = temp_path("outage.shrunk.json");
  const Result r = squall(std::string("shrink ") + kOutage + " --policy " + kNoFallback + " --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("1 of 2 fault rules removed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  removed /providers/gpt-4o/faults/1 (timeout)"), std::string::npos) << r.out;
  const nlohmann::json shrunk = nlohmann::json::parse(read_file(out));
  ASSERT_EQ(shrunk["providers"]["gpt-4o"]["faults"].size(), 1U);
  EXPECT_EQ(shrunk["providers"]["gpt-4o"]["faults"][0]["kind"], "server_error");
  EXPECT_EQ(shrunk["description"].get<std::string>().rfind("Shrunk by squall shrink from ", 0), 0U);
  EXPECT_EQ(shrunk["seed"], 17);
  // The same failure: every threshold the original failed, from the file as written.
  const Result original = squall(std::string("run ") + kOutage + " --policy " + kNoFallback + " -q");
  const Result again = squall("run " + out.string() + " --policy " + kNoFallback + " -q");
  EXPECT_EQ(original.exit_code, 1);
  EXPECT_EQ(again.exit_code, 1) << again.out << again.err;
  for (const char* t : {"threshold failed: task_success:", "threshold failed: task_failed:",
                        "threshold failed: fallbacks{tool:answer,from:gpt-4o,to:claude-sonnet}:",
                        "threshold failed: escalations{level:critical_failure}:"}) {
    EXPECT_NE(original.out.find(t), std::string::npos) << t;
    EXPECT_NE(again.out.find(t), std::string::npos) << t << "\n" << again.out;
  }
  // The policy it failed under is written into it: `squall run` alone fails it again.
  EXPECT_EQ(squall("run " + out.string() + " -q").exit_code, 1);
  EXPECT_NE(shrunk["description"].get<std::string>().find("under scenarios/policies/no-fallback.json"),
            std::string::npos);
  // Deterministic: the same inputs give the same file.
  const fs::path second = temp_path("outage.shrunk.2.json");
  ASSERT_EQ(
      squall(std::string("shrink ") + kOutage + " --policy " + kNoFallback + " --out " + second.string()).exit_code, 0);
  EXPECT_EQ(read_file(out), read_file(second));
}

TEST(ShrinkCommandTest, NarrowsAKeptRulesProbabilityAndWindow) {
  // One 429 rule of probability 1 from 1m to the end: the failure needs it, not all of it.
  const fs::path out = temp_path("quota.shrunk.json");
  const Result r = squall(
      "shrink scenarios/ci/llm-quota-exhausted-fallback.json --policy scenarios/policies/quota-as-rate-limit.json "
      "--out " +
      out.string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("narrowed /providers/primary/faults/0 (rate_limited): probability 1 -> 1, window [1m, end) -> "
                       "[2m52.5s, end)"),
            std::string::npos)
      << r.out;
  const nlohmann::json shrunk = nlohmann::json::parse(read_file(out));
  EXPECT_EQ(shrunk["providers"]["primary"]["faults"][0]["from"], "2m52.5s");
  EXPECT_EQ(squall("run " + out.string() + " --policy scenarios/policies/quota-as-rate-limit.json -q").exit_code, 1);
}

TEST(ShrinkCommandTest, ACorpusPathStillResolvesFromAnotherDirectory) {
  const fs::path out = fresh_dir("shrink-elsewhere") / "nested" / "s.json";
  fs::create_directories(out.parent_path());
  ASSERT_EQ(squall(std::string("shrink ") + kOutage + " --policy " + kNoFallback + " --out " + out.string()).exit_code,
            0);
  EXPECT_EQ(squall("validate " + out.string()).exit_code, 0);
}

TEST(ShrinkCommandTest, RefusesWhatItCannotShrink) {
  // A run that fails nothing.
  const Result passing = squall("shrink scenarios/quickstart.json --out " + temp_path("q.json").string());
  EXPECT_EQ(passing.exit_code, 2);
  EXPECT_NE(passing.err.find("fails no threshold at seed"), std::string::npos) << passing.err;
  EXPECT_FALSE(fs::exists(temp_path("q.json")));
  // A metric the run does not fail.
  const Result metric = squall(std::string("shrink ") + kOutage + " --policy " + kNoFallback +
                               " --threshold task_latency --out " + temp_path("m.json").string());
  EXPECT_EQ(metric.exit_code, 2);
  EXPECT_NE(metric.err.find("fails no threshold of task_latency at seed 17"), std::string::npos) << metric.err;
  // A scenario without thresholds (a fitted scenario.yaml has none).
  const fs::path bare = temp_path("bare.json");
  {
    nlohmann::json doc = nlohmann::json::parse(
        read_file(fs::path(SQUALL_SOURCE_DIR) / "scenarios/ci/llm-quota-exhausted-fallback.json"), nullptr, true, true);
    doc.erase("thresholds");
    std::ofstream(bare) << doc.dump();
  }
  const Result none = squall("shrink " + bare.string() + " --out " + temp_path("b.json").string());
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("has no thresholds: add those its failure should keep failing"), std::string::npos)
      << none.err;
  // The output would replace the scenario.
  const fs::path copy = temp_path("copy.json");
  fs::copy_file(fs::path(SQUALL_SOURCE_DIR) / "scenarios/ci/llm-quota-exhausted-fallback.json", copy);
  const Result over = squall("shrink " + copy.string() +
                             " --policy scenarios/policies/quota-as-rate-limit.json --out " + copy.string());
  EXPECT_EQ(over.exit_code, 2);
  EXPECT_NE(over.err.find("is an input of this run"), std::string::npos) << over.err;
}

}  // namespace
}  // namespace squall::test_support

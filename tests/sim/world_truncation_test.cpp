// Truncation is its own outcome (issue 35): an answer cut at max_output_tokens is used
// unless a validate check rejects it, and the report counts cut answers apart either way.
#include <gtest/gtest.h>

#include <string>

#include "world_test_support.hpp"

namespace squall {
namespace {

// One task; an LLM whose every answer runs into the step's 300-token cap (mean length a
// billion tokens); `policy` is the llm's policy; a threshold on the cut answers.
std::string always_cut(const std::string& policy) {
  return R"({ "name": "cut", "seed": 1, "duration": "1m",
    "workload": { "arrivals": { "process": "constant", "rate_per_s": 1, "max_tasks": 1 },
                  "tasks": [ { "name": "t", "steps": [ { "tool": "llm", "prompt_tokens": 100,
                                                         "max_output_tokens": 300 } ] } ] },
    "providers": { "llm": { "type": "llm", "mean_output_tokens": 1000000000,
                            "time_to_first_token": { "distribution": "constant", "value": "200ms" } } },
    "policy": { "llm": )" +
         policy + R"( },
    "thresholds": { "truncated_answers": [ "count<=2" ] } })";
}

TEST(WorldTruncationTest, ACutAnswerIsUsedAndCountedApart) {
  const Report report = test::run_world(test::inline_scenario(always_cut("[]")), 1);
  EXPECT_EQ(test::count(report, TaskStatus::succeeded), 1U);
  ASSERT_EQ(report.providers.size(), 1U);
  EXPECT_EQ(report.providers[0].by_outcome[index_of(OutcomeKind::success)], 1U);
  EXPECT_EQ(report.providers[0].truncated, 1U);
  ASSERT_EQ(report.thresholds.size(), 1U);
  EXPECT_EQ(report.thresholds[0].observed, 1.0);
  EXPECT_TRUE(report.thresholds[0].passed);
}

TEST(WorldTruncationTest, ValidateCompleteRejectsCutAnswersAsTruncatedAndRetriesThem) {
  const Report report =
      test::run_world(test::inline_scenario(always_cut(R"([ { "retry": { "max_attempts": 3, "base_delay": "10ms" } },
                                            { "validate": { "require": ["complete"] } } ])")),
                      1);
  EXPECT_EQ(test::count(report, TaskStatus::failed), 1U);
  ASSERT_EQ(report.tools.size(), 1U);
  EXPECT_EQ(report.tools[0].by_final_outcome[index_of(OutcomeKind::truncated)], 1U);
  EXPECT_EQ(report.tools[0].attempts, 3U);
  EXPECT_EQ(report.providers[0].truncated, 3U);
  ASSERT_EQ(report.thresholds.size(), 1U);
  EXPECT_EQ(report.thresholds[0].observed, 3.0);
  EXPECT_FALSE(report.thresholds[0].passed);
}

}  // namespace
}  // namespace squall

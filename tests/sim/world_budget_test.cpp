// The budget rows of the handed cases (shared/cases/turn2), rebuilt as tests: a budget's
// refusal that is known before a backoff is not slept for, and an attempt is admitted by
// its worst case (prompt plus the model's output cap).
#include <gtest/gtest.h>

#include <string>

#include "world_test_support.hpp"

namespace squall {
namespace {

// One task; an LLM with a 200 ms time to first token and a million tokens per second, so
// that an attempt of n output tokens takes 200 ms + n us. `policy` is the llm's policy.
std::string one_llm_task(std::int64_t max_output_tokens, std::int64_t mean_output_tokens, const std::string& policy) {
  return R"({ "name": "budget", "seed": 1, "duration": "10m",
    "workload": { "arrivals": { "process": "constant", "rate_per_s": 1, "max_tasks": 1 },
                  "tasks": [ { "name": "t", "deadline": "60s",
                               "steps": [ { "tool": "llm", "prompt_tokens": 1000, "max_output_tokens": )" +
         std::to_string(max_output_tokens) + R"( } ] } ] },
    "providers": { "llm": { "type": "llm", "price_per_mtok": { "input": 2.0, "output": 8.0 },
                            "time_to_first_token": { "distribution": "constant", "value": "200ms" },
                            "tokens_per_second": 1000000, "mean_output_tokens": )" +
         std::to_string(mean_output_tokens) + R"( } },
    "policy": { "llm": )" +
         policy + R"( } })";
}

constexpr const char* kRetryThenBudget =
    R"([ { "retry": { "max_attempts": 11, "base_delay": "100ms", "jitter": "none" } },
                                             { "validate": { "require": ["complete"] } },
                                             { "budget": { "max_tokens": 8000 } } ])";

TEST(WorldBudgetTest, ARefusalKnownBeforeABackoffIsNotSleptFor) {
  // Every completion is cut at 300 tokens (truncated, by validate): 1,300 tokens and
  // 200.3 ms an attempt. Six fit in 8,000 (7,800); the seventh is refused. Backoffs 100,
  // 200, 400, 800, 1600 ms come between the six attempts; the 3.2 s one before the
  // refused seventh is not taken: 6 x 200.3 + 3,100 = 4,301.8 ms.
  const Scenario scenario = test::inline_scenario(one_llm_task(300, 1'000'000'000, kRetryThenBudget));
  const Report report = test::run_world(scenario, 1);
  EXPECT_EQ(test::count(report, TaskStatus::safe_failed), 1U);
  EXPECT_DOUBLE_EQ(report.latency.max_ms, 4301.8);
  EXPECT_EQ(report.tokens.input + report.tokens.output, 7800);
}

TEST(WorldBudgetTest, AnUncappedRequestIsAdmittedByTheModelsOutputCap) {
  // No max_output_tokens: the worst case is 1,000 + the model's 16,384-token cap, over
  // the 8,000 budget, so nothing is sent and the task safe-fails as budget_exhausted.
  const Scenario scenario = test::inline_scenario(one_llm_task(0, 50'000, kRetryThenBudget));
  const Report report = test::run_world(scenario, 1);
  EXPECT_EQ(test::count(report, TaskStatus::safe_failed), 1U);
  ASSERT_EQ(report.tasks.by_reason.size(), 1U);
  EXPECT_EQ(report.tasks.by_reason[0].reason, "budget_exhausted");
  EXPECT_EQ(test::provider_calls(report), 0U);
  EXPECT_EQ(report.tokens.input + report.tokens.output, 0);
}

}  // namespace
}  // namespace squall

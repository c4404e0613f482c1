// SDK retry layers: a provider's `sdk_retry` sits under every tool's own retry, so the two
// multiply, as an application retry on top of the OpenAI SDK's does in production.
#include <gtest/gtest.h>

#include "world_test_support.hpp"

namespace squall {
namespace {

TEST(WorldSdkRetryTest, TheSdksRetriesMultiplyTheApplicationsRetries) {
  // Every call fails with 500. The OpenAI preset makes 3 attempts per call it is given,
  // and the tool's retry gives it 2: each task's logical call makes 3 x 2 = 6 attempts.
  const Scenario scenario = test::inline_scenario(R"({
    "name": "sdk", "seed": 1, "duration": "10s",
    "workload": { "arrivals": { "process": "constant", "rate_per_s": 1, "max_tasks": 4 },
                  "tasks": [ { "name": "t", "deadline": "60s",
                               "steps": [ { "tool": "answer", "prompt_tokens": 100, "max_output_tokens": 50 } ] } ] },
    "providers": { "gpt": { "type": "llm", "sdk_retry": "openai",
                            "faults": [ { "kind": "server_error", "probability": 1 } ] } },
    "tools": { "answer": { "provider": "gpt" } },
    "policy": { "answer": [ { "retry": { "max_attempts": 2, "jitter": "none" } } ] }
  })");
  const Report report = test::run_world(scenario, 1);
  EXPECT_EQ(test::provider_calls(report), 24U);
  ASSERT_EQ(report.tools.size(), 1U);
  EXPECT_EQ(report.tools[0].logical_calls, 4U);
  EXPECT_EQ(report.tools[0].amplification, 6.0);
  EXPECT_EQ(test::count(report, TaskStatus::failed), 4U);
}

}  // namespace
}  // namespace squall

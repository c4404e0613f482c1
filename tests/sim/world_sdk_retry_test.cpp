// SDK retry layers: a provider's `sdk_retry` sits under every tool's own retry, so the two
// multiply, as an application retry on top of the OpenAI SDK's does in production.
#include <gtest/gtest.h>

#include <tuple>

#include <fmt/format.h>

#include "engine/strategies/retry.hpp"
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

TEST(WorldSdkRetryTest, ThePresetsReadRetryAfterAsTheSdksDo) {
  // openai-python and anthropic-sdk-python use the header only when 0 < Retry-After <= 60 s
  // (_calculate_retry_timeout); outside that range they wait their own backoff.
  for (const char* preset : {"openai", "anthropic"}) {
    const Scenario scenario = test::inline_scenario(fmt::format(R"({{
      "name": "sdk", "seed": 1, "duration": "10s",
      "workload": {{ "arrivals": {{ "process": "constant", "rate_per_s": 1, "max_tasks": 1 }},
                    "tasks": [ {{ "name": "t", "steps": [ {{ "tool": "gpt", "prompt_tokens": 10 }} ] }} ] }},
      "providers": {{ "gpt": {{ "type": "llm", "sdk_retry": "{}" }} }}
    }})",
                                                                preset));
    ASSERT_EQ(scenario.providers.size(), 1U);
    ASSERT_TRUE(scenario.providers[0].sdk_retry.has_value()) << preset;
    const RetryConfig& sdk = *scenario.providers[0].sdk_retry;
    EXPECT_TRUE(sdk.honour_retry_after);
    EXPECT_EQ(sdk.max_retry_after, 60 * kSecond);
    EXPECT_EQ(sdk.over_max_retry_after, RetryAfterOverMax::backoff);
    EXPECT_EQ(sdk.zero_retry_after, RetryAfterZero::backoff);
    EXPECT_TRUE(sdk.honour_should_retry);
  }
}

TEST(WorldSdkRetryTest, ThePresetsObeyXShouldRetry) {
  // Four tasks against a model whose 500s say x-should-retry: false and whose 400s say
  // true. The OpenAI preset makes one attempt per 500 (the header forbids the retries it
  // would make) and three per 400 (the header asks for the retries it would not make).
  for (const auto& [kind, status, attempts] :
       {std::tuple{"server_error", 500, 4U}, std::tuple{"client_error", 400, 12U}}) {
    const bool allowed = std::string_view(kind) == "client_error";
    const Scenario scenario = test::inline_scenario(fmt::format(R"({{
      "name": "sdk", "seed": 1, "duration": "10s",
      "workload": {{ "arrivals": {{ "process": "constant", "rate_per_s": 1, "max_tasks": 4 }},
                    "tasks": [ {{ "name": "t", "deadline": "60s", "steps": [ {{ "tool": "gpt", "prompt_tokens": 10 }} ] }} ] }},
      "providers": {{ "gpt": {{ "type": "llm", "sdk_retry": "openai",
                              "faults": [ {{ "kind": "{}", "status": {}, "probability": 1, "should_retry": {} }} ] }} }}
    }})",
                                                                kind, status, allowed));
    const Report report = test::run_world(scenario, 1);
    EXPECT_EQ(test::provider_calls(report), attempts) << kind;
    EXPECT_EQ(test::count(report, TaskStatus::failed), 4U) << kind;
  }
}

}  // namespace
}  // namespace squall

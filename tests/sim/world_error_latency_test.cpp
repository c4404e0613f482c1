// An injected error answers before any generation: after the LLM provider's error_latency,
// not its time to first token (issue 35), unless the fault sets its own latency.
#include <gtest/gtest.h>

#include <string>

#include "mocks/llm.hpp"
#include "world_test_support.hpp"

namespace squall {
namespace {

// One task, one attempt, to an LLM whose first token takes 2 s and whose every call
// gets a 429. `provider_extra` and `fault_extra` are added to the provider and the fault.
std::string rate_limited_llm(const std::string& provider_extra, const std::string& fault_extra) {
  return R"({ "name": "errors", "seed": 1, "duration": "1m",
    "workload": { "arrivals": { "process": "constant", "rate_per_s": 1, "max_tasks": 1 },
                  "tasks": [ { "name": "t", "steps": [ { "tool": "llm", "prompt_tokens": 100 } ] } ] },
    "providers": { "llm": { "type": "llm",
                            "time_to_first_token": { "distribution": "constant", "value": "2s" }, )" +
         provider_extra + R"(
                            "faults": [ { "kind": "rate_limited", "probability": 1 )" +
         fault_extra + R"( } ] } },
    "policy": { "llm": [] } })";
}

double only_latency_ms(const std::string& scenario) {
  const Report report = test::run_world(test::inline_scenario(scenario), 1);
  EXPECT_EQ(test::provider_calls(report), 1U);
  return report.latency.max_ms;
}

TEST(WorldErrorLatencyTest, AnInjected429TakesTheErrorLatencyNotTheTimeToFirstToken) {
  EXPECT_DOUBLE_EQ(
      only_latency_ms(rate_limited_llm(R"("error_latency": { "distribution": "constant", "value": "30ms" },)", "")),
      30.0);
}

TEST(WorldErrorLatencyTest, TheFaultsOwnLatencyWins) {
  EXPECT_DOUBLE_EQ(
      only_latency_ms(rate_limited_llm(R"("error_latency": { "distribution": "constant", "value": "30ms" },)",
                                       R"(, "latency": { "distribution": "constant", "value": "5ms" })")),
      5.0);
}

TEST(WorldErrorLatencyTest, TheDefaultIsARoundTripWellBelowTheFirstToken) {
  // Lognormal, median 100 ms, p99 1 s: one draw, never the 2 s time to first token.
  const LlmConfig defaults;
  EXPECT_EQ(defaults.error_latency.shape, LatencyShape::lognormal);
  EXPECT_EQ(defaults.error_latency.median, 100 * kMillisecond);
  EXPECT_EQ(defaults.error_latency.p99, kSecond);
  const double ms = only_latency_ms(rate_limited_llm("", ""));
  EXPECT_GT(ms, 0.0);
  EXPECT_LT(ms, 1000.0);
}

}  // namespace
}  // namespace squall

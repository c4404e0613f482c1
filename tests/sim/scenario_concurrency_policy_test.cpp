// One bad-input test per rule of the hedging, bulkhead and rate_limiter entries of a
// policy, with the exact message, and their keys read into the configs.
#include <gtest/gtest.h>

#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

using test::base_scenario;
using test::errors_of;
using test::only;
using test::with;

Json with_strategy(std::string_view name, const Json& config) {
  return with(base_scenario(), "/policy/search", Json::array({Json{{std::string(name), config}}}));
}

template <class Config>
Config loaded(const Json& doc) {
  LoadResult result = load_scenario_text(doc.dump(), test::kBaseFile);
  EXPECT_EQ(result.errors, std::vector<ValidationError>{});
  if (!result.scenario) return {};
  return std::get<Config>(result.scenario->policy.at("search").at(0));
}

TEST(ScenarioHedgingConfigTest, KeysAreRead) {
  const auto c = loaded<HedgingConfig>(
      with_strategy("hedging", {{"max_hedged_attempts", 3}, {"delay", "150ms"}, {"budget", 0.05}}));
  EXPECT_EQ(c.max_hedged_attempts, 3);
  EXPECT_EQ(c.delay, 150 * kMillisecond);
  EXPECT_EQ(c.budget, 0.05);
}

TEST(ScenarioHedgingConfigTest, MaxHedgedAttemptsIsOneToTen) {
  EXPECT_EQ(errors_of(with_strategy("hedging", {{"max_hedged_attempts", 11}})),
            only("/policy/search/0/hedging/max_hedged_attempts", "expected an integer in [1, 10], got 11"));
}

TEST(ScenarioHedgingConfigTest, DelayMustBeADuration) {
  EXPECT_EQ(errors_of(with_strategy("hedging", {{"delay", 200}})),
            only("/policy/search/0/hedging/delay", "expected a duration string such as \"250ms\", got 200"));
}

TEST(ScenarioHedgingConfigTest, BudgetIsAFractionUpToTen) {
  EXPECT_EQ(errors_of(with_strategy("hedging", {{"budget", -0.1}})),
            only("/policy/search/0/hedging/budget", "expected a number in [0, 10], got -0.1"));
  // Kept in parts per million: 1e-7 would round to 0 and refuse every hedge.
  EXPECT_EQ(errors_of(with_strategy("hedging", {{"budget", 1e-7}})),
            only("/policy/search/0/hedging/budget",
                 "expected a multiple of 0.000001 (hedging keeps its budget in parts per million), got 1e-07"));
}

TEST(ScenarioHedgingConfigTest, UnknownKeyIsAnError) {
  EXPECT_EQ(errors_of(with_strategy("hedging", {{"delay_ms", 200}})),
            only("/policy/search/0/hedging/delay_ms",
                 "unknown key \"delay_ms\"; expected one of: max_hedged_attempts, delay, budget, providers"));
}

TEST(ScenarioBulkheadConfigTest, KeysAreRead) {
  const auto c = loaded<BulkheadConfig>(
      with_strategy("bulkhead", {{"max_concurrent_calls", 4}, {"max_queue", 8}, {"queue_timeout", "2s"}}));
  EXPECT_EQ(c.max_concurrent_calls, 4);
  EXPECT_EQ(c.max_queue, 8);
  EXPECT_EQ(c.queue_timeout, 2 * kSecond);
}

TEST(ScenarioBulkheadConfigTest, MaxConcurrentCallsMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("bulkhead", {{"max_concurrent_calls", 0}})),
            only("/policy/search/0/bulkhead/max_concurrent_calls", "expected an integer in [1, 1000000], got 0"));
}

TEST(ScenarioBulkheadConfigTest, MaxQueueMustNotBeNegative) {
  EXPECT_EQ(errors_of(with_strategy("bulkhead", {{"max_queue", -1}})),
            only("/policy/search/0/bulkhead/max_queue", "expected an integer in [0, 1000000], got -1"));
}

TEST(ScenarioBulkheadConfigTest, QueueTimeoutMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("bulkhead", {{"max_queue", 1}, {"queue_timeout", "0s"}})),
            only("/policy/search/0/bulkhead/queue_timeout", "expected a duration > 0, got \"0s\""));
}

TEST(ScenarioBulkheadConfigTest, QueueTimeoutNeedsAQueue) {
  EXPECT_EQ(errors_of(with_strategy("bulkhead", {{"queue_timeout", "1s"}})),
            only("/policy/search/0/bulkhead/queue_timeout", "applies only when max_queue > 0"));
}

TEST(ScenarioRateLimiterConfigTest, KeysAreRead) {
  const auto c = loaded<RateLimiterConfig>(with_strategy(
      "rate_limiter", {{"limit_for_period", 10}, {"limit_refresh_period", "1s"}, {"timeout_duration", "0s"}}));
  EXPECT_EQ(c.limit_for_period, 10);
  EXPECT_EQ(c.limit_refresh_period, kSecond);
  EXPECT_EQ(c.timeout_duration, 0);
}

TEST(ScenarioRateLimiterConfigTest, LimitForPeriodMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("rate_limiter", {{"limit_for_period", 0}})),
            only("/policy/search/0/rate_limiter/limit_for_period", "expected an integer in [1, 1000000], got 0"));
}

TEST(ScenarioRateLimiterConfigTest, LimitRefreshPeriodMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("rate_limiter", {{"limit_refresh_period", "0s"}})),
            only("/policy/search/0/rate_limiter/limit_refresh_period", "expected a duration > 0, got \"0s\""));
}

TEST(ScenarioRateLimiterConfigTest, TimeoutDurationMustNotBeNegative) {
  EXPECT_EQ(errors_of(with_strategy("rate_limiter", {{"timeout_duration", "-1s"}})),
            only("/policy/search/0/rate_limiter/timeout_duration", "expected a non-negative duration, got \"-1s\""));
}

}  // namespace
}  // namespace squall

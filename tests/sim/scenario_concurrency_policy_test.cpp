// One bad-input test per rule of the hedging, bulkhead, rate_limiter and
// adaptive_concurrency entries of a policy, with the exact message, and their keys read
// into the configs.
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

const std::string kLimiter = "/policy/search/0/adaptive_concurrency";

TEST(ScenarioAdaptiveConcurrencyConfigTest, KeysAreRead) {
  const auto c =
      loaded<AdaptiveConcurrencyConfig>(with_strategy("adaptive_concurrency", {{"initial_limit", 64},
                                                                               {"max_limit", 64},
                                                                               {"backoff_ratio", 0.5},
                                                                               {"growth", "per_limit"},
                                                                               {"slow_start", true},
                                                                               {"decrease_window", "5s"},
                                                                               {"min_drops", 5},
                                                                               {"min_drop_rate", 0.2},
                                                                               {"cooldown", "2s"},
                                                                               {"drop_on", {"rate_limited"}}}));
  EXPECT_EQ(c.initial_limit, 64);
  EXPECT_EQ(c.max_limit, 64);
  EXPECT_EQ(c.backoff_ratio, 0.5);
  EXPECT_EQ(c.growth, LimitGrowth::per_limit);
  EXPECT_TRUE(c.slow_start);
  EXPECT_EQ(c.decrease_window, 5 * kSecond);
  EXPECT_EQ(c.min_drops, 5);
  EXPECT_EQ(c.min_drop_rate, 0.2);
  EXPECT_EQ(c.cooldown, 2 * kSecond);
  EXPECT_EQ(c.drop_on, std::vector<OutcomeKind>{OutcomeKind::rate_limited});
}

TEST(ScenarioAdaptiveConcurrencyConfigTest, TheInitialLimitLiesBetweenTheFloorAndTheCeiling) {
  EXPECT_EQ(errors_of(with_strategy("adaptive_concurrency", {{"initial_limit", 5000}})),
            only(kLimiter, "expected min_limit <= initial_limit <= max_limit, got 1, 5000 and 1000"));
  EXPECT_EQ(errors_of(with_strategy("adaptive_concurrency", {{"min_limit", 30}})),
            only(kLimiter, "expected min_limit <= initial_limit <= max_limit, got 30, 20 and 1000"));
  // All three written in any order: read before they are judged.
  EXPECT_EQ(errors_of(with_strategy("adaptive_concurrency",
                                    {{"max_limit", 5000}, {"initial_limit", 2000}, {"min_limit", 10}})),
            std::vector<ValidationError>{});
}

TEST(ScenarioAdaptiveConcurrencyConfigTest, AlgorithmKeysApplyToTheirAlgorithmOnly) {
  EXPECT_EQ(errors_of(with_strategy("adaptive_concurrency", {{"algorithm", "vegas"}, {"backoff_ratio", 0.5}})),
            only(kLimiter + "/backoff_ratio", "applies only to algorithm \"aimd\", not \"vegas\""));
  EXPECT_EQ(errors_of(with_strategy("adaptive_concurrency", {{"smoothing", 0.5}})),
            only(kLimiter + "/smoothing", "applies only to algorithm \"vegas\", not \"aimd\""));
  EXPECT_EQ(errors_of(with_strategy("adaptive_concurrency", {{"slow_start", true}})),
            only(kLimiter + "/slow_start", "applies only to algorithm \"aimd\" with growth \"per_limit\""));
}

TEST(ScenarioAdaptiveConcurrencyConfigTest, DropThresholdsNeedADecreaseWindow) {
  EXPECT_EQ(errors_of(with_strategy("adaptive_concurrency", {{"min_drops", 3}})),
            only(kLimiter + "/min_drops", "applies only when decrease_window > 0"));
  EXPECT_EQ(errors_of(with_strategy("adaptive_concurrency", {{"queue_timeout", "1s"}})),
            only(kLimiter + "/queue_timeout", "applies only when max_queue > 0"));
}

TEST(ScenarioAdaptiveConcurrencyConfigTest, BackoffRatioIsNetflixsRange) {
  EXPECT_EQ(errors_of(with_strategy("adaptive_concurrency", {{"backoff_ratio", 1}})),
            only(kLimiter + "/backoff_ratio", "expected a number in [0.5, 0.999], got 1"));
}

TEST(ScenarioAdaptiveConcurrencyConfigTest, AListHoldsOneLimiter) {
  const Json two = with(base_scenario(), "/policy/search",
                        Json::array({Json{{"adaptive_concurrency", Json::object()}}, Json{{"retry", Json::object()}},
                                     Json{{"adaptive_concurrency", Json::object()}}}));
  EXPECT_EQ(
      errors_of(two),
      only("/policy/search/2", "duplicate \"adaptive_concurrency\" (also /policy/search/0); a list holds at most one"));
}

TEST(ScenarioAdaptiveConcurrencyConfigTest, LocalRefusalsAreNoDrops) {
  EXPECT_EQ(errors_of(with_strategy("adaptive_concurrency", {{"drop_on", {"bulkhead_full"}}})).size(), 1u);
}

}  // namespace
}  // namespace squall

// One bad-input test per rule of circuit_breaker's rate-based mode (sliding_window and the
// keys that apply with it), of its open-duration backoff and of ignore_on, with the exact
// message, and their keys read into the config.
#include <gtest/gtest.h>

#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

using test::base_scenario;
using test::errors_of;
using test::only;
using test::with;

constexpr const char* kBreaker = "/policy/search/0/circuit_breaker";

std::string at(std::string_view key) { return std::string(kBreaker) + "/" + std::string(key); }

Json with_breaker(const Json& config) {
  return with(base_scenario(), "/policy/search", Json::array({Json{{"circuit_breaker", config}}}));
}

CircuitBreakerConfig loaded(const Json& config) {
  LoadResult result = load_scenario_text(with_breaker(config).dump(), test::kBaseFile);
  EXPECT_EQ(result.errors, std::vector<ValidationError>{});
  if (!result.scenario) return {};
  return std::get<CircuitBreakerConfig>(result.scenario->policy.at("search").at(0));
}

const Json kCountWindow = {{"type", "count_based"}, {"size", 20}};

TEST(ScenarioCircuitBreakerWindowTest, WithoutAWindowTheConsecutiveModeKeepsItsDefaults) {
  const CircuitBreakerConfig c = loaded(Json::object());
  EXPECT_FALSE(c.sliding_window.has_value());
  EXPECT_EQ(c.failure_threshold, 5);
  EXPECT_EQ(c.permitted_probes(), 1);
  EXPECT_EQ(c.open_duration_multiplier, 1.0);
  EXPECT_FALSE(c.max_open_duration.has_value());
}

TEST(ScenarioCircuitBreakerWindowTest, RateKeysAreRead) {
  const CircuitBreakerConfig c = loaded({{"sliding_window", kCountWindow},
                                         {"failure_rate_threshold", 37.5},
                                         {"minimum_number_of_calls", 8},
                                         {"slow_call_rate_threshold", 60},
                                         {"slow_call_duration_threshold", "2s"},
                                         {"open_duration", "10s"},
                                         {"open_duration_multiplier", 2},
                                         {"max_open_duration", "1m"}});
  ASSERT_TRUE(c.sliding_window.has_value());
  EXPECT_EQ(c.sliding_window->type, SlidingWindowType::count_based);
  EXPECT_EQ(c.sliding_window->size, 20);
  EXPECT_EQ(c.failure_rate_threshold_ppm, 375'000);
  EXPECT_EQ(c.minimum_number_of_calls, 8);
  EXPECT_EQ(c.slow_call_rate_threshold_ppm, 600'000);
  EXPECT_EQ(c.slow_call_duration_threshold, 2 * kSecond);
  EXPECT_EQ(c.open_duration_multiplier, 2.0);
  EXPECT_EQ(c.max_open_duration, kMinute);
  EXPECT_EQ(c.permitted_probes(), 10);  // resilience4j's default with a window
}

TEST(ScenarioCircuitBreakerWindowTest, ATimeBasedWindowIsInWholeSeconds) {
  const CircuitBreakerConfig c = loaded({{"sliding_window", {{"type", "time_based"}, {"size", "2m"}}}});
  ASSERT_TRUE(c.sliding_window.has_value());
  EXPECT_EQ(c.sliding_window->type, SlidingWindowType::time_based);
  EXPECT_EQ(c.sliding_window->size, 120);
  EXPECT_EQ(c.failure_rate_threshold_ppm, 500'000);
  EXPECT_EQ(c.minimum_number_of_calls, 100);
  EXPECT_EQ(c.slow_call_rate_threshold_ppm, 1'000'000);
  EXPECT_EQ(c.slow_call_duration_threshold, 60 * kSecond);
}

TEST(ScenarioCircuitBreakerWindowTest, WindowSizeDefaultsToAHundred) {
  EXPECT_EQ(loaded({{"sliding_window", {{"type", "count_based"}}}}).sliding_window->size, 100);
}

TEST(ScenarioCircuitBreakerWindowTest, WindowIsAnObject) {
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", "count_based"}})),
            only(at("sliding_window"), "expected an object, got \"count_based\""));
}

TEST(ScenarioCircuitBreakerWindowTest, WindowTypeIsRequired) {
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", {{"size", 10}}}})),
            only(at("sliding_window"), "missing required key \"type\""));
}

TEST(ScenarioCircuitBreakerWindowTest, WindowTypeIsCountOrTimeBased) {
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", {{"type", "COUNT_BASED"}}}})),
            only(at("sliding_window/type"), "expected one of \"count_based\", \"time_based\", got \"COUNT_BASED\""));
}

TEST(ScenarioCircuitBreakerWindowTest, WindowHasNoOtherKeys) {
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", {{"type", "count_based"}, {"calls", 10}}}})),
            only(at("sliding_window/calls"), "unknown key \"calls\"; expected one of: type, size"));
}

TEST(ScenarioCircuitBreakerWindowTest, CountBasedSizeIsAnIntegerUpToAHundredThousand) {
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", {{"type", "count_based"}, {"size", 100'001}}}})),
            only(at("sliding_window/size"), "expected an integer in [1, 100000], got 100001"));
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", {{"type", "count_based"}, {"size", "10s"}}}})),
            only(at("sliding_window/size"), "expected an integer in [1, 100000], got \"10s\""));
}

TEST(ScenarioCircuitBreakerWindowTest, TimeBasedSizeIsADuration) {
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", {{"type", "time_based"}, {"size", 10}}}})),
            only(at("sliding_window/size"), "expected a duration string such as \"250ms\", got 10"));
}

TEST(ScenarioCircuitBreakerWindowTest, TimeBasedSizeIsWholeSecondsUpToAnHour) {
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", {{"type", "time_based"}, {"size", "1500ms"}}}})),
            only(at("sliding_window/size"), "expected a whole number of seconds from 1s to 1h, got \"1500ms\""));
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", {{"type", "time_based"}, {"size", "61m"}}}})),
            only(at("sliding_window/size"), "expected a whole number of seconds from 1s to 1h, got \"61m\""));
}

TEST(ScenarioCircuitBreakerWindowTest, FailureThresholdIsNotForAWindow) {
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", kCountWindow}, {"failure_threshold", 3}})),
            only(at("failure_threshold"),
                 "applies only without sliding_window (the consecutive-failure mode); a sliding_window opens on "
                 "failure_rate_threshold"));
}

TEST(ScenarioCircuitBreakerWindowTest, RateKeysNeedAWindow) {
  for (const auto& [key, value] : {std::pair<std::string, Json>{"failure_rate_threshold", 50},
                                   {"minimum_number_of_calls", 10},
                                   {"slow_call_rate_threshold", 50},
                                   {"slow_call_duration_threshold", "1s"}}) {
    SCOPED_TRACE(key);
    EXPECT_EQ(errors_of(with_breaker({{key, value}})),
              only(at(key), "applies only with a sliding_window (the rate-based mode)"));
  }
}

TEST(ScenarioCircuitBreakerWindowTest, FailureRateThresholdIsAPercentAboveZero) {
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", kCountWindow}, {"failure_rate_threshold", 0}})),
            only(at("failure_rate_threshold"), "expected a number in [0.0001, 100], got 0"));
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", kCountWindow}, {"failure_rate_threshold", 101}})),
            only(at("failure_rate_threshold"), "expected a number in [0.0001, 100], got 101"));
}

TEST(ScenarioCircuitBreakerWindowTest, RateThresholdsAreWholePartsPerMillion) {
  // Kept in parts per million: 0.00001 percent would round to 0 and open with no failure,
  // 1e-7 too; a finer value is not rounded either.
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", kCountWindow}, {"failure_rate_threshold", 0.00001}})),
            only(at("failure_rate_threshold"), "expected a number in [0.0001, 100], got 1e-05"));
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", kCountWindow}, {"slow_call_rate_threshold", 1e-7}})),
            only(at("slow_call_rate_threshold"), "expected a number in [0.0001, 100], got 1e-07"));
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", kCountWindow}, {"slow_call_rate_threshold", 12.34567}})),
            only(at("slow_call_rate_threshold"),
                 "expected a multiple of 0.0001 (the breaker keeps rates in parts per million), got 12.34567"));
  const CircuitBreakerConfig c = loaded({{"sliding_window", kCountWindow}, {"failure_rate_threshold", 0.0001}});
  EXPECT_EQ(c.failure_rate_threshold_ppm, 1);
}

TEST(ScenarioCircuitBreakerWindowTest, SlowCallRateThresholdIsAPercentAboveZero) {
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", kCountWindow}, {"slow_call_rate_threshold", 0}})),
            only(at("slow_call_rate_threshold"), "expected a number in [0.0001, 100], got 0"));
}

TEST(ScenarioCircuitBreakerWindowTest, MinimumNumberOfCallsIsPositive) {
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", kCountWindow}, {"minimum_number_of_calls", 0}})),
            only(at("minimum_number_of_calls"), "expected an integer in [1, 1000000], got 0"));
}

TEST(ScenarioCircuitBreakerWindowTest, SlowCallDurationThresholdIsPositive) {
  EXPECT_EQ(errors_of(with_breaker({{"sliding_window", kCountWindow}, {"slow_call_duration_threshold", "0s"}})),
            only(at("slow_call_duration_threshold"), "expected a duration > 0, got \"0s\""));
}

TEST(ScenarioCircuitBreakerWindowTest, OpenDurationMultiplierIsOneToAThousand) {
  EXPECT_EQ(errors_of(with_breaker({{"open_duration_multiplier", 0.5}})),
            only(at("open_duration_multiplier"), "expected a number in [1, 1000], got 0.5"));
}

TEST(ScenarioCircuitBreakerWindowTest, MaxOpenDurationIsAtLeastOpenDuration) {
  EXPECT_EQ(errors_of(with_breaker({{"open_duration", "1m"}, {"max_open_duration", "30s"}})),
            only(at("max_open_duration"), "expected a duration >= open_duration (1m), got \"30s\""));
}

TEST(ScenarioCircuitBreakerWindowTest, MaxOpenDurationIsPositive) {
  EXPECT_EQ(errors_of(with_breaker({{"max_open_duration", "0s"}})),
            only(at("max_open_duration"), "expected a duration > 0, got \"0s\""));
}

TEST(ScenarioCircuitBreakerIgnoreTest, IgnoreOnIsReadAndWinsOverTheDefaultFailureKinds) {
  const CircuitBreakerConfig c = loaded({{"ignore_on", {"rate_limited", "bad_request"}}});
  EXPECT_EQ(c.ignore_on, (std::vector<OutcomeKind>{OutcomeKind::rate_limited, OutcomeKind::bad_request}));
  EXPECT_EQ(c.failure_on, CircuitBreakerConfig::default_failure_on());
  EXPECT_TRUE(loaded(Json::object()).ignore_on.empty());
}

TEST(ScenarioCircuitBreakerIgnoreTest, AKindWrittenInBothListsIsRefused) {
  EXPECT_EQ(
      errors_of(with_breaker({{"failure_on", {"server_error", "rate_limited"}}, {"ignore_on", {"rate_limited"}}})),
      only(at("ignore_on"),
           "\"rate_limited\" is also in failure_on; a kind counts as a failure or is ignored, not both"));
}

TEST(ScenarioCircuitBreakerIgnoreTest, IgnoreOnHoldsNoLocalRefusal) {
  EXPECT_EQ(errors_of(with_breaker({{"ignore_on", {"timeout", "circuit_open"}}})),
            only(at("ignore_on/1"),
                 "\"circuit_open\" is a local refusal, made without calling the provider; the breaker counts only "
                 "calls that reached the provider, so it never sees one"));
}

}  // namespace
}  // namespace squall

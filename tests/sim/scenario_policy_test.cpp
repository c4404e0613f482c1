// One bad-input test per rule of the `policy` block, and policy files (`--policy FILE`)
// with their cross-checks against a scenario.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

using test::base_scenario;
using test::errors_of;
using test::only;
using test::with;

constexpr const char* kRetry = "/policy/search/0/retry";
constexpr const char* kKindList =
    "\"empty\", \"timeout\", \"rate_limited\", \"quota_exhausted\", \"overloaded\", \"server_error\", \"auth_error\", "
    "\"bad_request\", "
    "\"context_length\", \"content_filter\", \"invalid_output\", \"truncated\", \"circuit_open\", "
    "\"budget_exhausted\", "
    "\"cancelled\", \"throttled\", \"bulkhead_full\", \"rate_limiter_rejected\"";

std::string at(std::string_view base, std::string_view rest) { return std::string(base) + std::string(rest); }

// The base scenario with `tool`'s policy replaced by the single strategy `name: config`.
Json with_strategy(std::string_view tool, std::string_view name, const Json& config) {
  return with(base_scenario(), "/policy/" + std::string(tool), Json::array({Json{{std::string(name), config}}}));
}

// The same on test::base_vector, whose vector_search provider "kb" a third step calls.
Json with_kb_strategy(std::string_view name, const Json& config) {
  return with(test::base_vector(), "/policy/kb", Json::array({Json{{std::string(name), config}}}));
}

// The retry config of `search` in a document that must load without errors.
RetryConfig loaded_retry(const Json& doc) {
  LoadResult loaded = load_scenario_text(doc.dump(), test::kBaseFile);
  EXPECT_EQ(loaded.errors, std::vector<ValidationError>{});
  if (!loaded.scenario) return {};
  return std::get<RetryConfig>(loaded.scenario->policy.at("search").at(0));
}

TEST(ScenarioPolicyTest, PolicyMustBeAnObject) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/policy", Json::array())), only("/policy", "expected an object, got []"));
}

TEST(ScenarioPolicyTest, ToolMustNameAProvider) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/policy/bing", Json::array())),
            only("/policy/bing", "no provider named \"bing\"; providers are: gpt, search"));
}

TEST(ScenarioPolicyTest, StrategiesMustBeAnArray) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/policy/search", Json{{"retry", Json::object()}})),
            only("/policy/search", "expected an array, got {\"retry\":{}}"));
}

TEST(ScenarioPolicyTest, ItemMustBeAnObject) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/policy/search/0", "retry")),
            only("/policy/search/0", "expected an object, got \"retry\""));
}

TEST(ScenarioPolicyTest, ItemMustNameAStrategy) {
  EXPECT_EQ(
      errors_of(with(base_scenario(), "/policy/search/0", Json::object())),
      only("/policy/search/0",
           "expected an object with one key naming a strategy (timeout, retry, "
           "circuit_breaker, simplify_query, relax_threshold, rewrite_query, budget, fallback, validate, reflect, "
           "escalation, cache, retry_budget, adaptive_throttling, hedging, bulkhead, rate_limiter, "
           "adaptive_concurrency), got {}"));
}

TEST(ScenarioPolicyTest, UnknownStrategyIsAnUnknownKey) {
  EXPECT_EQ(
      errors_of(with(base_scenario(), "/policy/search/0", Json{{"retries", Json::object()}})),
      only("/policy/search/0/retries",
           "unknown key \"retries\"; expected one of: timeout, retry, circuit_breaker, simplify_query, "
           "relax_threshold, rewrite_query, budget, fallback, validate, reflect, escalation, cache, retry_budget, "
           "adaptive_throttling, hedging, bulkhead, rate_limiter, adaptive_concurrency"));
}

TEST(ScenarioPolicyTest, ItemHoldsOneStrategy) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/policy/search/0",
                           Json{{"retry", Json::object()}, {"timeout", Json::object()}})),
            only("/policy/search/0", "expected one strategy per item, got 2: timeout, retry"));
}

TEST(ScenarioPolicyTest, StrategyConfigMustBeAnObject) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", 3)), only(kRetry, "expected an object, got 3"));
}

TEST(ScenarioTimeoutConfigTest, PerAttemptMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("search", "timeout", {{"per_attempt", "0s"}})),
            only("/policy/search/0/timeout/per_attempt", "expected a duration > 0, got \"0s\""));
}

TEST(ScenarioTimeoutConfigTest, TotalMustBeADuration) {
  EXPECT_EQ(errors_of(with_strategy("search", "timeout", {{"total", 30}})),
            only("/policy/search/0/timeout/total", "expected a duration string such as \"250ms\", got 30"));
}

TEST(ScenarioRetryConfigTest, MaxAttemptsMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"max_attempts", 0}})),
            only(at(kRetry, "/max_attempts"), "expected an integer in [1, 1000], got 0"));
}

TEST(ScenarioRetryConfigTest, MaxAttemptsIsAtMostAThousand) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"max_attempts", 1000}})), std::vector<ValidationError>{});
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"max_attempts", 1001}})),
            only(at(kRetry, "/max_attempts"), "expected an integer in [1, 1000], got 1001"));
}

TEST(ScenarioRetryConfigTest, RetryOnNamesOutcomeKinds) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"retry_on", {"429"}}})),
            only(at(kRetry, "/retry_on/0"), std::string("expected one of ") + kKindList + ", got \"429\""));
}

TEST(ScenarioRetryConfigTest, SuccessIsNotRetryable) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"retry_on", {"success"}}})),
            only(at(kRetry, "/retry_on/0"), std::string("expected one of ") + kKindList + ", got \"success\""));
}

TEST(ScenarioRetryConfigTest, RetryOnMustNotRepeatAKind) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"retry_on", {"timeout", "timeout"}}})),
            only(at(kRetry, "/retry_on/1"), "duplicate \"timeout\" (also /policy/search/0/retry/retry_on/0)"));
}

TEST(ScenarioRetryConfigTest, RetryOnMustNotBeEmpty) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"retry_on", Json::array()}})),
            only(at(kRetry, "/retry_on"), "expected a non-empty array, got []"));
}

TEST(ScenarioRetryConfigTest, BackoffMustBeKnown) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"backoff", "polynomial"}})),
            only(at(kRetry, "/backoff"),
                 "expected one of \"constant\", \"linear\", \"exponential\", \"fibonacci\", got \"polynomial\""));
}

TEST(ScenarioRetryConfigTest, FibonacciBackoffIsRead) {
  const RetryConfig retry =
      loaded_retry(with_strategy("search", "retry", {{"backoff", "fibonacci"}, {"base_delay", "1s"}}));
  EXPECT_EQ(retry.backoff, Backoff::fibonacci);
  EXPECT_EQ(retry.base_delay, kSecond);
}

TEST(ScenarioRetryConfigTest, BaseDelayMustNotBeNegative) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"base_delay", "-1s"}})),
            only(at(kRetry, "/base_delay"), "expected a non-negative duration, got \"-1s\""));
}

TEST(ScenarioRetryConfigTest, MultiplierMustBeAtLeastOne) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"multiplier", 0.5}})),
            only(at(kRetry, "/multiplier"), "expected a number in [1, 1000], got 0.5"));
}

TEST(ScenarioRetryConfigTest, MultiplierIsAtMostAThousand) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"multiplier", 1e308}})),
            only(at(kRetry, "/multiplier"), "expected a number in [1, 1000], got 1e+308"));
}

TEST(ScenarioRetryConfigTest, MultiplierAppliesOnlyToExponentialBackoff) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"backoff", "constant"}, {"multiplier", 2}})),
            only(at(kRetry, "/multiplier"), "applies only to backoff \"exponential\", not \"constant\""));
}

TEST(ScenarioRetryConfigTest, MultiplierDoesNotApplyToFibonacciBackoff) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"backoff", "fibonacci"}, {"multiplier", 2}})),
            only(at(kRetry, "/multiplier"), "applies only to backoff \"exponential\", not \"fibonacci\""));
}

TEST(ScenarioRetryConfigTest, MaxDelayMustNotBeBelowBaseDelay) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"base_delay", "5s"}, {"max_delay", "1s"}})),
            only(at(kRetry, "/max_delay"), "expected a duration >= base_delay (5s), got \"1s\""));
}

TEST(ScenarioRetryConfigTest, MaxDelayIsComparedWithTheDefaultBaseDelay) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"max_delay", "100ms"}})),
            only(at(kRetry, "/max_delay"), "expected a duration >= base_delay (500ms), got \"100ms\""));
}

TEST(ScenarioRetryConfigTest, BaseDelayIsComparedWithTheDefaultMaxDelay) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"base_delay", "30s"}})),
            only(at(kRetry, "/base_delay"),
                 "expected a duration <= max_delay (20s, its default; set max_delay to allow more), got \"30s\""));
  EXPECT_TRUE(errors_of(with_strategy("search", "retry", {{"base_delay", "20s"}})).empty());  // equal is allowed
}

TEST(ScenarioRetryConfigTest, JitterMustBeKnown) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"jitter", "gaussian"}})),
            only(at(kRetry, "/jitter"),
                 "expected one of \"none\", \"full\", \"equal\", \"proportional\", \"decorrelated\", got "
                 "\"gaussian\""));
}

TEST(ScenarioRetryConfigTest, ProportionalJitterReadsItsRange) {
  const RetryConfig retry =
      loaded_retry(with_strategy("search", "retry", {{"jitter", "proportional"}, {"jitter_range", {0.5, 1.5}}}));
  EXPECT_EQ(retry.jitter, Jitter::proportional);
  EXPECT_EQ(retry.jitter_range, (JitterRange{0.5, 1.5}));
}

TEST(ScenarioRetryConfigTest, ProportionalJitterRangeDefaultsToSeed004s) {
  EXPECT_EQ(loaded_retry(with_strategy("search", "retry", {{"jitter", "proportional"}})).jitter_range,
            (JitterRange{0.75, 1.25}));
}

TEST(ScenarioRetryConfigTest, JitterRangeMayBeASinglePoint) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"jitter", "proportional"}, {"jitter_range", {1, 1}}})),
            std::vector<ValidationError>{});
}

TEST(ScenarioRetryConfigTest, JitterRangeMustBeTwoNumbers) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"jitter", "proportional"}, {"jitter_range", {0.75}}})),
            only(at(kRetry, "/jitter_range"), "expected an array of two numbers [min, max], got [0.75]"));
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"jitter", "proportional"}, {"jitter_range", 0.25}})),
            only(at(kRetry, "/jitter_range"), "expected an array of two numbers [min, max], got 0.25"));
}

TEST(ScenarioRetryConfigTest, JitterRangeFactorsMustBeNumbers) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"jitter", "proportional"}, {"jitter_range", {"75%", 1.25}}})),
            only(at(kRetry, "/jitter_range/0"), "expected a number in (0, 1000], got \"75%\""));
}

TEST(ScenarioRetryConfigTest, JitterRangeFactorsMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"jitter", "proportional"}, {"jitter_range", {0, 1.25}}})),
            only(at(kRetry, "/jitter_range/0"), "expected a number in (0, 1000], got 0"));
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"jitter", "proportional"}, {"jitter_range", {-1, -0.5}}})),
            (std::vector<ValidationError>{
                {test::kBaseFile, at(kRetry, "/jitter_range/0"), "expected a number in (0, 1000], got -1"},
                {test::kBaseFile, at(kRetry, "/jitter_range/1"), "expected a number in (0, 1000], got -0.5"}}));
}

TEST(ScenarioRetryConfigTest, JitterRangeFactorsAreAtMostAThousand) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"jitter", "proportional"}, {"jitter_range", {0.75, 1001}}})),
            only(at(kRetry, "/jitter_range/1"), "expected a number in (0, 1000], got 1001"));
}

TEST(ScenarioRetryConfigTest, JitterRangeMustNotBeInverted) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"jitter", "proportional"}, {"jitter_range", {1.25, 0.75}}})),
            only(at(kRetry, "/jitter_range"), "expected [min, max] with min <= max, got [1.25,0.75]"));
}

TEST(ScenarioRetryConfigTest, JitterRangeAppliesOnlyToProportionalJitter) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"jitter", "decorrelated"}, {"jitter_range", {0.5, 1.5}}})),
            only(at(kRetry, "/jitter_range"), "applies only to jitter \"proportional\", not \"decorrelated\""));
  // The default jitter is full.
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"jitter_range", {0.5, 1.5}}})),
            only(at(kRetry, "/jitter_range"), "applies only to jitter \"proportional\", not \"full\""));
}

TEST(ScenarioRetryConfigTest, DecorrelatedJitterIsReadWithBaseAndCap) {
  const RetryConfig retry = loaded_retry(
      with_strategy("search", "retry", {{"jitter", "decorrelated"}, {"base_delay", "1s"}, {"max_delay", "10s"}}));
  EXPECT_EQ(retry.jitter, Jitter::decorrelated);
  EXPECT_EQ(retry.base_delay, kSecond);
  EXPECT_EQ(retry.max_delay, 10 * kSecond);
}

TEST(ScenarioRetryConfigTest, BackoffDoesNotApplyToDecorrelatedJitter) {
  EXPECT_EQ(
      errors_of(with_strategy("search", "retry", {{"backoff", "exponential"}, {"jitter", "decorrelated"}})),
      only(at(kRetry, "/backoff"), "does not apply to jitter \"decorrelated\", which replaces the backoff formula"));
}

TEST(ScenarioRetryConfigTest, MultiplierDoesNotApplyToDecorrelatedJitter) {
  EXPECT_EQ(
      errors_of(with_strategy("search", "retry", {{"multiplier", 3}, {"jitter", "decorrelated"}})),
      only(at(kRetry, "/multiplier"), "does not apply to jitter \"decorrelated\", which replaces the backoff formula"));
}

TEST(ScenarioRetryConfigTest, HonourRetryAfterIsABoolean) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"honour_retry_after", "yes"}})),
            only(at(kRetry, "/honour_retry_after"), "expected true or false, got \"yes\""));
}

TEST(ScenarioRetryConfigTest, MaxRetryAfterNeedsHonourRetryAfter) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"honour_retry_after", false}, {"max_retry_after", "5s"}})),
            only(at(kRetry, "/max_retry_after"), "applies only when honour_retry_after is true"));
}

TEST(ScenarioRetryConfigTest, MaxRetriesByKindActsOnlyOnRetriedKindsBelowMaxAttempts) {
  EXPECT_EQ(
      errors_of(with_strategy("search", "retry",
                              {{"max_attempts", 5}, {"max_retries_by_kind", {{"rate_limited", 4}, {"timeout", 0}}}})),
      std::vector<ValidationError>{});
  EXPECT_EQ(errors_of(with_strategy(
                "search", "retry",
                {{"retry_on", {"rate_limited"}}, {"max_retries_by_kind", {{"timeout", 1}, {"server_error", 1}}}})),
            only(at(kRetry, "/max_retries_by_kind"),
                 "\"timeout\", \"server_error\" are not in retry_on, so their counts can never act"));
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"max_retries_by_kind", {{"rate_limited", 5}}}})),
            only(at(kRetry, "/max_retries_by_kind"),
                 "expected at most max_attempts - 1 (2, max_attempts' default being 3) retries, got 5 for "
                 "\"rate_limited\""));
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"max_retries_by_kind", {{"success", 1}}}})).size(), 1U);
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"max_retries_by_kind", {{"timeout", -1}}}})),
            only(at(kRetry, "/max_retries_by_kind/timeout"), "expected an integer in [0, 999], got -1"));
}

TEST(ScenarioRetryConfigTest, OverMaxRetryAfterIsGiveUpOrBackoff) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"over_max_retry_after", "wait"}})),
            only(at(kRetry, "/over_max_retry_after"), "expected one of \"give_up\", \"backoff\", got \"wait\""));
  EXPECT_EQ(
      errors_of(with_strategy("search", "retry", {{"honour_retry_after", false}, {"over_max_retry_after", "backoff"}})),
      only(at(kRetry, "/over_max_retry_after"), "applies only when honour_retry_after is true"));
  EXPECT_EQ(errors_of(with_strategy("search", "retry", {{"zero_retry_after", "now"}})),
            only(at(kRetry, "/zero_retry_after"), "expected one of \"honour\", \"backoff\", got \"now\""));
  EXPECT_EQ(
      errors_of(with_strategy("search", "retry", {{"honour_retry_after", false}, {"zero_retry_after", "backoff"}})),
      only(at(kRetry, "/zero_retry_after"), "applies only when honour_retry_after is true"));
}

TEST(ScenarioCircuitBreakerConfigTest, FailureThresholdMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("search", "circuit_breaker", {{"failure_threshold", 0}})),
            only("/policy/search/0/circuit_breaker/failure_threshold", "expected an integer in [1, 1000000], got 0"));
}

TEST(ScenarioCircuitBreakerConfigTest, FailureThresholdIsAtMostAMillion) {
  EXPECT_EQ(
      errors_of(with_strategy("search", "circuit_breaker", {{"failure_threshold", 1'000'001}})),
      only("/policy/search/0/circuit_breaker/failure_threshold", "expected an integer in [1, 1000000], got 1000001"));
}

TEST(ScenarioCircuitBreakerConfigTest, OpenDurationMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("search", "circuit_breaker", {{"open_duration", "0s"}})),
            only("/policy/search/0/circuit_breaker/open_duration", "expected a duration > 0, got \"0s\""));
}

TEST(ScenarioCircuitBreakerConfigTest, HalfOpenProbesMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("search", "circuit_breaker", {{"half_open_probes", 0}})),
            only("/policy/search/0/circuit_breaker/half_open_probes", "expected an integer in [1, 1000000], got 0"));
}

TEST(ScenarioCircuitBreakerConfigTest, HalfOpenProbesIsAtMostAMillion) {
  EXPECT_EQ(
      errors_of(with_strategy("search", "circuit_breaker", {{"half_open_probes", 2'000'000}})),
      only("/policy/search/0/circuit_breaker/half_open_probes", "expected an integer in [1, 1000000], got 2000000"));
}

TEST(ScenarioCircuitBreakerConfigTest, FailureOnNamesOutcomeKinds) {
  EXPECT_EQ(errors_of(with_strategy("search", "circuit_breaker", {{"failure_on", {"5xx"}}})),
            only("/policy/search/0/circuit_breaker/failure_on/0",
                 std::string("expected one of ") + kKindList + ", got \"5xx\""));
}

TEST(ScenarioCircuitBreakerConfigTest, FailureOnNamesNoLocalRefusal) {
  // A local refusal never reaches the breaker's count: naming one would never open it.
  EXPECT_EQ(errors_of(with_strategy("search", "circuit_breaker", {{"failure_on", {"timeout", "bulkhead_full"}}})),
            only("/policy/search/0/circuit_breaker/failure_on/1",
                 "\"bulkhead_full\" is a local refusal, made without calling the provider; the breaker counts only "
                 "calls that reached the provider, so it never sees one"));
}

TEST(ScenarioRetryBudgetConfigTest, GrpcFailureOnNamesNoLocalRefusal) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry_budget", {{"mode", "grpc"}, {"failure_on", {"circuit_open"}}})),
            only("/policy/search/0/retry_budget/failure_on/0",
                 "\"circuit_open\" is a local refusal, made without calling the provider; the retry budget counts "
                 "only calls that reached the provider, so it never sees one"));
}

TEST(ScenarioAdaptiveThrottlingConfigTest, RejectOnNamesNoLocalRefusal) {
  EXPECT_EQ(errors_of(with_strategy("search", "adaptive_throttling", {{"reject_on", {"rate_limiter_rejected"}}})),
            only("/policy/search/0/adaptive_throttling/reject_on/0",
                 "\"rate_limiter_rejected\" is a local refusal, made without calling the provider; adaptive "
                 "throttling counts only calls that reached the provider, so it never sees one"));
}

TEST(ScenarioSimplifyQueryConfigTest, AppliesOnlyToWebSearchProviders) {
  EXPECT_EQ(errors_of(with_strategy("gpt", "simplify_query", Json::object())),
            only("/policy/gpt/0/simplify_query",
                 "simplify_query applies only to web_search providers; \"gpt\" is an llm provider"));
}

TEST(ScenarioSimplifyQueryConfigTest, StepsMustBeKnownRungs) {
  EXPECT_EQ(errors_of(with_strategy("search", "simplify_query", {{"steps", {"first_4_words"}}})),
            only("/policy/search/0/simplify_query/steps/0",
                 "expected one of \"drop_quotes\", \"drop_years\", \"first_5_words\", \"first_3_words\", "
                 "\"drop_filler_words\", got \"first_4_words\""));
}

TEST(ScenarioSimplifyQueryConfigTest, StepsMustNotRepeat) {
  EXPECT_EQ(errors_of(with_strategy("search", "simplify_query", {{"steps", {"drop_years", "drop_years"}}})),
            only("/policy/search/0/simplify_query/steps/1",
                 "duplicate \"drop_years\" (also /policy/search/0/simplify_query/steps/0)"));
}

TEST(ScenarioSimplifyQueryConfigTest, StepsMustNotBeEmpty) {
  EXPECT_EQ(errors_of(with_strategy("search", "simplify_query", {{"steps", Json::array()}})),
            only("/policy/search/0/simplify_query/steps", "expected a non-empty array, got []"));
}

TEST(ScenarioSimplifyQueryConfigTest, FillerWordsNeedTheirRung) {
  EXPECT_EQ(
      errors_of(with_strategy("search", "simplify_query", {{"steps", {"drop_years"}}, {"filler_words", {"the"}}})),
      only("/policy/search/0/simplify_query/filler_words", "applies only when steps include \"drop_filler_words\""));
}

TEST(ScenarioSimplifyQueryConfigTest, FillerWordsMustBeNonEmptyStrings) {
  EXPECT_EQ(errors_of(with_strategy("search", "simplify_query", {{"filler_words", {"the", ""}}})),
            only("/policy/search/0/simplify_query/filler_words/1", "expected a non-empty string, got \"\""));
}

TEST(ScenarioBudgetConfigTest, NeedsALimit) {
  EXPECT_EQ(errors_of(with_strategy("gpt", "budget", Json::object())),
            only("/policy/gpt/0/budget", "expected at least one of: max_tokens, max_cost_usd, max_iterations"));
}

TEST(ScenarioBudgetConfigTest, MaxTokensMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("gpt", "budget", {{"max_tokens", 0}})),
            only("/policy/gpt/0/budget/max_tokens", "expected an integer in [1, 1000000000000000], got 0"));
}

TEST(ScenarioBudgetConfigTest, MaxTokensIsAtMost1e15) {
  EXPECT_EQ(
      errors_of(with_strategy("gpt", "budget", {{"max_tokens", 1'000'000'000'000'001}})),
      only("/policy/gpt/0/budget/max_tokens", "expected an integer in [1, 1000000000000000], got 1000000000000001"));
}

TEST(ScenarioBudgetConfigTest, MaxCostMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("gpt", "budget", {{"max_cost_usd", 0}})),
            only("/policy/gpt/0/budget/max_cost_usd", "expected a number in (0, 1000000000], got 0"));
}

TEST(ScenarioBudgetConfigTest, MaxCostIsAtMostABillionUsd) {
  EXPECT_EQ(errors_of(with_strategy("gpt", "budget", {{"max_cost_usd", 1e10}})),
            only("/policy/gpt/0/budget/max_cost_usd", "expected a number in (0, 1000000000], got 10000000000.0"));
}

constexpr const char* kEscalation = "/policy/search/0/escalation";

// The base scenario whose `search` list is one escalation item with `rules`.
Json with_rules(const Json& rules) { return with_strategy("search", "escalation", Json{{"rules", rules}}); }

TEST(ScenarioEscalationConfigTest, DefaultsWithoutRules) {
  LoadResult loaded = load_scenario_text(with_strategy("search", "escalation", Json::object()).dump(), test::kBaseFile);
  ASSERT_EQ(loaded.errors, std::vector<ValidationError>{});
  const auto& config = std::get<EscalationConfig>(loaded.scenario->policy.at("search").at(0));
  ASSERT_EQ(config.rules.size(), EscalationConfig::default_rules().size());
  EXPECT_EQ(config.rules[4].when, EscalationCondition::failed);
  EXPECT_EQ(config.rules[4].level, EscalationLevel::critical_failure);
}

TEST(ScenarioEscalationConfigTest, RulesAreReadInOrder) {
  LoadResult loaded = load_scenario_text(
      with_rules(Json::parse(R"([ { "when": "failed_attempts", "at_least": 3, "level": "human_review" },
                                  { "when": "cost_usd", "at_least": 0.25, "level": "urgent_action" },
                                  { "when": "failed", "level": "critical_failure" } ])"))
          .dump(),
      test::kBaseFile);
  ASSERT_EQ(loaded.errors, std::vector<ValidationError>{});
  const auto& rules = std::get<EscalationConfig>(loaded.scenario->policy.at("search").at(0)).rules;
  ASSERT_EQ(rules.size(), 3U);
  EXPECT_EQ(rules[0].when, EscalationCondition::failed_attempts);
  EXPECT_EQ(rules[0].at_least, 3);
  EXPECT_EQ(rules[0].level, EscalationLevel::human_review);
  EXPECT_EQ(rules[1].when, EscalationCondition::cost_usd);
  EXPECT_EQ(rules[1].at_least, 0.25);
  EXPECT_EQ(rules[2].when, EscalationCondition::failed);
}

TEST(ScenarioEscalationConfigTest, RulesMustNotBeEmpty) {
  EXPECT_EQ(errors_of(with_rules(Json::array())),
            only(at(kEscalation, "/rules"), "expected a non-empty array, got []"));
}

TEST(ScenarioEscalationConfigTest, RuleHasOnlyItsKeys) {
  EXPECT_EQ(errors_of(with_rules(Json::parse(R"([ { "when": "failed", "level": "human_review", "after": 2 } ])"))),
            only(at(kEscalation, "/rules/0/after"), "unknown key \"after\"; expected one of: when, at_least, level"));
}

TEST(ScenarioEscalationConfigTest, WhenIsRequired) {
  EXPECT_EQ(errors_of(with_rules(Json::parse(R"([ { "level": "human_review" } ])"))),
            only(at(kEscalation, "/rules/0"), "missing required key \"when\""));
}

TEST(ScenarioEscalationConfigTest, WhenMustBeACondition) {
  EXPECT_EQ(errors_of(with_rules(Json::parse(R"([ { "when": "retries", "level": "human_review" } ])"))),
            only(at(kEscalation, "/rules/0/when"),
                 "expected one of \"failed_attempts\", \"fallbacks\", \"fallbacks_exhausted\", \"cost_usd\", "
                 "\"tokens\", \"degraded\", \"safe_failed\", \"failed\", got \"retries\""));
}

TEST(ScenarioEscalationConfigTest, LevelIsRequired) {
  EXPECT_EQ(errors_of(with_rules(Json::parse(R"([ { "when": "failed" } ])"))),
            only(at(kEscalation, "/rules/0"), "missing required key \"level\""));
}

TEST(ScenarioEscalationConfigTest, LevelMustBeALevel) {
  EXPECT_EQ(errors_of(with_rules(Json::parse(R"([ { "when": "failed", "level": "page_oncall" } ])"))),
            only(at(kEscalation, "/rules/0/level"),
                 "expected one of \"auto_retry\", \"model_switch\", \"human_review\", \"urgent_action\", "
                 "\"critical_failure\", got \"page_oncall\""));
}

TEST(ScenarioEscalationConfigTest, CountConditionsNeedAtLeast) {
  EXPECT_EQ(errors_of(with_rules(Json::parse(R"([ { "when": "failed_attempts", "level": "human_review" } ])"))),
            only(at(kEscalation, "/rules/0"), "missing required key \"at_least\", which \"failed_attempts\" needs"));
}

TEST(ScenarioEscalationConfigTest, CostNeedsAtLeast) {
  EXPECT_EQ(errors_of(with_rules(Json::parse(R"([ { "when": "cost_usd", "level": "human_review" } ])"))),
            only(at(kEscalation, "/rules/0"), "missing required key \"at_least\", which \"cost_usd\" needs"));
}

TEST(ScenarioEscalationConfigTest, FlagsTakeNoAtLeast) {
  EXPECT_EQ(errors_of(with_rules(Json::parse(R"([ { "when": "failed", "at_least": 1, "level": "human_review" } ])"))),
            only(at(kEscalation, "/rules/0/at_least"),
                 "applies only to conditions with a threshold (failed_attempts, fallbacks, cost_usd, tokens), "
                 "not \"failed\""));
}

TEST(ScenarioEscalationConfigTest, CountsAreIntegersFromOne) {
  EXPECT_EQ(
      errors_of(with_rules(Json::parse(R"([ { "when": "fallbacks", "at_least": 0, "level": "model_switch" } ])"))),
      only(at(kEscalation, "/rules/0/at_least"), "expected an integer in [1, 1000000000], got 0"));
  EXPECT_EQ(errors_of(with_rules(Json::parse(R"([ { "when": "tokens", "at_least": 2.5, "level": "model_switch" } ])"))),
            only(at(kEscalation, "/rules/0/at_least"), "expected an integer in [1, 1000000000], got 2.5"));
}

TEST(ScenarioEscalationConfigTest, CostIsPositive) {
  EXPECT_EQ(errors_of(with_rules(Json::parse(R"([ { "when": "cost_usd", "at_least": 0, "level": "human_review" } ])"))),
            only(at(kEscalation, "/rules/0/at_least"), "expected a number in (0, 1000000000], got 0"));
}

TEST(ScenarioEscalationConfigTest, RulesMustNotRepeat) {
  EXPECT_EQ(errors_of(with_rules(Json::parse(R"([ { "when": "failed_attempts", "at_least": 3, "level": "auto_retry" },
                                                  { "when": "failed_attempts", "at_least": 5, "level": "human_review" },
                                                  { "when": "failed_attempts", "at_least": 3, "level": "urgent_action" },
                                                  { "when": "failed", "level": "urgent_action" },
                                                  { "when": "failed", "level": "critical_failure" } ])"))),
            (std::vector<ValidationError>{
                {test::kBaseFile, at(kEscalation, "/rules/2"),
                 "duplicate rule \"failed_attempts\" at_least 3 (also /policy/search/0/escalation/rules/0)"},
                {test::kBaseFile, at(kEscalation, "/rules/4"),
                 "duplicate rule \"failed\" (also /policy/search/0/escalation/rules/3)"}}));
}

TEST(ScenarioEscalationConfigTest, AListHoldsOneEscalation) {
  const Json doc = with(base_scenario(), "/policy/search",
                        Json::parse(R"([ { "escalation": {} }, { "retry": {} }, { "escalation": {} } ])"));
  EXPECT_EQ(errors_of(doc),
            only("/policy/search/2", "duplicate \"escalation\" (also /policy/search/0); a list holds at most one"));
}

TEST(ScenarioCacheConfigTest, AListHoldsOneCache) {
  const Json doc = with(base_scenario(), "/policy/search",
                        Json::parse(R"([ { "cache": {} }, { "retry": {} }, { "cache": { "ttl": "1m" } } ])"));
  EXPECT_EQ(errors_of(doc),
            only("/policy/search/2", "duplicate \"cache\" (also /policy/search/0); a list holds at most one"));
}

// base_scenario() with a `tools` block: web (served by search) and answer (by gpt), each
// a step's tool, and `policy` as given.
Json with_two_tools(const Json& policy) {
  Json doc = with(base_scenario(), "/tools", Json::parse(R"({ "web": { "provider": "search" },
                                                             "answer": { "provider": "gpt" } })"));
  doc = with(doc, "/workload/tasks/0/steps/0/tool", "web");
  doc = with(doc, "/workload/tasks/0/steps/1/tool", "answer");
  return with(doc, "/policy", policy);
}

TEST(ScenarioEscalationConfigTest, AppliesOnlyToTools) {
  Json doc = with_two_tools(Json::parse(R"({ "web": [], "answer": [ { "escalation": {} } ],
                                             "gpt": [ { "escalation": {} } ] })"));
  EXPECT_EQ(errors_of(doc), only("/policy/gpt/0/escalation",
                                 "escalation applies only to a tool's list; \"gpt\" is a provider, whose stack "
                                 "serves calls, not tasks"));
}

constexpr const char* kCache = "/policy/search/0/cache";

CacheConfig loaded_cache(const Json& config) {
  LoadResult loaded = load_scenario_text(with_strategy("search", "cache", config).dump(), test::kBaseFile);
  EXPECT_EQ(loaded.errors, std::vector<ValidationError>{});
  if (!loaded.scenario) return {};
  return std::get<CacheConfig>(loaded.scenario->policy.at("search").at(0));
}

TEST(ScenarioCacheConfigTest, ReadsEveryKey) {
  const CacheConfig c = loaded_cache(Json::parse(R"({ "ttl": "90s", "max_entries": 10000000, "stale_if_error": "1h",
                                                       "stale_on": ["empty", "timeout"], "cache_empty": "2.5s" })"));
  EXPECT_EQ(c.ttl, 90 * kSecond);
  EXPECT_EQ(c.max_entries, 10'000'000);
  EXPECT_EQ(c.stale_if_error, kHour);
  EXPECT_EQ(c.stale_on, (std::vector{OutcomeKind::empty, OutcomeKind::timeout}));
  EXPECT_EQ(c.cache_empty, 2'500 * kMillisecond);
}

TEST(ScenarioCacheConfigTest, UnknownKeysListTheCachesKeys) {
  EXPECT_EQ(errors_of(with_strategy("search", "cache", {{"max_age", "1m"}})),
            only(at(kCache, "/max_age"),
                 "unknown key \"max_age\"; expected one of: ttl, max_entries, stale_if_error, stale_on, cache_empty"));
}

TEST(ScenarioCacheConfigTest, TtlMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("search", "cache", {{"ttl", "0s"}})),
            only(at(kCache, "/ttl"), "expected a duration > 0, got \"0s\""));
}

TEST(ScenarioCacheConfigTest, TtlMustBeADurationString) {
  EXPECT_EQ(errors_of(with_strategy("search", "cache", {{"ttl", 600}})),
            only(at(kCache, "/ttl"), "expected a duration string such as \"250ms\", got 600"));
}

TEST(ScenarioCacheConfigTest, MaxEntriesMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("search", "cache", {{"max_entries", 0}})),
            only(at(kCache, "/max_entries"), "expected an integer in [1, 10000000], got 0"));
}

TEST(ScenarioCacheConfigTest, MaxEntriesIsAtMostTenMillion) {
  EXPECT_EQ(errors_of(with_strategy("search", "cache", {{"max_entries", 10'000'001}})),
            only(at(kCache, "/max_entries"), "expected an integer in [1, 10000000], got 10000001"));
}

TEST(ScenarioCacheConfigTest, MaxEntriesMustBeAnInteger) {
  EXPECT_EQ(errors_of(with_strategy("search", "cache", {{"max_entries", 2.5}})),
            only(at(kCache, "/max_entries"), "expected an integer in [1, 10000000], got 2.5"));
}

TEST(ScenarioCacheConfigTest, StaleIfErrorMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("search", "cache", {{"stale_if_error", "0s"}})),
            only(at(kCache, "/stale_if_error"), "expected a duration > 0, got \"0s\""));
}

TEST(ScenarioCacheConfigTest, StaleOnNeedsStaleIfError) {
  EXPECT_EQ(errors_of(with_strategy("search", "cache", {{"stale_on", {"timeout"}}})),
            only(at(kCache, "/stale_on"), "applies only when stale_if_error is set"));
}

TEST(ScenarioCacheConfigTest, StaleOnNamesOutcomeKinds) {
  EXPECT_EQ(errors_of(with_strategy("search", "cache", {{"stale_if_error", "1m"}, {"stale_on", {"5xx"}}})),
            only(at(kCache, "/stale_on/0"), std::string("expected one of ") + kKindList + ", got \"5xx\""));
}

TEST(ScenarioCacheConfigTest, StaleOnExcludesSuccess) {
  EXPECT_EQ(errors_of(with_strategy("search", "cache", {{"stale_if_error", "1m"}, {"stale_on", {"success"}}})),
            only(at(kCache, "/stale_on/0"), std::string("expected one of ") + kKindList + ", got \"success\""));
}

TEST(ScenarioCacheConfigTest, StaleOnMustNotRepeatAKind) {
  EXPECT_EQ(
      errors_of(with_strategy("search", "cache", {{"stale_if_error", "1m"}, {"stale_on", {"timeout", "timeout"}}})),
      only(at(kCache, "/stale_on/1"), "duplicate \"timeout\" (also /policy/search/0/cache/stale_on/0)"));
}

TEST(ScenarioCacheConfigTest, StaleOnMustNotBeEmpty) {
  EXPECT_EQ(errors_of(with_strategy("search", "cache", {{"stale_if_error", "1m"}, {"stale_on", Json::array()}})),
            only(at(kCache, "/stale_on"), "expected a non-empty array, got []"));
}

TEST(ScenarioCacheConfigTest, CacheEmptyMustBePositive) {
  EXPECT_EQ(errors_of(with_strategy("search", "cache", {{"cache_empty", "0ms"}})),
            only(at(kCache, "/cache_empty"), "expected a duration > 0, got \"0ms\""));
}

TEST(ScenarioCacheConfigTest, AppliesOnlyToSearchProviders) {
  EXPECT_EQ(errors_of(with_strategy("gpt", "cache", Json::object())),
            only("/policy/gpt/0/cache",
                 "cache applies only to tools and stacks of search providers (web_search, "
                 "vector_search), whose requests carry a query; \"gpt\" is an llm provider"));
}

TEST(ScenarioCacheConfigTest, AppliesOnlyToToolsServedBySearchProviders) {
  Json doc = with_two_tools(Json::parse(R"({ "web": [ { "cache": {} } ], "search": [ { "cache": {} } ],
                                             "answer": [ { "cache": {} } ] })"));
  EXPECT_EQ(errors_of(doc), only("/policy/answer/0/cache",
                                 "cache applies only to tools and stacks of search providers (web_search, "
                                 "vector_search), whose requests carry a query; \"gpt\" is an llm provider"));
}

TEST(ScenarioPolicyFileTest, LoadsAPolicyObjectAtTheTopLevel) {
  const PolicyLoadResult result = load_policy_file(test::data_path("policy.json"));
  ASSERT_EQ(result.errors, std::vector<ValidationError>{});
  ASSERT_TRUE(result.policy.has_value());
  const auto& strategies = result.policy->at("llm");
  ASSERT_EQ(strategies.size(), 2u);
  EXPECT_EQ(std::get<TimeoutConfig>(strategies[0]).per_attempt, 5 * kSecond);
  const auto& retry = std::get<RetryConfig>(strategies[1]);
  EXPECT_EQ(retry.max_attempts, 2);
  EXPECT_EQ(retry.backoff, Backoff::constant);
  EXPECT_EQ(retry.base_delay, kSecond);
}

TEST(ScenarioPolicyFileTest, PathsAreRelativeToThePolicyFile) {
  const auto errors = load_policy_text(R"({ "llm": [ { "retry": { "max_attempts": 0 } } ] })", "p.json").errors;
  EXPECT_EQ(
      errors,
      (std::vector{ValidationError{"p.json", "/llm/0/retry/max_attempts", "expected an integer in [1, 1000], got 0"}}));
}

TEST(ScenarioPolicyFileTest, TopLevelMustBeAnObject) {
  EXPECT_EQ(load_policy_text("[]", "p.json").errors,
            (std::vector{ValidationError{"p.json", "", "expected an object, got []"}}));
}

TEST(ScenarioPolicyFileTest, MissingFileIsReported) {
  const std::string file = test::data_path("no-such-policy.json");
  EXPECT_EQ(load_policy_file(file).errors, (std::vector{ValidationError{file, "", "file not found"}}));
}

TEST(ScenarioPolicyFileTest, CrossChecksApplyToTheReplacement) {
  LoadResult loaded = load_scenario_text(base_scenario().dump(), test::kBaseFile);
  ASSERT_TRUE(loaded.scenario.has_value());
  const auto policy = load_policy_text(
      R"({ "bing": [], "search": [], "gpt": [ { "timeout": {} }, { "simplify_query": {} } ] })", "p.json");
  ASSERT_TRUE(policy.policy.has_value());
  EXPECT_EQ(check_policy(*loaded.scenario, *policy.policy, "p.json"),
            (std::vector<ValidationError>{
                {"p.json", "/gpt/1/simplify_query",
                 "simplify_query applies only to web_search providers; \"gpt\" is an llm provider"},
            }));
}

TEST(ScenarioPolicyFileTest, AToolTheScenarioLacksIsSkippedWithANote) {
  LoadResult loaded = load_scenario_text(base_scenario().dump(), test::kBaseFile);
  ASSERT_TRUE(loaded.scenario.has_value());
  const auto policy = load_policy_text(R"({ "bing": [], "pinecone": [], "search": [], "gpt": [] })", "p.json");
  ASSERT_TRUE(policy.policy.has_value());
  const PolicyMerge merge = merge_policy(*loaded.scenario, *policy.policy, "p.json");
  EXPECT_EQ(merge.errors, std::vector<ValidationError>{});
  EXPECT_EQ(merge.notes,
            std::vector<std::string>{
                "p.json: skipped \"bing\", \"pinecone\": the scenario has no tool or provider of that name"});
  EXPECT_FALSE(merge.policy.contains("bing"));
  EXPECT_TRUE(merge.policy.at("search").empty());
}

TEST(ScenarioPolicyFileTest, AToolThePolicyDoesNotNameKeepsTheScenariosEntry) {
  // Left out, the search tool keeps the retry the scenario gives it.
  LoadResult loaded = load_scenario_text(base_scenario().dump(), test::kBaseFile);
  ASSERT_TRUE(loaded.scenario.has_value());
  const auto policy = load_policy_text(R"({ "gpt": [ { "retry": { "max_attempts": 5 } } ] })", "p.json");
  ASSERT_TRUE(policy.policy.has_value());
  const PolicyMerge merge = merge_policy(*loaded.scenario, *policy.policy, "p.json");
  EXPECT_EQ(merge.errors, std::vector<ValidationError>{});
  EXPECT_EQ(merge.notes,
            std::vector<std::string>{"p.json: \"search\" not named in it: the scenario's own policy kept"});
  EXPECT_EQ(merge.policy.at("search").size(), loaded.scenario->policy.at("search").size());
  EXPECT_FALSE(merge.policy.at("search").empty());
  EXPECT_EQ(merge.policy.at("gpt").size(), 1u);
}

TEST(ScenarioPolicyFileTest, APolicyNamingNoToolOfTheScenarioIsAnError) {
  LoadResult loaded = load_scenario_text(base_scenario().dump(), test::kBaseFile);
  ASSERT_TRUE(loaded.scenario.has_value());
  for (const char* text : {"{}", R"({ "pinecone": [] })"}) {
    const auto none = load_policy_text(text, "p.json");
    ASSERT_TRUE(none.policy.has_value());
    EXPECT_EQ(check_policy(*loaded.scenario, *none.policy, "p.json"),
              (std::vector<ValidationError>{
                  {"p.json", "", "names no tool of the scenario (its tools are \"gpt\", \"search\")"}}))
        << text;
  }
}

TEST(ScenarioPolicyFileTest, ToolsOfTheScenariosOwnPolicyCountToo) {
  // "extra" is in no step, but the scenario's policy configures it: it keeps its entry.
  Json doc = with(base_scenario(), "/providers/extra", Json{{"type", "llm"}});
  doc = with(doc, "/policy/extra", Json::array({Json{{"timeout", Json::object()}}}));
  LoadResult loaded = load_scenario_text(doc.dump(), test::kBaseFile);
  ASSERT_TRUE(loaded.scenario.has_value());
  const auto policy = load_policy_text(R"({ "gpt": [], "search": [] })", "p.json");
  ASSERT_TRUE(policy.policy.has_value());
  const PolicyMerge merge = merge_policy(*loaded.scenario, *policy.policy, "p.json");
  EXPECT_EQ(merge.notes, std::vector<std::string>{"p.json: \"extra\" not named in it: the scenario's own policy kept"});
  EXPECT_EQ(merge.policy.at("extra").size(), 1u);
}

TEST(ScenarioPolicyFileTest, ApplyInstallsAValidPolicyFile) {
  LoadResult loaded = load_scenario(test::data_path("minimal.json"));
  ASSERT_TRUE(loaded.scenario.has_value());
  EXPECT_EQ(apply_policy_file(*loaded.scenario, test::data_path("policy.json")), std::vector<ValidationError>{});
  ASSERT_EQ(loaded.scenario->policy.at("llm").size(), 2u);
}

TEST(ScenarioPolicyFileTest, ApplyLeavesTheScenarioAloneOnErrors) {
  LoadResult loaded = load_scenario_text(base_scenario().dump(), test::kBaseFile);
  ASSERT_TRUE(loaded.scenario.has_value());
  const test::TempFile file(".json", R"({ "gpt": [ { "simplify_query": {} } ], "search": [] })");
  EXPECT_EQ(apply_policy_file(*loaded.scenario, file.path()),
            (std::vector<ValidationError>{{file.string(), "/gpt/0/simplify_query",
                                           "simplify_query applies only to web_search providers; \"gpt\" is an "
                                           "llm provider"}}));
  EXPECT_EQ(loaded.scenario->policy.at("search").size(), 1u);
}

// reflect and validate. The base scenario with a tool provider "crm" (without a tools
// block, also the tool "crm") called by a third step.
Json with_crm(Json reflect) {
  Json doc = base_scenario();
  doc["providers"]["crm"] = Json{{"type", "tool"}, {"argument_error_rate", 0.3}};
  doc["workload"]["tasks"][0]["steps"].push_back(Json{{"tool", "crm"}});
  doc["policy"]["crm"] = Json::array({Json{{"reflect", std::move(reflect)}}});
  return doc;
}
constexpr const char* kReflect = "/policy/crm/0/reflect";

TEST(ScenarioPolicyTest, ReflectLoadsWithItsDefaults) {
  LoadResult loaded = load_scenario_text(with_crm(Json{{"provider", "gpt"}}).dump(), test::kBaseFile);
  ASSERT_EQ(loaded.errors, std::vector<ValidationError>{});
  const auto& c = std::get<ReflectConfig>(loaded.scenario->policy.at("crm").at(0));
  EXPECT_EQ(c.provider, "gpt");
  EXPECT_EQ(c.on, std::vector<OutcomeKind>{OutcomeKind::bad_request});
  EXPECT_EQ(c.prompt_tokens, 150);
  EXPECT_EQ(c.max_output_tokens, 1000);
  EXPECT_EQ(c.max_reflections, 2);
}

TEST(ScenarioPolicyTest, ReflectNeedsAProvider) {
  EXPECT_EQ(errors_of(with_crm(Json::object())), only(kReflect, "missing required key \"provider\""));
}

TEST(ScenarioPolicyTest, ReflectProviderMustExist) {
  EXPECT_EQ(errors_of(with_crm(Json{{"provider", "gpt-5"}})),
            only(at(kReflect, "/provider"), "no provider named \"gpt-5\"; providers are: crm, gpt, search"));
}

TEST(ScenarioPolicyTest, ReflectProviderMustBeAnLlm) {
  EXPECT_EQ(
      errors_of(with_crm(Json{{"provider", "search"}})),
      only(at(kReflect, "/provider"), "expected an llm provider to reflect; \"search\" is a web_search provider"));
}

TEST(ScenarioPolicyTest, ReflectTakesIncludeOrExcludeNotBoth) {
  EXPECT_EQ(errors_of(with_crm(Json{{"provider", "gpt"}, {"include_tools", {"crm"}}, {"exclude_tools", {"gpt"}}})),
            only(kReflect, "expected at most one of include_tools and exclude_tools, got both"));
}

TEST(ScenarioPolicyTest, ReflectToolListsNameTools) {
  EXPECT_EQ(
      errors_of(with_crm(Json{{"provider", "gpt"}, {"exclude_tools", {"crm_lookup"}}})),
      only(at(kReflect, "/exclude_tools/0"), "no provider named \"crm_lookup\"; providers are: crm, gpt, search"));
}

TEST(ScenarioPolicyTest, ReflectAppliesOnlyToToolsServedByToolProviders) {
  Json doc = with_crm(Json{{"provider", "gpt"}});
  doc["policy"]["search"] = Json::array({Json{{"reflect", {{"provider", "gpt"}}}}});
  EXPECT_EQ(errors_of(doc), only("/policy/search/0/reflect",
                                 "reflect applies only to tools served by tool providers; \"search\" is a "
                                 "web_search provider"));
}

TEST(ScenarioPolicyTest, ReflectBoundsMaxReflections) {
  EXPECT_EQ(errors_of(with_crm(Json{{"provider", "gpt"}, {"max_reflections", 0}})),
            only(at(kReflect, "/max_reflections"), "expected an integer in [1, 100], got 0"));
}

TEST(ScenarioPolicyTest, ValidateChecksAreAClosedSet) {
  EXPECT_EQ(errors_of(with_strategy("gpt", "validate", Json{{"require", {"json", "schema"}}})),
            only("/policy/gpt/0/validate/require/1",
                 "expected one of \"json\", \"non_empty\", \"no_error\", \"complete\", got \"schema\""));
}

TEST(ScenarioProviderRatesTest, RatesMustBeProbabilities) {
  Json doc = with_crm(Json{{"provider", "gpt"}});
  doc["providers"]["crm"]["argument_error_rate"] = 1.5;
  doc["providers"]["crm"]["reflection_fix_rate"] = -0.1;
  doc["providers"]["gpt"]["malformed_output_rate"] = 2;
  EXPECT_EQ(errors_of(doc),
            (std::vector<ValidationError>{
                {test::kBaseFile, "/providers/gpt/malformed_output_rate", "expected a number in [0, 1], got 2"},
                {test::kBaseFile, "/providers/crm/argument_error_rate", "expected a number in [0, 1], got 1.5"},
                {test::kBaseFile, "/providers/crm/reflection_fix_rate", "expected a number in [0, 1], got -0.1"}}));
}

TEST(ScenarioProviderRatesTest, ToolStepsTakeNoTokens) {
  Json doc = with_crm(Json{{"provider", "gpt"}});
  doc["workload"]["tasks"][0]["steps"][2]["prompt_tokens"] = 10;
  EXPECT_EQ(errors_of(doc),
            only("/workload/tasks/0/steps/2/prompt_tokens", "applies only to llm steps; \"crm\" is a tool provider"));
}

// relax_threshold and rewrite_query: the semantic recovery ladder (seed 001).
constexpr const char* kRelax = "/policy/kb/0/relax_threshold";
constexpr const char* kRewrite = "/policy/search/0/rewrite_query";

TEST(ScenarioRelaxThresholdConfigTest, LoadsWithItsDefaults) {
  LoadResult loaded = load_scenario_text(with_kb_strategy("relax_threshold", Json::object()).dump(), test::kBaseFile);
  ASSERT_EQ(loaded.errors, std::vector<ValidationError>{});
  const auto& c = std::get<RelaxThresholdConfig>(loaded.scenario->policy.at("kb").at(0));
  EXPECT_EQ(c.initial, 0.85);
  EXPECT_EQ(c.step, 0.10);
  EXPECT_EQ(c.floor, 0.70);
  EXPECT_TRUE(c.keyword);
}

TEST(ScenarioRelaxThresholdConfigTest, AppliesOnlyToVectorSearchProviders) {
  EXPECT_EQ(errors_of(with_strategy("gpt", "relax_threshold", Json::object())),
            only("/policy/gpt/0/relax_threshold",
                 "relax_threshold applies only to vector_search providers, whose hits have a similarity threshold to "
                 "lower; \"gpt\" is an llm provider"));
  // A web search matches words: no threshold, so each rung would send the same request.
  EXPECT_EQ(errors_of(with_strategy("search", "relax_threshold", Json::object())),
            only("/policy/search/0/relax_threshold",
                 "relax_threshold applies only to vector_search providers, whose hits have a similarity threshold to "
                 "lower; \"search\" is a web_search provider"));
}

TEST(ScenarioRelaxThresholdConfigTest, InitialAndFloorAreScoresInTheUnitRange) {
  EXPECT_EQ(errors_of(with_kb_strategy("relax_threshold", {{"initial", 1.5}})),
            only(at(kRelax, "/initial"), "expected a number in [0, 1], got 1.5"));
  EXPECT_EQ(errors_of(with_kb_strategy("relax_threshold", {{"floor", -0.1}})),
            only(at(kRelax, "/floor"), "expected a number in [0, 1], got -0.1"));
}

TEST(ScenarioRelaxThresholdConfigTest, StepMustBeAtLeastOneHundredth) {
  for (const double step : {0.0, -0.1, 0.001}) {
    EXPECT_EQ(errors_of(with_kb_strategy("relax_threshold", {{"step", step}})),
              only(at(kRelax, "/step"), fmt::format("expected a number in [0.01, 1], got {}", Json(step).dump())));
  }
}

TEST(ScenarioRelaxThresholdConfigTest, FloorMustNotExceedTheInitialThreshold) {
  EXPECT_EQ(errors_of(with_kb_strategy("relax_threshold", {{"initial", 0.8}, {"floor", 0.9}})),
            only(at(kRelax, "/floor"), "expected a number <= initial (0.8), got 0.9"));
  // Against the default initial threshold when none is given.
  EXPECT_EQ(errors_of(with_kb_strategy("relax_threshold", {{"floor", 0.9}})),
            only(at(kRelax, "/floor"), "expected a number <= initial (0.85), got 0.9"));
  // And the initial threshold against the default floor when no floor is given.
  EXPECT_EQ(
      errors_of(with_kb_strategy("relax_threshold", {{"initial", 0.5}})),
      only(at(kRelax, "/initial"), "expected a number >= floor (0.7, its default; set floor to go lower), got 0.5"));
  EXPECT_TRUE(errors_of(with_kb_strategy("relax_threshold", {{"initial", 0.5}, {"floor", 0.3}})).empty());
}

TEST(ScenarioRelaxThresholdConfigTest, KeywordIsABoolean) {
  EXPECT_EQ(errors_of(with_kb_strategy("relax_threshold", {{"keyword", "yes"}})),
            only(at(kRelax, "/keyword"), "expected true or false, got \"yes\""));
}

TEST(ScenarioRelaxThresholdConfigTest, UnknownKeysAreErrors) {
  EXPECT_EQ(
      errors_of(with_kb_strategy("relax_threshold", {{"threshold", 0.8}})),
      only(at(kRelax, "/threshold"), "unknown key \"threshold\"; expected one of: initial, step, floor, keyword"));
}

TEST(ScenarioRewriteQueryConfigTest, LoadsWithItsDefaults) {
  LoadResult loaded =
      load_scenario_text(with_strategy("search", "rewrite_query", {{"provider", "gpt"}}).dump(), test::kBaseFile);
  ASSERT_EQ(loaded.errors, std::vector<ValidationError>{});
  const auto& c = std::get<RewriteQueryConfig>(loaded.scenario->policy.at("search").at(0));
  EXPECT_EQ(c.provider, "gpt");
  EXPECT_EQ(c.prompt_tokens, 200);
  EXPECT_EQ(c.max_output_tokens, 100);
  EXPECT_EQ(c.max_rewrites, 1);
}

TEST(ScenarioRewriteQueryConfigTest, NeedsAProvider) {
  EXPECT_EQ(errors_of(with_strategy("search", "rewrite_query", Json::object())),
            only(kRewrite, "missing required key \"provider\""));
}

TEST(ScenarioRewriteQueryConfigTest, ProviderMustExist) {
  EXPECT_EQ(errors_of(with_strategy("search", "rewrite_query", {{"provider", "gpt-5"}})),
            only(at(kRewrite, "/provider"), "no provider named \"gpt-5\"; providers are: gpt, search"));
}

TEST(ScenarioRewriteQueryConfigTest, ProviderMustBeAnLlm) {
  EXPECT_EQ(errors_of(with_strategy("search", "rewrite_query", {{"provider", "search"}})),
            only(at(kRewrite, "/provider"),
                 "expected an llm provider to rewrite queries; \"search\" is a web_search provider"));
}

TEST(ScenarioRewriteQueryConfigTest, AppliesOnlyToSearchProviders) {
  EXPECT_EQ(errors_of(with_strategy("gpt", "rewrite_query", {{"provider", "gpt"}})),
            only("/policy/gpt/0/rewrite_query",
                 "rewrite_query applies only to web_search or vector_search providers; \"gpt\" is an llm provider"));
}

TEST(ScenarioRewriteQueryConfigTest, BoundsTokensAndRewrites) {
  EXPECT_EQ(errors_of(with_strategy(
                "search", "rewrite_query",
                {{"provider", "gpt"}, {"prompt_tokens", 0}, {"max_output_tokens", 0}, {"max_rewrites", 101}})),
            (std::vector<ValidationError>{
                {test::kBaseFile, at(kRewrite, "/prompt_tokens"), "expected an integer in [1, 1000000000], got 0"},
                {test::kBaseFile, at(kRewrite, "/max_output_tokens"), "expected an integer in [1, 1000000000], got 0"},
                {test::kBaseFile, at(kRewrite, "/max_rewrites"), "expected an integer in [1, 100], got 101"}}));
}

TEST(ScenarioRewriteQueryConfigTest, RewriteSuccessRateIsAProbability) {
  Json doc = base_scenario();
  doc["providers"]["gpt"]["rewrite_success_rate"] = 1.5;
  EXPECT_EQ(errors_of(doc), only("/providers/gpt/rewrite_success_rate", "expected a number in [0, 1], got 1.5"));
}

}  // namespace
}  // namespace squall

namespace squall {
namespace {

constexpr const char* kBudget = "/policy/search/0/retry_budget";
constexpr const char* kThrottle = "/policy/search/0/adaptive_throttling";

// search's list: a retry, then a retry_budget with `config` (which the retry asks).
Json with_retry_budget(const Json& config) {
  return with(base_scenario(), "/policy/search",
              Json::array({Json{{"retry", Json::object()}}, Json{{"retry_budget", config}}}));
}

TEST(ScenarioRetryBudgetConfigTest, DefaultsAreEnvoysAndA6sExample) {
  LoadResult loaded = load_scenario_text(with_retry_budget(Json::object()).dump(), test::kBaseFile);
  ASSERT_EQ(loaded.errors, std::vector<ValidationError>{});
  const auto& c = std::get<RetryBudgetConfig>(loaded.scenario->policy.at("search").at(1));
  EXPECT_EQ(c.mode, RetryBudgetMode::envoy);
  EXPECT_EQ(c.budget_percent, 20.0);
  EXPECT_EQ(c.min_retry_concurrency, 3);
  EXPECT_EQ(c.max_milli_tokens, 10000);
  EXPECT_EQ(c.token_ratio_milli, 100);
}

TEST(ScenarioRetryBudgetConfigTest, GrpcFiguresAreReadInMilliTokens) {
  LoadResult loaded = load_scenario_text(
      with_retry_budget({{"mode", "grpc"}, {"max_tokens", 2.5}, {"token_ratio", 0.125}}).dump(), test::kBaseFile);
  ASSERT_EQ(loaded.errors, std::vector<ValidationError>{});
  const auto& c = std::get<RetryBudgetConfig>(loaded.scenario->policy.at("search").at(1));
  EXPECT_EQ(c.max_milli_tokens, 2500);
  EXPECT_EQ(c.token_ratio_milli, 125);
}

TEST(ScenarioRetryBudgetConfigTest, BadConfigs) {
  EXPECT_EQ(errors_of(with_strategy("search", "retry_budget", {{"mode", "finagle"}})),
            only(std::string(kBudget) + "/mode", "expected one of \"envoy\", \"grpc\", got \"finagle\""));
  EXPECT_EQ(errors_of(with_strategy("search", "retry_budget", {{"budget_percent", 101}})),
            only(std::string(kBudget) + "/budget_percent", "expected a number in [0, 100], got 101"));
  EXPECT_EQ(errors_of(with_strategy("search", "retry_budget", {{"min_retry_concurrency", -1}})),
            only(std::string(kBudget) + "/min_retry_concurrency", "expected an integer in [0, 1000000], got -1"));
  EXPECT_EQ(errors_of(with_strategy("search", "retry_budget", {{"mode", "grpc"}, {"max_tokens", 0}})),
            only(std::string(kBudget) + "/max_tokens", "expected a number in [0.001, 1000], got 0"));
  EXPECT_EQ(errors_of(with_strategy("search", "retry_budget", {{"mode", "grpc"}, {"token_ratio", 0.0015}})),
            only(std::string(kBudget) + "/token_ratio",
                 "expected a multiple of 0.001 (gRPC keeps milli-tokens), got 0.0015"));
  EXPECT_EQ(errors_of(with_strategy("search", "retry_budget", {{"max_tokens", 10}})),
            only(std::string(kBudget) + "/max_tokens", "applies only to mode \"grpc\""));
  EXPECT_EQ(errors_of(with_strategy("search", "retry_budget", {{"mode", "grpc"}, {"budget_percent", 10}})),
            only(std::string(kBudget) + "/budget_percent", "applies only to mode \"envoy\""));
  EXPECT_EQ(errors_of(with_strategy("search", "retry_budget", {{"failure_on", {"timeout"}}})),
            only(std::string(kBudget) + "/failure_on", "applies only to mode \"grpc\""));
}

TEST(ScenarioRetryBudgetConfigTest, MustComeAfterTheRetryItLimits) {
  const Json doc = with(base_scenario(), "/policy/search",
                        Json::array({Json{{"retry_budget", Json::object()}}, Json{{"retry", Json::object()}}}));
  EXPECT_EQ(errors_of(doc), only("/policy/search/0/retry_budget",
                                 "must come after the retry it limits (/policy/search/1): the retry asks the "
                                 "strategies inside it"));
  const Json ok = with(base_scenario(), "/policy/search",
                       Json::array({Json{{"retry", Json::object()}}, Json{{"retry_budget", Json::object()}}}));
  EXPECT_EQ(errors_of(ok), std::vector<ValidationError>{});
}

TEST(ScenarioRetryBudgetConfigTest, WithoutARetryOrHedgingToAskItLimitsNothing) {
  // Only a retry or a hedging before it asks a retry_budget (Next::admit_retry).
  EXPECT_EQ(errors_of(with(base_scenario(), "/policy/search",
                           Json::array({Json{{"timeout", Json::object()}}, Json{{"retry_budget", Json::object()}}}))),
            only("/policy/search/1/retry_budget", "limits nothing: no retry or hedging comes before it in this list"));
  const Json hedged = with(base_scenario(), "/policy/search",
                           Json::array({Json{{"hedging", Json::object()}}, Json{{"retry_budget", Json::object()}}}));
  EXPECT_EQ(errors_of(hedged), std::vector<ValidationError>{});
}

TEST(ScenarioRetryBudgetConfigTest, InAProviderStackItIsAskedByTheRetriesOfToolsReachingIt) {
  Json doc = with_two_tools(Json::parse(R"({ "web": [ { "retry": {} } ], "answer": [ { "timeout": {} } ],
                                             "search": [ { "retry_budget": {} } ], "gpt": [ { "retry_budget": {} } ] })"));
  EXPECT_EQ(errors_of(doc), only("/policy/gpt/0/retry_budget",
                                 "limits nothing: no retry or hedging comes before it in this stack, nor in the list "
                                 "of a tool whose calls reach \"gpt\""));
  // A retry in answer's list (answer calls gpt) asks gpt's stack.
  doc = with(doc, "/policy/answer", Json::parse(R"([ { "retry": {} } ])"));
  EXPECT_EQ(errors_of(doc), std::vector<ValidationError>{});
}

TEST(ScenarioAdaptiveThrottlingConfigTest, Defaults) {
  LoadResult loaded =
      load_scenario_text(with_strategy("search", "adaptive_throttling", Json::object()).dump(), test::kBaseFile);
  ASSERT_EQ(loaded.errors, std::vector<ValidationError>{});
  const auto& c = std::get<AdaptiveThrottlingConfig>(loaded.scenario->policy.at("search").at(0));
  EXPECT_EQ(c.window, 2 * kMinute);
  EXPECT_EQ(c.k, 2.0);
  EXPECT_EQ(c.reject_on, (std::vector<OutcomeKind>{OutcomeKind::rate_limited, OutcomeKind::overloaded}));
}

TEST(ScenarioAdaptiveThrottlingConfigTest, BadConfigs) {
  EXPECT_EQ(
      errors_of(with_strategy("search", "adaptive_throttling", {{"window", "1500ms"}})),
      only(std::string(kThrottle) + "/window", "expected a whole number of seconds from 1s to 1h, got \"1500ms\""));
  EXPECT_EQ(errors_of(with_strategy("search", "adaptive_throttling", {{"window", "2h"}})),
            only(std::string(kThrottle) + "/window", "expected a whole number of seconds from 1s to 1h, got \"2h\""));
  EXPECT_EQ(errors_of(with_strategy("search", "adaptive_throttling", {{"window", "0s"}})),
            only(std::string(kThrottle) + "/window", "expected a duration > 0, got \"0s\""));
  EXPECT_EQ(errors_of(with_strategy("search", "adaptive_throttling", {{"k", 0.5}})),
            only(std::string(kThrottle) + "/k", "expected a number in [1, 1000], got 0.5"));
  EXPECT_EQ(errors_of(with_strategy("search", "adaptive_throttling", {{"reject_on", {"success"}}})).size(), 1U);
}

}  // namespace
}  // namespace squall

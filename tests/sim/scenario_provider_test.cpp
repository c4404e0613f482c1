// One bad-input test per rule of the `providers` block: provider types, latency
// distributions and fault rules.
#include <gtest/gtest.h>

#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

using test::base_scenario;
using test::errors_of;
using test::only;
using test::with;
using test::without;

constexpr const char* kFault = "/providers/search/faults/0";

std::string at(std::string_view base, std::string_view rest) { return std::string(base) + std::string(rest); }

// The base scenario with its fault replaced by `fault`.
Json with_fault(const Json& fault) { return with(base_scenario(), kFault, fault); }

Json with_search_latency(const Json& latency) { return with(base_scenario(), "/providers/search/latency", latency); }

TEST(ScenarioProvidersTest, ProvidersMustBeAnObject) {
  Json doc = with(base_scenario(), "/providers", Json::array());
  doc = without(doc, "/policy");
  // Not an object: steps cannot be checked against it, so only this is reported.
  EXPECT_EQ(errors_of(doc), only("/providers", "expected an object, got []"));
}

TEST(ScenarioProvidersTest, ProviderNameMustBeAName) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/my search", Json{{"type", "llm"}})),
            only("/providers/my search",
                 "expected a provider name of ASCII letters, digits, '.', '_' and '-', got \"my search\""));
}

TEST(ScenarioProvidersTest, ProviderMustBeAnObject) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt", "llm")),
            only("/providers/gpt", "expected an object, got \"llm\""));
}

TEST(ScenarioProvidersTest, TypeIsRequired) {
  EXPECT_EQ(errors_of(without(base_scenario(), "/providers/gpt/type")),
            only("/providers/gpt", "missing required key \"type\""));
}

TEST(ScenarioProvidersTest, WithoutATypeAKeyNoTypeHasIsStillReported) {
  // The type decides which keys exist; a key that no type has is unknown whatever it is.
  const auto errors = errors_of(with(without(base_scenario(), "/providers/gpt/type"), "/providers/gpt/latncy", 1));
  ASSERT_EQ(errors.size(), 2U);
  EXPECT_EQ(errors[1].path, "/providers/gpt/latncy");
  EXPECT_EQ(
      errors[1].message.rfind("unknown key \"latncy\"; no provider type has it (keys of the types: type, corpus, ", 0),
      0U)
      << errors[1].message;
  // A key some type has is left for when the type is known.
  EXPECT_EQ(
      errors_of(with(with(base_scenario(), "/providers/gpt/type", "pinecone"), "/providers/gpt/corpus", "x")).size(),
      1U);
}

TEST(ScenarioProvidersTest, TypeMustBeKnown) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/type", "pinecone")),
            only("/providers/gpt/type",
                 "expected one of \"web_search\", \"llm\", \"tool\", \"vector_search\", got \"pinecone\""));
}

TEST(ScenarioProvidersTest, KeysOfTheOtherTypeAreUnknown) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/search/model", "bing")),
            only("/providers/search/model",
                 "unknown key \"model\"; expected one of: type, corpus, latency, max_results, faults, capabilities, "
                 "idempotent, sdk_retry, capacity"));
}

TEST(ScenarioProvidersTest, CorpusIsRequired) {
  EXPECT_EQ(errors_of(without(base_scenario(), "/providers/search/corpus")),
            only("/providers/search", "missing required key \"corpus\""));
}

TEST(ScenarioProvidersTest, CorpusMustExistRelativeToTheScenario) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/search/corpus", "missing.jsonl")),
            only("/providers/search/corpus", test::data_path("missing.jsonl") + ": file not found"));
}

TEST(ScenarioProvidersTest, CorpusMustBeARegularFile) {
  // "." is the scenario's own directory; /dev/null exists but is a device.
  const std::string dir = std::filesystem::path(test::data_path(".")).lexically_normal().string();
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/search/corpus", ".")),
            only("/providers/search/corpus", dir + ": not a regular file"));
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/search/corpus", "/dev/null")),
            only("/providers/search/corpus", "/dev/null: not a regular file"));
}

TEST(ScenarioProvidersTest, CorpusIsLoadedAndItsErrorsAreReportedAtItsKey) {
  // The corpus's own message (mocks/corpus.hpp) follows the path.
  const test::TempFile corpus(".jsonl", R"({"title": "A", "link": 42, "snippet": "s"})"
                                        "\n");
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/search/corpus", corpus.string())),
            only("/providers/search/corpus", corpus.string() + ":1: /link: expected a string, got 42"));
}

TEST(ScenarioProvidersTest, CorpusWithADuplicateKeyIsRejected) {
  const test::TempFile corpus(".jsonl", R"({"title": "A", "link": "l", "snippet": "s", "title": "B"})");
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/search/corpus", corpus.string())),
            only("/providers/search/corpus", corpus.string() + ":1: /title: duplicate key \"title\""));
}

TEST(ScenarioProvidersTest, ASharedBadCorpusIsReportedAtEachProvider) {
  const test::TempFile corpus(".jsonl", "{\"title\": 1e999}\n");
  Json doc = with(base_scenario(), "/providers/search/corpus", corpus.string());
  doc = with(doc, "/providers/search2", Json{{"type", "web_search"}, {"corpus", corpus.string()}});
  const std::string message = corpus.string() + ":1:11: expected a number of magnitude at most 1.8e308, got 1e999";
  EXPECT_EQ(errors_of(doc), (std::vector<ValidationError>{{test::kBaseFile, "/providers/search/corpus", message},
                                                          {test::kBaseFile, "/providers/search2/corpus", message}}));
}

TEST(ScenarioProvidersTest, MaxResultsMustNotBeNegative) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/search/max_results", -1)),
            only("/providers/search/max_results", "expected an integer in [0, 10000], got -1"));
}

TEST(ScenarioProvidersTest, MaxResultsIsAtMostTenThousand) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/search/max_results", 10'000)), std::vector<ValidationError>{});
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/search/max_results", 10'001)),
            only("/providers/search/max_results", "expected an integer in [0, 10000], got 10001"));
}

TEST(ScenarioProvidersTest, ModelMustHaveNoControlCharacters) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/model", "gpt\u009b31m")),
            only("/providers/gpt/model", "expected text without control characters, got U+009B at byte 4"));
}

TEST(ScenarioProvidersTest, ModelMustNotBeEmpty) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/model", "")),
            only("/providers/gpt/model", "expected a non-empty string, got \"\""));
}

TEST(ScenarioProvidersTest, PricesMustNotBeNegative) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/price_per_mtok", Json{{"input", -1}})),
            only("/providers/gpt/price_per_mtok/input", "expected a number in [0, 1000000], got -1"));
}

TEST(ScenarioProvidersTest, PricesAreAtMostAMillionUsd) {
  // 1.7e308 per million tokens made costs infinite.
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/price_per_mtok", Json{{"output", 1.7e308}})),
            only("/providers/gpt/price_per_mtok/output", "expected a number in [0, 1000000], got 1.7e+308"));
}

TEST(ScenarioProvidersTest, PricesHaveOnlyInputAndOutput) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/price_per_mtok", Json{{"cached", 1}})),
            only("/providers/gpt/price_per_mtok/cached", "unknown key \"cached\"; expected one of: input, output"));
}

TEST(ScenarioProvidersTest, ContextWindowMustBePositive) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/context_window", 0)),
            only("/providers/gpt/context_window", "expected an integer in [1, 1000000000], got 0"));
}

TEST(ScenarioProvidersTest, ContextWindowIsAtMostABillionTokens) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/context_window", 9223372036854775807)),
            only("/providers/gpt/context_window", "expected an integer in [1, 1000000000], got 9223372036854775807"));
}

TEST(ScenarioProvidersTest, TokensPerSecondMustBePositive) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/tokens_per_second", 0)),
            only("/providers/gpt/tokens_per_second", "expected a number in (0, 1000000000], got 0"));
}

TEST(ScenarioProvidersTest, TokensPerSecondIsAtMostABillion) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/tokens_per_second", 1e9)), std::vector<ValidationError>{});
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/tokens_per_second", 2e9)),
            only("/providers/gpt/tokens_per_second", "expected a number in (0, 1000000000], got 2000000000.0"));
}

TEST(ScenarioProvidersTest, MeanOutputTokensMustBeAPositiveInteger) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/mean_output_tokens", 2.5)),
            only("/providers/gpt/mean_output_tokens", "expected an integer in [1, 1000000000], got 2.5"));
}

TEST(ScenarioProvidersTest, MeanOutputTokensIsAtMostABillion) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/mean_output_tokens", 1'000'000'001)),
            only("/providers/gpt/mean_output_tokens", "expected an integer in [1, 1000000000], got 1000000001"));
}

TEST(ScenarioLatencyTest, DistributionMustBeKnown) {
  EXPECT_EQ(errors_of(with_search_latency({{"distribution", "normal"}})),
            only("/providers/search/latency/distribution",
                 "expected one of \"lognormal\", \"exponential\", \"constant\", got \"normal\""));
}

TEST(ScenarioLatencyTest, LognormalNeedsMedianAndP99) {
  EXPECT_EQ(errors_of(with_search_latency({{"median", "200ms"}})),
            only("/providers/search/latency", "missing required key \"p99\""));
}

TEST(ScenarioLatencyTest, P99MustNotBeBelowTheMedian) {
  EXPECT_EQ(errors_of(with_search_latency({{"median", "200ms"}, {"p99", "100ms"}})),
            only("/providers/search/latency/p99", "expected a duration >= median (200ms), got \"100ms\""));
}

TEST(ScenarioLatencyTest, MedianMustBePositive) {
  EXPECT_EQ(errors_of(with_search_latency({{"median", "0s"}, {"p99", "1s"}})),
            only("/providers/search/latency/median", "expected a duration > 0, got \"0s\""));
}

TEST(ScenarioLatencyTest, ParametersOfAnotherDistributionAreErrors) {
  EXPECT_EQ(errors_of(with_search_latency({{"median", "200ms"}, {"p99", "1s"}, {"mean", "300ms"}})),
            only("/providers/search/latency/mean",
                 "\"mean\" is a parameter of the exponential distribution; lognormal takes median and p99"));
}

TEST(ScenarioLatencyTest, ExponentialNeedsItsMean) {
  EXPECT_EQ(errors_of(with_search_latency({{"distribution", "exponential"}})),
            only("/providers/search/latency", "missing required key \"mean\""));
}

TEST(ScenarioLatencyTest, ConstantTakesOnlyItsValue) {
  EXPECT_EQ(errors_of(with_search_latency({{"distribution", "constant"}, {"value", "1s"}, {"median", "1s"}})),
            only("/providers/search/latency/median",
                 "\"median\" is a parameter of the lognormal distribution; constant takes value"));
}

TEST(ScenarioLatencyTest, TimeToFirstTokenIsALatency) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/time_to_first_token", "500ms")),
            only("/providers/gpt/time_to_first_token", "expected an object, got \"500ms\""));
}

TEST(ScenarioFaultsTest, FaultsMustBeAnArray) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/search/faults", Json::object())),
            only("/providers/search/faults", "expected an array, got {}"));
}

TEST(ScenarioFaultsTest, KindIsRequired) {
  EXPECT_EQ(errors_of(with_fault({{"probability", 0.5}})), only(kFault, "missing required key \"kind\""));
}

TEST(ScenarioFaultsTest, KindMustBeKnown) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "slow"}, {"probability", 0.5}})),
            only(at(kFault, "/kind"),
                 "expected one of \"timeout\", \"rate_limited\", \"overloaded\", \"server_error\", \"empty\", "
                 "\"index_not_ready\", \"client_error\", \"throttled_empty\", \"latency_spike\", \"brownout\", "
                 "\"masked_error\", \"stream_cut\", got \"slow\""));
}

TEST(ScenarioFaultsTest, ProbabilityIsRequired) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "timeout"}})), only(kFault, "missing required key \"probability\""));
}

TEST(ScenarioFaultsTest, ProbabilityMustBeAtMostOne) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "timeout"}, {"probability", 1.5}})),
            only(at(kFault, "/probability"), "expected a number in [0, 1], got 1.5"));
}

TEST(ScenarioFaultsTest, WindowMustEndAfterItStarts) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "timeout"}, {"probability", 1}, {"from", "5m"}, {"to", "1m"}})),
            only(at(kFault, "/to"), "expected a time after from (5m), got \"1m\""));
}

TEST(ScenarioFaultsTest, WindowEndAloneMustBeAfterTheStartOfTheRun) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "timeout"}, {"probability", 1}, {"to", "0s"}})),
            only(at(kFault, "/to"), "expected a time after from (0s), got \"0s\""));
}

TEST(ScenarioFaultsTest, WindowMustOpenBeforeTheRunEnds) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "timeout"}, {"probability", 1}, {"from", "10m"}})),
            only(at(kFault, "/from"), "expected a time before the end of the run (duration 10m), got \"10m\""));
}

TEST(ScenarioFaultsTest, FirstCallCountsFromOne) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "timeout"}, {"probability", 1}, {"first_call", 0}})),
            only(at(kFault, "/first_call"), "expected an integer in [1, 9223372036854775807], got 0"));
}

TEST(ScenarioFaultsTest, LastCallStatesItsUpperBound) {
  // 2^63, one more than the largest int64: the message says the value is too large, not
  // that it should be >= 1.
  EXPECT_EQ(errors_of(with_fault({{"kind", "timeout"}, {"probability", 1}, {"last_call", 9223372036854775808ULL}})),
            only(at(kFault, "/last_call"), "expected an integer in [1, 9223372036854775807], got 9223372036854775808"));
}

TEST(ScenarioFaultsTest, IntegralDoublesWithinTheRangeAreIntegers) {
  // 1e18 is an integer in JSON Schema's sense, and an exact int64.
  EXPECT_EQ(errors_of(with_fault({{"kind", "timeout"}, {"probability", 1}, {"last_call", 1e18}})),
            std::vector<ValidationError>{});
  EXPECT_EQ(errors_of(with_fault({{"kind", "timeout"}, {"probability", 1}, {"last_call", 1e19}})),
            only(at(kFault, "/last_call"), "expected an integer in [1, 9223372036854775807], got 1e+19"));
}

TEST(ScenarioFaultsTest, LastCallMustNotPrecedeFirstCall) {
  EXPECT_EQ(
      errors_of(with_fault({{"kind", "timeout"}, {"probability", 1}, {"first_call", 5}, {"last_call", 3}})),
      only(at(kFault, "/last_call"), "expected an integer in [5, 9223372036854775807] (at least first_call), got 3"));
}

TEST(ScenarioFaultsTest, RetryAfterAppliesOnlyToRateLimited) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "server_error"}, {"probability", 1}, {"retry_after", "2s"}})),
            only(at(kFault, "/retry_after"),
                 "applies only to kind \"rate_limited\" and \"overloaded\", not \"server_error\""));
}

TEST(ScenarioFaultsTest, RetryAfterHeaderAppliesOnlyToRateLimited) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "empty"}, {"probability", 1}, {"retry_after_header", "2"}})),
            only(at(kFault, "/retry_after_header"),
                 "applies only to kind \"rate_limited\" and \"overloaded\", not \"empty\""));
}

TEST(ScenarioFaultsTest, RetryAfterMustBeADuration) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "rate_limited"}, {"probability", 1}, {"retry_after", 20}})),
            only(at(kFault, "/retry_after"), "expected a duration string such as \"250ms\", got 20"));
}

TEST(ScenarioFaultsTest, RetryAfterAndItsRawHeaderAreExclusive) {
  EXPECT_EQ(errors_of(with_fault(
                {{"kind", "rate_limited"}, {"probability", 1}, {"retry_after", "2s"}, {"retry_after_header", "2"}})),
            only(at(kFault, "/retry_after_header"), "retry_after and retry_after_header are mutually exclusive"));
}

TEST(ScenarioFaultsTest, RetryAfterHeaderMustBeAString) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "rate_limited"}, {"probability", 1}, {"retry_after_header", 2}})),
            only(at(kFault, "/retry_after_header"), "expected a string, got 2"));
}

TEST(ScenarioFaultsTest, StatusAppliesOnlyToOverloadedAndServerError) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "timeout"}, {"probability", 1}, {"status", 504}})),
            only(at(kFault, "/status"),
                 "applies only to kind \"overloaded\", \"server_error\", \"client_error\" and \"stream_cut\", not "
                 "\"timeout\""));
}

TEST(ScenarioFaultsTest, OverloadedStatusIs503Or529) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "overloaded"}, {"probability", 1}, {"status", 500}})),
            only(at(kFault, "/status"), "expected 503 or 529, got 500"));
}

TEST(ScenarioFaultsTest, ServerErrorStatusIsA5xxOtherThan503) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "server_error"}, {"probability", 1}, {"status", 503}})),
            only(at(kFault, "/status"),
                 "expected an integer in [500, 599] other than 503 (503 is kind \"overloaded\"), got 503"));
}

TEST(ScenarioFaultsTest, FaultLatencyIsALatency) {
  EXPECT_EQ(
      errors_of(with_fault({{"kind", "timeout"}, {"probability", 1}, {"latency", {{"distribution", "constant"}}}})),
      only(at(kFault, "/latency"), "missing required key \"value\""));
}

// Faults with the base scenario's search fault replaced by `faults`.
Json with_faults(const Json& faults) { return with(base_scenario(), "/providers/search/faults", faults); }

constexpr const char* kOverlap =
    "expected the probabilities of faults active at the same time to sum to at most 1, got ";

TEST(ScenarioFaultOverlapTest, RulesActiveTogetherMustSumToAtMostOne) {
  // Today's silent shrink: 0.7 then 0.6 would give the second rule 0.3.
  EXPECT_EQ(errors_of(with_faults(Json::array({{{"kind", "overloaded"}, {"status", 529}, {"probability", 0.7}},
                                               {{"kind", "server_error"}, {"probability", 0.6}}}))),
            only("/providers/search/faults", std::string(kOverlap) +
                                                 "1.3: /providers/search/faults/0 (0.7) and /providers/search/faults/1 "
                                                 "(0.6) overlap from 0s to the end of the run"));
}

TEST(ScenarioFaultOverlapTest, DisjointWindowsOrCallRangesDoNotOverlap) {
  EXPECT_EQ(
      errors_of(with_faults(Json::array(
          {{{"kind", "timeout"}, {"probability", 0.9}, {"to", "2m"}},
           {{"kind", "timeout"}, {"probability", 0.9}, {"from", "2m"}, {"to", "5m"}},
           {{"kind", "empty"}, {"probability", 1}, {"from", "5m"}, {"to", "6m"}, {"first_call", 1}, {"last_call", 10}},
           {{"kind", "empty"}, {"probability", 0.1}, {"first_call", 11}}}))),
      std::vector<ValidationError>{});
}

TEST(ScenarioFaultOverlapTest, DecimalSumsOfOneAreAccepted) {
  // 0.1 + 0.2 + 0.7 is 1.0000000000000002 in binary floating point.
  EXPECT_EQ(errors_of(with_faults(Json::array({{{"kind", "timeout"}, {"probability", 0.1}},
                                               {{"kind", "empty"}, {"probability", 0.2}},
                                               {{"kind", "server_error"}, {"probability", 0.7}}}))),
            std::vector<ValidationError>{});
}

TEST(ScenarioFaultOverlapTest, OnlyRulesActiveAtTheSameTimeCount) {
  // Three rules overlapping pairwise in different windows, each pair at 1.0: valid.
  const Json pairwise = Json::array({{{"kind", "timeout"}, {"probability", 0.5}, {"to", "2m"}},
                                     {{"kind", "empty"}, {"probability", 0.5}, {"from", "1m"}, {"to", "4m"}},
                                     {{"kind", "server_error"}, {"probability", 0.5}, {"from", "3m"}}});
  EXPECT_EQ(errors_of(with_faults(pairwise)), std::vector<ValidationError>{});
  // The third rule at 0.6 exceeds 1 with the second only, from 3m to 4m, calls 5 to 9.
  Json over = pairwise;
  over[2]["probability"] = 0.6;
  over[2]["first_call"] = 5;
  over[2]["last_call"] = 9;
  EXPECT_EQ(errors_of(with_faults(over)),
            only("/providers/search/faults", std::string(kOverlap) +
                                                 "1.1: /providers/search/faults/1 (0.5) and /providers/search/faults/2 "
                                                 "(0.6) overlap from 3m to 4m, calls 5 to 9"));
}

TEST(ScenarioFaultOverlapTest, EachSetActiveTogetherIsReportedOnce) {
  // a (whole run) with b (first minute) and with c (calls from 3): {a, b} for calls 1-2,
  // {a, b, c} from call 3 in the first minute, {a, c} after it.
  EXPECT_EQ(errors_of(with_faults(Json::array({{{"kind", "timeout"}, {"probability", 0.6}},
                                               {{"kind", "empty"}, {"probability", 0.5}, {"to", "1m"}},
                                               {{"kind", "server_error"}, {"probability", 0.5}, {"first_call", 3}}}))),
            (std::vector<ValidationError>{
                {test::kBaseFile, "/providers/search/faults",
                 std::string(kOverlap) + "1.1: /providers/search/faults/0 (0.6) and /providers/search/faults/1 "
                                         "(0.5) overlap from 0s to 1m"},
                {test::kBaseFile, "/providers/search/faults",
                 std::string(kOverlap) + "1.6: /providers/search/faults/0 (0.6), /providers/search/faults/1 (0.5) "
                                         "and /providers/search/faults/2 (0.5) overlap from 0s to 1m, calls 3 onwards"},
                {test::kBaseFile, "/providers/search/faults",
                 std::string(kOverlap) + "1.1: /providers/search/faults/0 (0.6) and /providers/search/faults/2 "
                                         "(0.5) overlap from 0s to the end of the run, calls 3 onwards"},
            }));
}

TEST(ScenarioFaultOverlapTest, FlappingRulesCountOnlyInTheirOnWindows) {
  // Two rules at 0.8 flapping with a 2-minute period and a 50% duty cycle, the second
  // starting a minute later: one is on while the other is off, so they never meet.
  const Json out_of_phase =
      Json::array({{{"kind", "timeout"}, {"probability", 0.8}, {"period", "2m"}, {"duty_cycle", 0.5}},
                   {{"kind", "empty"}, {"probability", 0.8}, {"from", "1m"}, {"period", "2m"}, {"duty_cycle", 0.5}}});
  EXPECT_EQ(errors_of(with_faults(out_of_phase)), std::vector<ValidationError>{});
  // A plain window inside the flapping rule's off-time does not meet it either.
  EXPECT_EQ(errors_of(with_faults(
                Json::array({{{"kind", "timeout"}, {"probability", 0.8}, {"period", "2m"}, {"duty_cycle", 0.5}},
                             {{"kind", "empty"}, {"probability", 0.8}, {"from", "1m"}, {"to", "2m"}}}))),
            std::vector<ValidationError>{});
}

TEST(ScenarioFaultOverlapTest, FlappingRulesThatMeetAreReportedWhereTheyFirstDo) {
  // On [0, 1m), [2m, 3m), ... and, from 1m, on [1m, 2m30s), [4m, 5m30s), ...: they first
  // meet at 2m (and every 6 minutes after, the least common multiple of the periods).
  EXPECT_EQ(errors_of(with_faults(Json::array(
                {{{"kind", "timeout"}, {"probability", 0.8}, {"period", "2m"}, {"duty_cycle", 0.5}},
                 {{"kind", "empty"}, {"probability", 0.8}, {"period", "3m"}, {"duty_cycle", 0.5}, {"from", "1m"}}}))),
            only("/providers/search/faults",
                 std::string(kOverlap) + "1.6: /providers/search/faults/0 (0.8) and /providers/search/faults/1 "
                                         "(0.8) overlap from 1m to the end of the run, in their flapping on-windows "
                                         "(first together at 2m)"));
}

}  // namespace
}  // namespace squall

// One bad-input test per rule of a provider's `capacity` block
// (sim/scenario/capacity_reader.hpp), and what a valid block loads as.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

using test::base_scenario;
using test::errors_of;
using test::only;
using test::with;

constexpr const char* kSearch = "/providers/search/capacity";
constexpr const char* kGpt = "/providers/gpt/capacity";

Json with_capacity(const char* at, const Json& capacity) { return with(base_scenario(), at, capacity); }

TEST(ScenarioCapacityTest, AValidBlockLoadsWithItsDefaults) {
  const Json doc = with_capacity(kGpt, Json::parse(R"({
      "max_concurrency": 8, "tokens_per_minute": 40000,
      "drops": [ { "from": "5m", "to": "6m", "max_concurrency": 2 },
                 { "from": "1m", "to": "2m", "requests_per_minute": 30 } ] })"));
  auto loaded = load_scenario_text(doc.dump(), test::kBaseFile);
  ASSERT_EQ(loaded.errors, std::vector<ValidationError>{});
  ASSERT_TRUE(loaded.scenario.has_value());
  const auto& scenario = loaded.scenario;
  const auto gpt = std::find_if(scenario->providers.begin(), scenario->providers.end(),
                                [](const ProviderConfig& p) { return p.name == "gpt"; });
  ASSERT_TRUE(gpt->capacity.has_value());
  const CapacityConfig& c = *gpt->capacity;
  EXPECT_EQ(c.limits.max_concurrency, 8);
  EXPECT_EQ(c.limits.tokens_per_minute, 40000);
  EXPECT_FALSE(c.limits.requests_per_minute.has_value());
  EXPECT_EQ(c.queue_size, 1024);
  EXPECT_EQ(c.queue_timeout, 15 * kSecond);
  EXPECT_EQ(c.reject_status, 503);
  ASSERT_EQ(c.drops.size(), 2U);
  EXPECT_EQ(c.drops[0].from, kMinute);  // sorted by from
  EXPECT_EQ(c.drops[0].limits.requests_per_minute, 30);
  EXPECT_EQ(c.drops[1].to, 6 * kMinute);
}

TEST(ScenarioCapacityTest, UnknownKeyIsAnError) {
  EXPECT_EQ(errors_of(with_capacity(kSearch, {{"max_concurrency", 2}, {"slots", 2}})),
            only("/providers/search/capacity/slots",
                 "unknown key \"slots\"; expected one of: max_concurrency, requests_per_minute, tokens_per_minute, "
                 "queue_size, queue_timeout, reject_status, drops"));
}

TEST(ScenarioCapacityTest, UnknownKeyInADropIsAnError) {
  EXPECT_EQ(errors_of(with_capacity(kSearch, Json::parse(R"({"drops": [
                {"from": "1m", "to": "2m", "max_concurrency": 1, "queue_size": 3}]})"))),
            only("/providers/search/capacity/drops/0/queue_size",
                 "unknown key \"queue_size\"; expected one of: from, to, max_concurrency, requests_per_minute, "
                 "tokens_per_minute"));
}

TEST(ScenarioCapacityTest, ABlockWithoutLimitsOrDropsIsAnError) {
  EXPECT_EQ(errors_of(with_capacity(kSearch, {{"queue_size", 10}})),
            only(kSearch,
                 "expected at least one of max_concurrency, requests_per_minute or tokens_per_minute, or "
                 "drops"));
}

TEST(ScenarioCapacityTest, AnEmptyDropsListIsAnError) {
  // `"drops": []` sets nothing, like `{}`, which is an error too.
  EXPECT_EQ(errors_of(with_capacity(kSearch, Json::parse(R"({"drops": []})"))),
            only("/providers/search/capacity/drops", "expected a non-empty array, got []"));
}

TEST(ScenarioCapacityTest, ADropWithoutLimitsIsAnError) {
  EXPECT_EQ(errors_of(with_capacity(kSearch, Json::parse(R"({"drops": [{"from": "1m", "to": "2m"}]})"))),
            only("/providers/search/capacity/drops/0",
                 "expected at least one of max_concurrency, requests_per_minute or tokens_per_minute in a drop"));
}

TEST(ScenarioCapacityTest, MaxConcurrencyMustBePositive) {
  EXPECT_EQ(errors_of(with_capacity(kSearch, {{"max_concurrency", 0}})),
            only("/providers/search/capacity/max_concurrency", "expected an integer in [1, 1000000], got 0"));
}

TEST(ScenarioCapacityTest, ARateOfZeroIsAnError) {
  EXPECT_EQ(errors_of(with_capacity(kSearch, {{"requests_per_minute", 0}})),
            only("/providers/search/capacity/requests_per_minute", "expected an integer in [1, 100000000], got 0"));
}

TEST(ScenarioCapacityTest, ATokenRateOfZeroIsAnError) {
  EXPECT_EQ(errors_of(with_capacity(kGpt, {{"tokens_per_minute", 0}})),
            only("/providers/gpt/capacity/tokens_per_minute", "expected an integer in [1, 100000000], got 0"));
}

TEST(ScenarioCapacityTest, TokensPerMinuteAppliesToLlmProvidersOnly) {
  EXPECT_EQ(errors_of(with_capacity(kSearch, {{"tokens_per_minute", 1000}})),
            only("/providers/search/capacity/tokens_per_minute",
                 "applies only to llm providers (only their requests carry tokens); \"search\" is a web_search "
                 "provider"));
}

TEST(ScenarioCapacityTest, QueueSizeMustNotBeNegative) {
  EXPECT_EQ(errors_of(with_capacity(kSearch, {{"max_concurrency", 2}, {"queue_size", -1}})),
            only("/providers/search/capacity/queue_size", "expected an integer in [0, 1000000], got -1"));
}

TEST(ScenarioCapacityTest, QueueTimeoutMustBePositive) {
  const auto errors = errors_of(with_capacity(kSearch, {{"max_concurrency", 2}, {"queue_timeout", "0s"}}));
  ASSERT_EQ(errors.size(), 1U);
  EXPECT_EQ(errors[0].path, "/providers/search/capacity/queue_timeout");
}

TEST(ScenarioCapacityTest, RejectStatusMustBeAnOverloadStatus) {
  EXPECT_EQ(errors_of(with_capacity(kSearch, {{"max_concurrency", 2}, {"reject_status", 500}})),
            only("/providers/search/capacity/reject_status", "expected 429, 503 or 529, got 500"));
}

TEST(ScenarioCapacityTest, AnInvertedDropWindowIsAnError) {
  EXPECT_EQ(errors_of(with_capacity(kSearch, Json::parse(R"({"drops": [
                {"from": "2m", "to": "1m", "max_concurrency": 1}]})"))),
            only("/providers/search/capacity/drops/0/to", "expected a time after from (2m), got \"1m\""));
}

TEST(ScenarioCapacityTest, ADropNeedsBothEdges) {
  EXPECT_EQ(errors_of(with_capacity(kSearch, Json::parse(R"({"drops": [{"from": "2m", "max_concurrency": 1}]})"))),
            only("/providers/search/capacity/drops/0", "missing required key \"to\""));
}

TEST(ScenarioCapacityTest, ADropAfterTheRunIsAnError) {
  EXPECT_EQ(errors_of(with_capacity(kSearch, Json::parse(R"({"drops": [
                {"from": "10m", "to": "11m", "max_concurrency": 1}]})"))),
            only("/providers/search/capacity/drops/0/from",
                 "expected a time before the end of the run (duration 10m), got \"10m\""));
}

TEST(ScenarioCapacityTest, OverlappingDropsAreAnError) {
  EXPECT_EQ(errors_of(with_capacity(kSearch, Json::parse(R"({"drops": [
                {"from": "1m", "to": "3m", "max_concurrency": 1},
                {"from": "2m", "to": "4m", "max_concurrency": 2}]})"))),
            only("/providers/search/capacity/drops/1/from", "overlaps drop 0 ([1m, 3m)); drops must not overlap"));
}

TEST(ScenarioCapacityTest, ADropOverlappingSeveralNamesTheOneListedFirst) {
  // Drop 2 overlaps drops 1 (listed later, starting earlier) and 0: the error names drop 0;
  // drop 3 touches drop 0's end and overlaps nothing.
  EXPECT_EQ(errors_of(with_capacity(kSearch, Json::parse(R"({"drops": [
                {"from": "5m", "to": "6m", "max_concurrency": 1},
                {"from": "1m", "to": "3m", "max_concurrency": 1},
                {"from": "2m", "to": "5m30s", "max_concurrency": 2},
                {"from": "6m", "to": "7m", "max_concurrency": 2}]})"))),
            only("/providers/search/capacity/drops/2/from", "overlaps drop 0 ([5m, 6m)); drops must not overlap"));
}

TEST(ScenarioCapacityTest, ADropThatRaisesALimitIsAnError) {
  EXPECT_EQ(errors_of(with_capacity(kSearch, Json::parse(R"({"max_concurrency": 4, "requests_per_minute": 600,
                "drops": [ {"from": "1m", "to": "2m", "max_concurrency": 8, "requests_per_minute": 600} ]})"))),
            only("/providers/search/capacity/drops/0/max_concurrency",
                 "expected at most the base max_concurrency (4) in a drop, got 8: a drop lowers limits, and a raise "
                 "is not a capacity drop"));
}

TEST(ScenarioCapacityTest, ADropMaySetALimitTheBaseLeavesOpen) {
  // No base limit is no limit at all: any value lowers it.
  EXPECT_EQ(errors_of(with_capacity(kSearch, Json::parse(R"({"max_concurrency": 4,
                "drops": [ {"from": "1m", "to": "2m", "requests_per_minute": 60} ]})"))),
            std::vector<ValidationError>{});
}

TEST(ScenarioCapacityTest, ATokenLimitBelowOneRequestIsAnError) {
  // The base step sends gpt 100 prompt tokens; with 400 output tokens asked for, a request
  // takes 500 from the bucket, which never holds more than 300.
  Json doc = with_capacity(kGpt, {{"tokens_per_minute", 300}});
  doc["workload"]["tasks"][0]["steps"][1]["max_output_tokens"] = 400;
  EXPECT_EQ(errors_of(doc), only("/providers/gpt/capacity/tokens_per_minute",
                                 "expected at least the tokens of one request of /workload/tasks/0/steps/1 "
                                 "(prompt_tokens + max_output_tokens = 500), got 300: that request could never be "
                                 "admitted"));
  doc["providers"]["gpt"]["capacity"]["tokens_per_minute"] = 500;
  EXPECT_EQ(errors_of(doc), std::vector<ValidationError>{});
}

TEST(ScenarioCapacityTest, AThresholdOnACapacityMetricOfAProviderWithoutCapacityIsAnError) {
  const Json doc = with(with_capacity(kSearch, {{"max_concurrency", 4}}), "/thresholds",
                        Json::parse(R"({"capacity_goodput{provider:gpt}": ["count>0"]})"));
  EXPECT_EQ(errors_of(doc),
            only("/thresholds/capacity_goodput{provider:gpt}",
                 "provider \"gpt\" has no capacity block, so capacity_goodput observes nothing for it"));
}

TEST(ScenarioCapacityTest, AThresholdOnACapacityMetricWithoutAnyCapacityIsAnError) {
  const Json doc = with(base_scenario(), "/thresholds", Json::parse(R"({"capacity_rejected": ["count==0"]})"));
  EXPECT_EQ(errors_of(doc), only("/thresholds/capacity_rejected",
                                 "no provider has a capacity block, so capacity_rejected observes nothing"));
}

TEST(ScenarioCapacityTest, ARecoveryThresholdNeedsDrops) {
  const Json capped = with_capacity(kSearch, {{"max_concurrency", 4}});
  EXPECT_EQ(
      errors_of(with(capped, "/thresholds", Json::parse(R"({"capacity_recovery_time{provider:search}": ["max<1m"]})"))),
      only("/thresholds/capacity_recovery_time{provider:search}",
           "provider \"search\" has no capacity drops, so capacity_recovery_time observes nothing for it"));
  EXPECT_EQ(errors_of(with(capped, "/thresholds", Json::parse(R"({"capacity_recovery_time": ["max<1m"]})"))),
            only("/thresholds/capacity_recovery_time",
                 "no provider has capacity drops, so capacity_recovery_time observes nothing"));
}

TEST(ScenarioCapacityTest, ARecoveryThresholdNeedsADropThatEndsWithinTheRun) {
  const Json doc = with(with_capacity(kSearch, Json::parse(R"({"max_concurrency": 4,
                            "drops": [ {"from": "8m", "to": "12m", "max_concurrency": 1} ]})")),
                        "/thresholds", Json::parse(R"({"capacity_recovery_time": ["max<1m"]})"));
  EXPECT_EQ(errors_of(doc), only("/thresholds/capacity_recovery_time",
                                 "the last capacity drop of provider \"search\" ends at 12m, not before the end of the "
                                 "run (duration 10m): recovery is measured from a drop's end, so "
                                 "capacity_recovery_time would observe only \"not recovered\""));
}

TEST(ScenarioCapacityTest, ARecoveryThresholdNeedsAWholeWindowBeforeTheFirstDrop) {
  // Recovery is judged against the goodput before the trigger (reports/capacity_recovery.hpp);
  // a drop from 5 s leaves no whole 10 s window to measure it in.
  Json doc = with(with_capacity(kSearch, Json::parse(R"({"max_concurrency": 4,
                      "drops": [ {"from": "5s", "to": "1m", "max_concurrency": 1} ]})")),
                  "/thresholds", Json::parse(R"({"capacity_recovery_time{provider:search}": ["max<1m"]})"));
  EXPECT_EQ(errors_of(doc), only("/thresholds/capacity_recovery_time{provider:search}",
                                 "the first capacity drop of provider \"search\" starts at 5s, before the end of the "
                                 "first report window (10s): recovery is judged against the goodput of the whole "
                                 "windows before the first drop, so capacity_recovery_time would observe nothing"));
  doc["providers"]["search"]["capacity"]["drops"][0]["from"] = "10s";
  EXPECT_EQ(errors_of(doc), std::vector<ValidationError>{});
}

}  // namespace
}  // namespace squall

namespace squall {
namespace {

// Settings that can never act: requests queue only for a slot, the queue's status is
// reject_status, and a queue_timeout bounds a wait that a queue of 0 rules out.
TEST(ScenarioCapacityDeadSettingsTest, QueueSettingsWithoutMaxConcurrencyAreRefused) {
  for (const char* key : {"queue_size", "queue_timeout"}) {
    SCOPED_TRACE(key);
    const Json value = std::string(key) == "queue_size" ? Json(8) : Json("5s");
    EXPECT_EQ(
        errors_of(with_capacity(kSearch, {{"requests_per_minute", 60}, {key, value}})),
        only(std::string(kSearch) + "/" + key, "applies only with max_concurrency: requests queue only for a slot"));
  }
  EXPECT_EQ(errors_of(with_capacity(kSearch, {{"requests_per_minute", 60}, {"reject_status", 529}})),
            only(std::string(kSearch) + "/reject_status",
                 "applies only with max_concurrency: it is the status of the slots' queue (rate limits answer 429)"));
}

TEST(ScenarioCapacityDeadSettingsTest, AQueueTimeoutWithNoQueueIsRefused) {
  EXPECT_EQ(errors_of(with_capacity(kSearch, {{"max_concurrency", 2}, {"queue_size", 0}, {"queue_timeout", "5s"}})),
            only(std::string(kSearch) + "/queue_timeout", "applies only when queue_size > 0"));
}

TEST(ScenarioCapacityDeadSettingsTest, SlotsInADropAloneMakeTheQueueLive) {
  const Json doc = with_capacity(kSearch, Json::parse(R"({ "requests_per_minute": 600, "queue_size": 4,
      "queue_timeout": "2s", "reject_status": 529,
      "drops": [ { "from": "1m", "to": "2m", "max_concurrency": 1 } ] })"));
  EXPECT_EQ(errors_of(doc), std::vector<ValidationError>{});
  EXPECT_EQ(errors_of(with_capacity(kSearch, {{"max_concurrency", 2}, {"queue_size", 0}})),
            std::vector<ValidationError>{});
}

}  // namespace
}  // namespace squall

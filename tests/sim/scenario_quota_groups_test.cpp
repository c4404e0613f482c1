// The `quota_groups` block: each rule's exact message, and what a valid group sets.
#include <gtest/gtest.h>

#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

using test::base_scenario;
using test::errors_of;
using test::kBaseFile;
using test::only;
using test::with;

Json group(Json providers, Json extra = Json{{"requests_per_minute", 100}}) {
  Json g{{"name", "org-key"}, {"providers", std::move(providers)}};
  g.update(extra);
  return g;
}
Json with_groups(Json groups) { return with(base_scenario(), "/quota_groups", std::move(groups)); }

TEST(ScenarioQuotaGroupsTest, AGroupNamesItsMembersAndKeepsItsLimits) {
  const LoadResult loaded = load_scenario_text(
      with_groups(Json::array({group({"search", "gpt"}, {{"requests_per_minute", 100}, {"tokens_per_minute", 5000}})}))
          .dump(),
      kBaseFile);
  ASSERT_EQ(loaded.errors, std::vector<ValidationError>{});
  ASSERT_EQ(loaded.scenario->quota_groups.size(), 1U);
  const QuotaGroupConfig& g = loaded.scenario->quota_groups[0];
  EXPECT_EQ(g.name, "org-key");
  EXPECT_EQ(g.providers, (std::vector<std::string>{"search", "gpt"}));
  EXPECT_EQ(g.requests_per_minute, 100);
  EXPECT_EQ(g.tokens_per_minute, 5000);
  for (const ProviderConfig& p : loaded.scenario->providers) EXPECT_EQ(p.quota_group, "org-key") << p.name;
  EXPECT_EQ(describe(loaded.scenario->providers[0]).quota_group, "org-key");
}

TEST(ScenarioQuotaGroupsTest, AGroupNeedsALimit) {
  EXPECT_EQ(errors_of(with_groups(Json::array({group({"gpt"}, Json::object())}))),
            only("/quota_groups/0",
                 "expected requests_per_minute or tokens_per_minute: a quota group is a shared rate limit"));
}

TEST(ScenarioQuotaGroupsTest, ATokenLimitNeedsAnLlmMember) {
  EXPECT_EQ(errors_of(with_groups(Json::array({group({"search"}, {{"tokens_per_minute", 1000}})}))),
            only("/quota_groups/0/tokens_per_minute",
                 "applies only to a group with an llm provider (only LLM requests carry tokens)"));
}

TEST(ScenarioQuotaGroupsTest, ATokenLimitMustHoldOneRequest) {
  // base_scenario's gpt step asks for 100 prompt tokens and the model's 16,384 output cap.
  Json doc = with_groups(Json::array({group({"gpt"}, {{"tokens_per_minute", 50}})}));
  doc["workload"]["tasks"][0]["steps"][1]["max_output_tokens"] = 100;
  EXPECT_EQ(errors_of(doc), only("/quota_groups/0/tokens_per_minute",
                                 "expected at least the tokens of one request of /workload/tasks/0/steps/1 "
                                 "(prompt_tokens + max_output_tokens = 200), got 50: that request could never be "
                                 "admitted"));
}

TEST(ScenarioQuotaGroupsTest, RejectedRequestsCountNeedsARequestLimitWhateverItsValue) {
  for (const bool value : {true, false}) {
    EXPECT_EQ(errors_of(with_groups(
                  Json::array({group({"gpt"}, {{"tokens_per_minute", 100000}, {"rejected_requests_count", value}})}))),
              only("/quota_groups/0/rejected_requests_count", "applies only with requests_per_minute"));
  }
}

TEST(ScenarioQuotaGroupsTest, RejectedRequestsCountIsABoolean) {
  EXPECT_EQ(errors_of(with_groups(
                Json::array({group({"gpt"}, {{"requests_per_minute", 100}, {"rejected_requests_count", "yes"}})}))),
            only("/quota_groups/0/rejected_requests_count", "expected true or false, got \"yes\""));
}

TEST(ScenarioQuotaGroupsTest, AProviderIsInOneGroup) {
  Json second = group({"gpt"});
  second["name"] = "other-key";
  EXPECT_EQ(errors_of(with_groups(Json::array({group({"gpt"}), second}))),
            only("/quota_groups/1/providers/0",
                 "\"gpt\" is already in quota group \"org-key\"; a provider shares one key's limits"));
}

TEST(ScenarioQuotaGroupsTest, NamesAreDistinct) {
  EXPECT_EQ(errors_of(with_groups(Json::array({group({"gpt"}), group({"search"})}))),
            only("/quota_groups/1/name", "duplicate quota group name \"org-key\""));
}

TEST(ScenarioQuotaGroupsTest, MembersMustExistOnce) {
  EXPECT_EQ(errors_of(with_groups(Json::array({group({"gpt", "claude"})}))),
            only("/quota_groups/0/providers/1", "no provider named \"claude\"; providers are: gpt, search"));
  EXPECT_EQ(errors_of(with_groups(Json::array({group({"gpt", "gpt"})}))),
            only("/quota_groups/0/providers/1", "duplicate \"gpt\""));
}

TEST(ScenarioQuotaGroupsTest, UnknownKeysAndBoundsAreReported) {
  const auto unknown = errors_of(with_groups(Json::array({group({"gpt"}, {{"rpm", 10}, {"requests_per_minute", 1}})})));
  ASSERT_EQ(unknown.size(), 1U);
  EXPECT_EQ(unknown[0].path, "/quota_groups/0/rpm");
  EXPECT_EQ(errors_of(with_groups(Json::array({group({"gpt"}, {{"requests_per_minute", 0}})}))).size(), 1U);
}

}  // namespace
}  // namespace squall

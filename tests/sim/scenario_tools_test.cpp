// The `tools` block and what refers to tools and providers once a scenario has one:
// steps name tools, policy keys name tools or provider stacks, threshold tags name the
// right kind of thing.
#include <gtest/gtest.h>

#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

using test::base_scenario;
using test::errors_of;
using test::only;
using test::with;

// base_scenario() with a tools block: `web` served by `search`, `answer` by `gpt`.
Json with_tools() {
  Json doc = base_scenario();
  doc["tools"] = Json::parse(R"({ "web": { "provider": "search" }, "answer": { "provider": "gpt" } })");
  doc["workload"]["tasks"][0]["steps"][0]["tool"] = "web";
  doc["workload"]["tasks"][0]["steps"][1]["tool"] = "answer";
  doc["policy"] = Json::parse(R"({ "web": [ { "retry": {} } ], "answer": [], "gpt": [ { "circuit_breaker": {} } ] })");
  return doc;
}

TEST(ScenarioToolsTest, AScenarioWithToolsLoads) { EXPECT_EQ(errors_of(with_tools()), std::vector<ValidationError>{}); }

TEST(ScenarioToolsTest, AToolNeedsANameOfItsOwn) {
  EXPECT_EQ(errors_of(with(with_tools(), "/tools/gpt", Json::parse(R"({ "provider": "gpt" })"))),
            only("/tools/gpt", "\"gpt\" is a provider; a tool needs a name of its own"));
}

TEST(ScenarioToolsTest, AToolNamesAProvider) {
  EXPECT_EQ(errors_of(with(with_tools(), "/tools/web/provider", "bing")),
            only("/tools/web/provider", "no provider named \"bing\"; providers are: gpt, search"));
}

TEST(ScenarioToolsTest, StepsNameTools) {
  EXPECT_EQ(errors_of(with(with_tools(), "/workload/tasks/0/steps/1/tool", "gpt")),
            only("/workload/tasks/0/steps/1/tool", "no tool named \"gpt\"; tools are: answer, web"));
}

TEST(ScenarioToolsTest, PolicyKeysNameToolsOrProviderStacks) {
  EXPECT_EQ(errors_of(with(with_tools(), "/policy/bing", Json::array())),
            only("/policy/bing", "no tool named \"bing\"; tools are: answer, web; nor is it a provider"));
}

TEST(ScenarioToolsTest, ProviderTagsNameProvidersOnly) {
  // A tool's name in a provider tag would select nothing, so the threshold could never fail.
  EXPECT_EQ(errors_of(with(with_tools(), "/thresholds/provider_calls{provider:web}", Json::array({"count<=0"}))),
            only("/thresholds/provider_calls{provider:web}", "no provider named \"web\"; providers are: gpt, search"));
  EXPECT_EQ(errors_of(with(with_tools(), "/thresholds/fallbacks{to:answer}", Json::array({"count<=0"}))),
            only("/thresholds/fallbacks{to:answer}", "no provider named \"answer\"; providers are: gpt, search"));
}

TEST(ScenarioToolsTest, ToolTagsNameToolsOnly) {
  EXPECT_EQ(errors_of(with(with_tools(), "/thresholds/fallbacks{tool:gpt}", Json::array({"count<=0"}))),
            only("/thresholds/fallbacks{tool:gpt}", "no tool named \"gpt\"; tools are: answer, web"));
  // A breaker's owner may be a provider stack.
  EXPECT_EQ(errors_of(with(with_tools(), "/thresholds/breaker_transitions{tool:gpt}", Json::array({"count<=9"}))),
            std::vector<ValidationError>{});
}

TEST(ScenarioToolsTest, FaultKindTagsAreTheChaosLayersKinds) {
  EXPECT_EQ(
      errors_of(with(base_scenario(), "/thresholds/injected_faults{kind:blah}", Json::array({"count<=2"}))),
      only("/thresholds/injected_faults{kind:blah}",
           "unknown value \"blah\" for tag \"kind\" of metric \"injected_faults\"; known: timeout, rate_limited, "
           "overloaded, server_error, empty, index_not_ready, client_error, throttled_empty, latency_spike, brownout, "
           "masked_error, stream_cut"));
}

// base_scenario() with a second llm provider and `answer`'s policy `items`.
Json with_answer_policy(Json items) {
  Json doc = with_tools();
  doc["providers"]["claude"] = Json::parse(R"({ "type": "llm" })");
  doc["policy"]["answer"] = std::move(items);
  return doc;
}

TEST(ScenarioFallbackTest, ProvidersMustExist) {
  EXPECT_EQ(
      errors_of(with_answer_policy(Json::parse(R"([ { "fallback": { "providers": ["opus"] } } ])"))),
      only("/policy/answer/0/fallback/providers/0", "no provider named \"opus\"; providers are: claude, gpt, search"));
}

TEST(ScenarioFallbackTest, CooldownKeysApplyOnlyWithACooldown) {
  EXPECT_EQ(errors_of(with_answer_policy(
                Json::parse(R"([ { "fallback": { "providers": ["claude"], "cooldown": "10s", "allowed_fails": 3,
                                                  "cooldown_on": ["rate_limited"], "max_cooldown": "1m" } } ])"))),
            std::vector<ValidationError>{});
  EXPECT_EQ(errors_of(with_answer_policy(
                Json::parse(R"([ { "fallback": { "providers": ["claude"], "allowed_fails": 3 } } ])"))),
            only("/policy/answer/0/fallback/allowed_fails", "applies only when cooldown is set"));
  EXPECT_EQ(errors_of(with_answer_policy(Json::parse(
                R"([ { "fallback": { "providers": ["claude"], "cooldown": "5s", "cooldown_from_retry_after": false,
                                      "max_cooldown": "1m" } } ])"))),
            only("/policy/answer/0/fallback/max_cooldown",
                 "applies only when cooldown is set and cooldown_from_retry_after is true"));
  EXPECT_EQ(errors_of(with_answer_policy(Json::parse(
                R"([ { "fallback": { "providers": ["claude"], "cooldown": "5s", "max_cooldown": "3s" } } ])"))),
            only("/policy/answer/0/fallback/max_cooldown", "expected a duration >= cooldown (5s), got \"3s\""));
  const auto local = errors_of(with_answer_policy(Json::parse(
      R"([ { "fallback": { "providers": ["claude"], "cooldown": "5s", "cooldown_on": ["circuit_open"] } } ])")));
  ASSERT_EQ(local.size(), 1U);
  EXPECT_EQ(local[0].path, "/policy/answer/0/fallback/cooldown_on/0");
}

TEST(ScenarioFallbackTest, CooldownValuesAreChecked) {
  const auto policy = [](Json keys) {
    Json fallback{{"providers", {"claude"}}};
    fallback.update(keys);
    return with_answer_policy(Json::array({Json{{"fallback", fallback}}}));
  };
  EXPECT_EQ(errors_of(policy({{"cooldown", "0s"}})),
            only("/policy/answer/0/fallback/cooldown", "expected a duration > 0, got \"0s\""));
  EXPECT_EQ(errors_of(policy({{"cooldown", "5s"}, {"cooldown_from_retry_after", "yes"}})),
            only("/policy/answer/0/fallback/cooldown_from_retry_after", "expected true or false, got \"yes\""));
  EXPECT_EQ(errors_of(policy({{"cooldown", "5s"}, {"allowed_fails", -1}})).size(), 1U);
  EXPECT_EQ(errors_of(policy({{"cooldown", "5s"}, {"cooldown_on", Json::array()}})).size(), 1U);
  EXPECT_EQ(errors_of(policy({{"cooldown", "5s"}, {"cooldown_on", {"rate_limited", "rate_limited"}}})).size(), 1U);
}

TEST(ScenarioFallbackTest, AChainCannotNameTheToolsOwnProvider) {
  // Naming the primary would make the chain call it twice: the one way a chain could loop.
  EXPECT_EQ(errors_of(with_answer_policy(Json::parse(R"([ { "fallback": { "providers": ["claude", "gpt"] } } ])"))),
            only("/policy/answer/0/fallback/providers/1",
                 "\"gpt\" is the tool's own provider; fallback lists the providers to try after it"));
}

TEST(ScenarioFallbackTest, ProvidersAreListedOnce) {
  EXPECT_EQ(errors_of(with_answer_policy(Json::parse(R"([ { "fallback": { "providers": ["claude", "claude"] } } ])"))),
            only("/policy/answer/0/fallback/providers/1",
                 "duplicate \"claude\" (also /policy/answer/0/fallback/providers/0)"));
}

TEST(ScenarioFallbackTest, ProvidersHaveTheToolsType) {
  EXPECT_EQ(errors_of(with_answer_policy(Json::parse(R"([ { "fallback": { "providers": ["search"] } } ])"))),
            only("/policy/answer/0/fallback/providers/0",
                 "\"search\" is a web_search provider; the tool's provider \"gpt\" is an llm provider"));
}

TEST(ScenarioFallbackTest, OnlyInAToolsPipeline) {
  Json doc = with_answer_policy(Json::array());
  doc["policy"]["gpt"] = Json::parse(R"([ { "fallback": { "providers": ["claude"] } } ])");
  EXPECT_EQ(errors_of(doc),
            only("/policy/gpt/0/fallback",
                 "fallback applies only to a tool's pipeline; \"gpt\" is a provider, whose stack serves "
                 "one provider"));
}

TEST(ScenarioFallbackTest, RoutingIsKnown) {
  EXPECT_EQ(errors_of(with_answer_policy(
                Json::parse(R"([ { "fallback": { "providers": ["claude"], "routing": "random" } } ])"))),
            only("/policy/answer/0/fallback/routing",
                 "expected one of \"in_order\", \"cheapest\", \"fastest\", got \"random\""));
}

TEST(ScenarioFallbackTest, CapabilitiesAreKnown) {
  EXPECT_EQ(errors_of(with(with_tools(), "/workload/tasks/0/steps/1/requires", Json::array({"telepathy"}))),
            only("/workload/tasks/0/steps/1/requires/0",
                 "expected one of \"json_mode\", \"tools\", \"vision\", \"streaming\", \"reasoning\", got "
                 "\"telepathy\""));
}

TEST(ScenarioFallbackTest, SdkRetryIsAPresetOrARetryObject) {
  EXPECT_EQ(errors_of(with(with_tools(), "/providers/gpt/sdk_retry", "OpenAI")),
            only("/providers/gpt/sdk_retry", "expected one of \"openai\", \"anthropic\", \"none\", got \"OpenAI\""));
  EXPECT_EQ(errors_of(with(with_tools(), "/providers/gpt/sdk_retry", 3)),
            only("/providers/gpt/sdk_retry", "expected \"openai\", \"anthropic\", \"none\" or a retry object, got 3"));
}

TEST(ScenarioToolsTest, AProviderStackThePolicyFileLeavesOutKeepsTheScenariosOwn) {
  LoadResult scenario = load_scenario_text(with_tools().dump(), test::kBaseFile);
  ASSERT_TRUE(scenario.ok());
  PolicyLoadResult policy = load_policy_text(R"({ "web": [], "answer": [] })", "p.json");
  ASSERT_TRUE(policy.ok());
  const PolicyMerge merge = merge_policy(*scenario.scenario, *policy.policy, "p.json");
  EXPECT_EQ(merge.errors, std::vector<ValidationError>{});
  EXPECT_EQ(merge.notes, std::vector<std::string>{"p.json: \"gpt\" not named in it: the scenario's own policy kept"});
  EXPECT_EQ(merge.policy.at("gpt").size(), scenario.scenario->policy.at("gpt").size());
  EXPECT_FALSE(merge.policy.at("gpt").empty());
}

TEST(ScenarioToolsTest, NewStepAndProviderKeysAreChecked) {
  EXPECT_EQ(errors_of(with(with_tools(), "/workload/tasks/0/steps/1/optional", "yes")),
            only("/workload/tasks/0/steps/1/optional", "expected true or false, got \"yes\""));
  EXPECT_EQ(errors_of(with(with_tools(), "/providers/gpt/idempotent", 1)),
            only("/providers/gpt/idempotent", "expected true or false, got 1"));
  EXPECT_EQ(errors_of(with(with_tools(), "/providers/gpt/capabilities", Json::array({"telepathy"}))),
            only("/providers/gpt/capabilities/0",
                 "expected one of \"json_mode\", \"tools\", \"vision\", \"streaming\", \"reasoning\", got "
                 "\"telepathy\""));
  EXPECT_EQ(errors_of(with(with_tools(), "/providers/gpt/max_output_tokens", 0)),
            only("/providers/gpt/max_output_tokens", "expected an integer in [1, 1000000000], got 0"));
}

TEST(ScenarioHedgingProvidersTest, AreReadInOrder) {
  LoadResult loaded = load_scenario_text(
      with_answer_policy(Json::parse(R"([ { "hedging": { "providers": ["claude", "gpt"] } } ])")).dump(),
      test::kBaseFile);
  ASSERT_EQ(loaded.errors, std::vector<ValidationError>{});
  const auto& c = std::get<HedgingConfig>(loaded.scenario->policy.at("answer").at(0));
  EXPECT_EQ(c.providers, (std::vector<std::string>{"claude", "gpt"}));
}

TEST(ScenarioHedgingProvidersTest, NameProviders) {
  EXPECT_EQ(
      errors_of(with_answer_policy(Json::parse(R"([ { "hedging": { "providers": ["claud"] } } ])"))),
      only("/policy/answer/0/hedging/providers/0", "no provider named \"claud\"; providers are: claude, gpt, search"));
}

TEST(ScenarioHedgingProvidersTest, AreDistinct) {
  EXPECT_EQ(
      errors_of(with_answer_policy(Json::parse(R"([ { "hedging": { "providers": ["claude", "claude"] } } ])"))),
      only("/policy/answer/0/hedging/providers/1", "duplicate \"claude\" (also /policy/answer/0/hedging/providers/0)"));
}

TEST(ScenarioHedgingProvidersTest, HaveTheToolsType) {
  EXPECT_EQ(errors_of(with_answer_policy(Json::parse(R"([ { "hedging": { "providers": ["search"] } } ])"))),
            only("/policy/answer/0/hedging/providers/0",
                 "\"search\" is a web_search provider; the tool's provider \"gpt\" is an llm provider"));
}

TEST(ScenarioHedgingProvidersTest, OnlyInAToolsPipeline) {
  Json doc = with_answer_policy(Json::array());
  doc["policy"]["gpt"] = Json::parse(R"([ { "hedging": { "providers": ["claude"] } } ])");
  EXPECT_EQ(errors_of(doc), only("/policy/gpt/0/hedging/providers",
                                 "applies only to a tool's pipeline; \"gpt\" is a provider, whose stack serves one "
                                 "provider"));
}

TEST(ScenarioToolsTest, BudgetIterationsAreBounded) {
  EXPECT_EQ(
      errors_of(with(with_tools(), "/policy/answer", Json::parse(R"([ { "budget": { "max_iterations": 0 } } ])"))),
      only("/policy/answer/0/budget/max_iterations", "expected an integer in [1, 1000], got 0"));
}

TEST(ScenarioLadderTest, RewriteQueryOnlyInAToolsPipeline) {
  // A provider's stack is built before the registry holds every provider, and serves one
  // provider: the rewrite belongs to the tool that searches.
  Json doc = with_tools();
  doc["policy"]["search"] = Json::parse(R"([ { "rewrite_query": { "provider": "gpt" } } ])");
  EXPECT_EQ(errors_of(doc), only("/policy/search/0/rewrite_query",
                                 "rewrite_query applies only to a tool's pipeline; \"search\" is a provider, whose "
                                 "stack serves one provider"));
}

TEST(ScenarioLadderTest, RelaxThresholdMayBeInAVectorSearchProvidersStack) {
  Json doc = with_tools();
  doc["providers"]["kb"] = Json::parse(R"({ "type": "vector_search", "corpus": "corpus.jsonl" })");
  doc["tools"]["docs"] = Json::parse(R"({ "provider": "kb" })");
  doc["workload"]["tasks"][0]["steps"][2] = Json::parse(R"({ "tool": "docs", "query_from": "companies" })");
  doc["policy"]["kb"] = Json::parse(R"([ { "relax_threshold": {} } ])");
  doc["policy"]["docs"] = Json::parse(R"([ { "rewrite_query": { "provider": "gpt" } } ])");
  EXPECT_EQ(errors_of(doc), std::vector<ValidationError>{});
}

}  // namespace
}  // namespace squall

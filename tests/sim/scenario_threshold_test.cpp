// The `thresholds` block: the loader checks shapes and prefixes reports/threshold.hpp's
// messages with the path.
#include <gtest/gtest.h>

#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

using test::base_scenario;
using test::errors_of;
using test::only;
using test::with;

TEST(ScenarioThresholdsTest, ThresholdsMustBeAnObject) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/thresholds", Json::array({"rate>=0.9"}))),
            only("/thresholds", "expected an object, got [\"rate>=0.9\"]"));
}

TEST(ScenarioThresholdsTest, UnknownMetricIsReportedAtItsKey) {
  const auto message = parse_metric("latency");
  ASSERT_TRUE(std::holds_alternative<std::string>(message));
  EXPECT_EQ(errors_of(with(base_scenario(), "/thresholds/latency", Json::array({"p(99)<1s"}))),
            only("/thresholds/latency", std::get<std::string>(message)));
}

TEST(ScenarioThresholdsTest, TimeThresholdNeedsAUnit) {
  // From the cases of a user who wrote "p(99)<25" and had it read as 25 ms.
  EXPECT_EQ(errors_of(with(base_scenario(), "/thresholds/task_latency", Json::array({"p(99)<25"}))),
            only("/thresholds/task_latency/0",
                 "expected a duration with a unit for time metric \"task_latency\", such as \"p(99)<25ms\", got "
                 "\"p(99)<25\""));
}

TEST(ScenarioThresholdsTest, ALadderRungNoLadderGivesIsRefused) {
  // Such a threshold counts nothing, so "count<5" could never fail.
  EXPECT_EQ(errors_of(with(base_scenario(), "/thresholds/ladder_rungs{strategy:relax_threshold,rung:dense 0.750}",
                           Json::array({"count<5"}))),
            only("/thresholds/ladder_rungs{strategy:relax_threshold,rung:dense 0.750}",
                 "unknown value \"dense 0.750\" for tag \"rung\" of metric \"ladder_rungs\"; known: "
                 "relax_threshold's \"keyword\" and \"dense <score>\" as its events write it (\"dense 0.75\")"));
  EXPECT_EQ(errors_of(with(base_scenario(), "/thresholds/ladder_rungs{strategy:rewrite_query,rung:keyword}",
                           Json::array({"count<5"}))),
            only("/thresholds/ladder_rungs{strategy:rewrite_query,rung:keyword}",
                 "unknown value \"keyword\" for tag \"rung\" of metric \"ladder_rungs\"; known: rewrite_query's "
                 "intended, paraphrase, repeated, failed"));
  for (const char* ok : {"ladder_rungs{rung:dense 0.7}", "ladder_rungs{rung:paraphrase}",
                         "ladder_rungs{strategy:relax_threshold,rung:keyword}"}) {
    EXPECT_TRUE(errors_of(with(base_scenario(), std::string("/thresholds/") + ok, Json::array({"count<5"}))).empty())
        << ok;
  }
}

TEST(ScenarioThresholdsTest, ExpressionsMustBeANonEmptyArray) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/thresholds/task_success", "rate>=0.9")),
            only("/thresholds/task_success", "expected a non-empty array, got \"rate>=0.9\""));
}

TEST(ScenarioThresholdsTest, ExpressionMustBeAString) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/thresholds/task_success", Json::array({0.9}))),
            only("/thresholds/task_success/0", "expected a string, got 0.9"));
}

TEST(ScenarioThresholdsTest, BadExpressionIsReportedWithItsPathAndTheParsersMessage) {
  const auto parsed = parse_threshold("task_latency", "fast");
  ASSERT_TRUE(std::holds_alternative<std::string>(parsed));
  EXPECT_EQ(errors_of(with(base_scenario(), "/thresholds/task_latency", Json::array({"p(99)<20s", "fast"}))),
            only("/thresholds/task_latency/1", std::get<std::string>(parsed)));
}

TEST(ScenarioThresholdsTest, ProviderTagMustNameAProvider) {
  // A typo selects no calls, so "count<100" could never fail.
  EXPECT_EQ(
      errors_of(with(base_scenario(), "/thresholds/provider_calls{provider:serch}", Json::array({"count<100"}))),
      only("/thresholds/provider_calls{provider:serch}", "no provider named \"serch\"; providers are: gpt, search"));
}

TEST(ScenarioThresholdsTest, ToolTagMustNameAProvider) {
  EXPECT_EQ(
      errors_of(with(base_scenario(), "/thresholds/retry_amplification{tool:web_search}", Json::array({"avg<2"}))),
      only("/thresholds/retry_amplification{tool:web_search}",
           "no provider named \"web_search\"; providers are: gpt, search"));
}

TEST(ScenarioThresholdsTest, TemplateTagMustNameATask) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/thresholds/task_success{template:reserch}", Json::array({"rate>=0.9"}))),
            only("/thresholds/task_success{template:reserch}",
                 "no task template named \"reserch\"; templates are: research"));
}

TEST(ScenarioThresholdsTest, EveryTagNamingNothingIsReported) {
  // Tags are checked in name order (MetricSelector::tags is a std::map).
  EXPECT_EQ(errors_of(with(base_scenario(), "/thresholds/tokens{provider:x,kind:input}", Json::array({"sum<1"}))),
            only("/thresholds/tokens{provider:x,kind:input}", "no provider named \"x\"; providers are: gpt, search"));
  const std::string metric = "/thresholds/breaker_transitions{tool:x,to:open}";
  EXPECT_EQ(errors_of(with(base_scenario(), metric, Json::array({"count<1"}))),
            only(metric, "no provider named \"x\"; providers are: gpt, search"));
}

TEST(ScenarioThresholdsTest, TagsNamingExistingThingsAreAccepted) {
  Json doc = with(base_scenario(), "/thresholds/provider_calls{provider:search,outcome:rate_limited}",
                  Json::array({"count<100"}));
  doc = with(doc, "/thresholds/task_latency{template:research}", Json::array({"p(99)<20s"}));
  doc = with(doc, "/thresholds/retry_amplification{tool:gpt}", Json::array({"avg<2"}));
  EXPECT_EQ(errors_of(doc), std::vector<ValidationError>{});
}

TEST(ScenarioThresholdsTest, ThresholdsKeepFileOrder) {
  Json doc = with(base_scenario(), "/thresholds/task_success", Json::array({"rate>=0.9"}));
  doc = with(doc, "/thresholds/cost_usd", Json::array({"sum<=5", "avg<0.1"}));
  doc = with(doc, "/thresholds/task_latency", Json::array({"p(99)<20s"}));
  const LoadResult result = load_scenario_text(doc.dump(), test::kBaseFile);
  ASSERT_TRUE(result.scenario.has_value());
  std::vector<std::string> order;
  for (const Threshold& t : result.scenario->thresholds) order.push_back(t.metric + " " + t.expression);
  EXPECT_EQ(order, (std::vector<std::string>{"task_success rate>=0.9", "cost_usd sum<=5", "cost_usd avg<0.1",
                                             "task_latency p(99)<20s"}));
}

}  // namespace
}  // namespace squall

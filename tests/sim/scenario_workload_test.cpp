// One bad-input test per rule of the scenario's top level and `workload` block.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "engine/call.hpp"
#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

using test::base_scenario;
using test::errors_of;
using test::only;
using test::with;
using test::without;

constexpr const char* kTask = "/workload/tasks/0";
constexpr const char* kSearchStep = "/workload/tasks/0/steps/0";
constexpr const char* kLlmStep = "/workload/tasks/0/steps/1";

std::string at(std::string_view base, std::string_view rest) { return std::string(base) + std::string(rest); }

TEST(ScenarioTopLevelTest, NameIsRequired) {
  EXPECT_EQ(errors_of(without(base_scenario(), "/name")), only("", "missing required key \"name\""));
}

TEST(ScenarioTopLevelTest, NameMustBeANonEmptyString) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/name", "")), only("/name", "expected a non-empty string, got \"\""));
}

TEST(ScenarioTopLevelTest, NameMustHaveNoControlCharacters) {
  // A newline would split the CLI's "squall run <name>: seed" line; ESC starts an ANSI
  // escape sequence; U+009B is the one-character CSI.
  EXPECT_EQ(errors_of(with(base_scenario(), "/name", "a\nb")),
            only("/name", "expected text without control characters, got U+000A at byte 2"));
  EXPECT_EQ(errors_of(with(base_scenario(), "/name", "run \x1b[2J")),
            only("/name", "expected text without control characters, got U+001B at byte 5"));
  EXPECT_EQ(errors_of(with(base_scenario(), "/name", "\u00e9t\u00e9\u009b2J")),
            only("/name", "expected text without control characters, got U+009B at byte 6"));
  EXPECT_EQ(errors_of(with(base_scenario(), "/name", "\u00e9t\u00e9 \u00a0 ok")), std::vector<ValidationError>{});
  // A right-to-left override makes "report\u202Etxt.json" display as "reportnosj.txt".
  EXPECT_EQ(errors_of(with(base_scenario(), "/name", "report\u202etxt.json")),
            only("/name", "expected text without control characters, got U+202E at byte 7"));
  EXPECT_EQ(errors_of(with(base_scenario(), "/name", "a\u2069")),
            only("/name", "expected text without control characters, got U+2069 at byte 2"));
}

TEST(ScenarioTopLevelTest, DescriptionMayHaveNewlinesAndTabsButNoOtherControls) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/description", "line 1\n\tline 2")), std::vector<ValidationError>{});
  EXPECT_EQ(errors_of(with(base_scenario(), "/description", "line 1\r\nline 2")),
            only("/description",
                 "expected text without control characters other than newline and tab, got U+000D at byte 7"));
}

TEST(ScenarioTopLevelTest, DescriptionMustBeAString) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/description", 5)), only("/description", "expected a string, got 5"));
}

TEST(ScenarioTopLevelTest, SchemaMustBeAString) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/$schema", 1)), only("/$schema", "expected a string, got 1"));
}

TEST(ScenarioTopLevelTest, SeedMustBeANonNegativeInteger) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/seed", 2.5)),
            only("/seed", "expected an integer in [0, 18446744073709551615], got 2.5"));
}

TEST(ScenarioTopLevelTest, ASeedBeyondUint64IsReportedAsTheIntegerWritten) {
  // The literal 18446744073709551616 (2^64) is read as a double; shown as the integer, not
  // as 1.8446744073709552e+19.
  const std::string text = with(base_scenario(), "/seed", 7).dump();
  const std::string big = std::string(text).replace(text.find("\"seed\":7"), 8, "\"seed\":18446744073709551616");
  EXPECT_EQ(load_scenario_text(big, test::kBaseFile).errors,
            only("/seed", "expected an integer in [0, 18446744073709551615], got 18446744073709551616"));
}

TEST(ScenarioTopLevelTest, DurationIsRequired) {
  EXPECT_EQ(errors_of(without(base_scenario(), "/duration")), only("", "missing required key \"duration\""));
}

TEST(ScenarioTopLevelTest, DurationMustNotBeABareNumber) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/duration", 250)),
            only("/duration", "expected a duration string such as \"250ms\", got 250"));
}

TEST(ScenarioTopLevelTest, DurationMustHaveAUnit) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/duration", "10 min")),
            only("/duration", "expected a duration string such as \"250ms\", got \"10 min\""));
}

TEST(ScenarioTopLevelTest, DurationMustBePositive) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/duration", "0s")),
            only("/duration", "expected a duration > 0, got \"0s\""));
}

TEST(ScenarioTopLevelTest, DurationMustNotBeNegative) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/duration", "-1m")),
            only("/duration", "expected a non-negative duration, got \"-1m\""));
}

TEST(ScenarioTopLevelTest, DurationMustBeWholeNanoseconds) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/duration", "0.5ns")),
            only("/duration", "expected a whole number of nanoseconds, got \"0.5ns\""));
}

TEST(ScenarioTopLevelTest, DurationsAreAtMostAHundredYears) {
  // Past int64 nanoseconds and between 100 and 292 years alike: one bound, one message.
  EXPECT_EQ(errors_of(with(base_scenario(), "/duration", "3000000h")),
            only("/duration", "expected a duration of at most 876000h (100 years), got \"3000000h\""));
  EXPECT_EQ(errors_of(with(base_scenario(), "/duration", "876000h0.000000001s")),
            only("/duration", "expected a duration of at most 876000h (100 years), got \"876000h0.000000001s\""));
  EXPECT_TRUE(errors_of(with(base_scenario(), "/duration", "876000h")).empty());
}

TEST(ScenarioTopLevelTest, DurationMayBeCompound) {
  // 1 h 15 min 30.5 s = 4530.5 s, as Go's time.ParseDuration and k6 read it.
  const LoadResult result =
      load_scenario_text(with(base_scenario(), "/duration", "1h15m30.5s").dump(), test::kBaseFile);
  ASSERT_EQ(result.errors, std::vector<ValidationError>{});
  EXPECT_EQ(result.scenario->duration, 4'530'500 * kMillisecond);
}

TEST(ScenarioTopLevelTest, DurationUnitsMustDecrease) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/duration", "30s1m")),
            only("/duration", "expected a duration string such as \"250ms\", got \"30s1m\""));
}

TEST(ScenarioTopLevelTest, WorkloadIsRequired) {
  EXPECT_EQ(errors_of(without(base_scenario(), "/workload")), only("", "missing required key \"workload\""));
}

TEST(ScenarioTopLevelTest, ProvidersAreRequired) {
  // Without providers, the steps' tools cannot be checked, so only the missing key is reported.
  Json doc = without(base_scenario(), "/providers");
  doc = without(doc, "/policy");
  EXPECT_EQ(errors_of(doc), only("", "missing required key \"providers\""));
}

TEST(ScenarioArrivalsTest, ProcessMustBeKnown) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/process", "uniform")),
            only("/workload/arrivals/process", "expected one of \"poisson\", \"constant\", got \"uniform\""));
}

TEST(ScenarioArrivalsTest, RateMustBePositive) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/rate_per_s", 0)),
            only("/workload/arrivals/rate_per_s", "expected a number in [1e-06, 1000000], got 0"));
}

TEST(ScenarioArrivalsTest, RateIsWithinAMillionthAndAMillionPerSecond) {
  // 1e10 per second hung the simulator; 1e-300 made the arrival gap overflow int64.
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/rate_per_s", 1e6)), std::vector<ValidationError>{});
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/rate_per_s", 1e-6)), std::vector<ValidationError>{});
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/rate_per_s", 1e10)),
            only("/workload/arrivals/rate_per_s", "expected a number in [1e-06, 1000000], got 10000000000.0"));
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/rate_per_s", 1e-300)),
            only("/workload/arrivals/rate_per_s", "expected a number in [1e-06, 1000000], got 1e-300"));
}

TEST(ScenarioArrivalsTest, MaxTasksMustBeAPositiveInteger) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/max_tasks", 0)),
            only("/workload/arrivals/max_tasks", "expected an integer in [1, 100000000], got 0"));
}

TEST(ScenarioArrivalsTest, MaxTasksIsAtMost1e8) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/max_tasks", 100'000'001)),
            only("/workload/arrivals/max_tasks", "expected an integer in [1, 100000000], got 100000001"));
}

TEST(ScenarioArrivalsTest, BurstRateIsWithinAMillionthAndAMillionPerSecond) {
  const Json burst = {{"from", "1m"}, {"to", "2m"}, {"rate_per_s", 2e6}};
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/bursts", Json::array({burst}))),
            only("/workload/arrivals/bursts/0/rate_per_s", "expected a number in [1e-06, 1000000], got 2000000.0"));
}

TEST(ScenarioArrivalsTest, AtMostTenThousandBursts) {
  // Touching one-millisecond bursts: 10000 are accepted, 10001 are not even read.
  Json bursts = Json::array();
  for (int i = 0; i < 10'001; ++i) {
    bursts.push_back({{"from", fmt::format("{}ms", i)}, {"to", fmt::format("{}ms", i + 1)}, {"rate_per_s", 5}});
  }
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/bursts", bursts)),
            only("/workload/arrivals/bursts", "expected at most 10000 bursts, got 10001"));
  bursts.erase(bursts.size() - 1);
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/bursts", bursts)), std::vector<ValidationError>{});
}

TEST(ScenarioArrivalsTest, BurstMustEndAfterItStarts) {
  const Json burst = {{"from", "6m"}, {"to", "2m"}, {"rate_per_s", 5}};
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/bursts", Json::array({burst}))),
            only("/workload/arrivals/bursts/0/to", "expected a time after from (6m), got \"2m\""));
}

TEST(ScenarioArrivalsTest, MessagesWriteTimesAsCompoundDurations) {
  // from "90s" is shown as the loader formats it, "1m30s", which reads back as the same time.
  const Json burst = {{"from", "90s"}, {"to", "1m"}, {"rate_per_s", 5}};
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/bursts", Json::array({burst}))),
            only("/workload/arrivals/bursts/0/to", "expected a time after from (1m30s), got \"1m\""));
}

TEST(ScenarioArrivalsTest, BurstMustStartBeforeTheRunEnds) {
  const Json burst = {{"from", "11m"}, {"to", "12m"}, {"rate_per_s", 5}};
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/bursts", Json::array({burst}))),
            only("/workload/arrivals/bursts/0/from",
                 "expected a time before the end of the run (duration 10m), got \"11m\""));
}

TEST(ScenarioArrivalsTest, BurstNeedsItsRate) {
  const Json burst = {{"from", "1m"}, {"to", "2m"}};
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/bursts", Json::array({burst}))),
            only("/workload/arrivals/bursts/0", "missing required key \"rate_per_s\""));
}

TEST(ScenarioArrivalsTest, BurstNeedsItsWindow) {
  const Json burst = {{"to", "2m"}, {"rate_per_s", 5}};
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/bursts", Json::array({burst}))),
            only("/workload/arrivals/bursts/0", "missing required key \"from\""));
}

TEST(ScenarioArrivalsTest, BurstsMustNotOverlap) {
  const Json bursts = Json::array(
      {Json{{"from", "1m"}, {"to", "3m"}, {"rate_per_s", 5}}, Json{{"from", "2m"}, {"to", "4m"}, {"rate_per_s", 5}}});
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/bursts", bursts)),
            only("/workload/arrivals/bursts/1", "overlaps burst 0 [1m, 3m)"));
}

TEST(ScenarioArrivalsTest, OverlapIsReportedAtTheLaterStartingBurst) {
  // In file order [2m, 4m) comes first, but [1m, 3m) starts first.
  const Json bursts = Json::array(
      {Json{{"from", "2m"}, {"to", "4m"}, {"rate_per_s", 5}}, Json{{"from", "1m"}, {"to", "3m"}, {"rate_per_s", 5}}});
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/bursts", bursts)),
            only("/workload/arrivals/bursts/0", "overlaps burst 1 [1m, 3m)"));
}

TEST(ScenarioArrivalsTest, OverlapWithALongBurstIsFoundPastShortOnes) {
  // Sorted: 0 [0s, 5m), 1 [1m, 2m), 2 [3m, 4m). Burst 2 does not overlap its neighbour 1,
  // but it overlaps 0, the burst that ends last so far; so does burst 1.
  const Json bursts = Json::array({Json{{"from", "0s"}, {"to", "5m"}, {"rate_per_s", 5}},
                                   Json{{"from", "1m"}, {"to", "2m"}, {"rate_per_s", 5}},
                                   Json{{"from", "3m"}, {"to", "4m"}, {"rate_per_s", 5}}});
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/bursts", bursts)),
            (std::vector<ValidationError>{
                {test::kBaseFile, "/workload/arrivals/bursts/1", "overlaps burst 0 [0s, 5m)"},
                {test::kBaseFile, "/workload/arrivals/bursts/2", "overlaps burst 0 [0s, 5m)"},
            }));
}

TEST(ScenarioArrivalsTest, BurstsStartingTogetherOverlap) {
  const Json bursts = Json::array(
      {Json{{"from", "1m"}, {"to", "2m"}, {"rate_per_s", 5}}, Json{{"from", "1m"}, {"to", "3m"}, {"rate_per_s", 5}}});
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/bursts", bursts)),
            only("/workload/arrivals/bursts/1", "overlaps burst 0 [1m, 2m)"));
}

TEST(ScenarioArrivalsTest, BurstsMayTouch) {
  const Json bursts = Json::array(
      {Json{{"from", "1m"}, {"to", "3m"}, {"rate_per_s", 5}}, Json{{"from", "3m"}, {"to", "4m"}, {"rate_per_s", 5}}});
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/arrivals/bursts", bursts)), std::vector<ValidationError>{});
}

TEST(ScenarioTasksTest, TasksAreRequired) {
  EXPECT_EQ(errors_of(without(base_scenario(), "/workload/tasks")),
            only("/workload", "missing required key \"tasks\""));
}

TEST(ScenarioTasksTest, TasksMustNotBeEmpty) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/tasks", Json::array())),
            only("/workload/tasks", "expected a non-empty array, got []"));
}

TEST(ScenarioTasksTest, TaskNameIsRequired) {
  EXPECT_EQ(errors_of(without(base_scenario(), at(kTask, "/name"))), only(kTask, "missing required key \"name\""));
}

TEST(ScenarioTasksTest, TaskNamesMustBeUnique) {
  Json doc = base_scenario();
  doc["workload"]["tasks"].push_back(doc["workload"]["tasks"][0]);
  EXPECT_EQ(errors_of(doc),
            only("/workload/tasks/1/name", "duplicate task name \"research\" (also /workload/tasks/0)"));
}

TEST(ScenarioTasksTest, TaskNameMustBeAName) {
  EXPECT_EQ(errors_of(with(base_scenario(), at(kTask, "/name"), "deep research")),
            only(at(kTask, "/name"),
                 "expected a task name of ASCII letters, digits, '.', '_' and '-', got \"deep research\""));
}

TEST(ScenarioTasksTest, WeightMustBePositive) {
  EXPECT_EQ(errors_of(with(base_scenario(), at(kTask, "/weight"), -1)),
            only(at(kTask, "/weight"), "expected a number in (0, 1000000], got -1"));
}

TEST(ScenarioTasksTest, WeightIsAtMostAMillion) {
  EXPECT_EQ(errors_of(with(base_scenario(), at(kTask, "/weight"), 1e308)),
            only(at(kTask, "/weight"), "expected a number in (0, 1000000], got 1e+308"));
}

TEST(ScenarioTasksTest, DeadlineMustBeADuration) {
  EXPECT_EQ(errors_of(with(base_scenario(), at(kTask, "/deadline"), 30)),
            only(at(kTask, "/deadline"), "expected a duration string such as \"250ms\", got 30"));
}

TEST(ScenarioTasksTest, DeadlineMustBePositive) {
  EXPECT_EQ(errors_of(with(base_scenario(), at(kTask, "/deadline"), "0ms")),
            only(at(kTask, "/deadline"), "expected a duration > 0, got \"0ms\""));
}

TEST(ScenarioTasksTest, StepsAreRequired) {
  EXPECT_EQ(errors_of(without(base_scenario(), at(kTask, "/steps"))), only(kTask, "missing required key \"steps\""));
}

TEST(ScenarioTasksTest, StepsMustNotBeEmpty) {
  EXPECT_EQ(errors_of(with(base_scenario(), at(kTask, "/steps"), Json::array())),
            only(at(kTask, "/steps"), "expected a non-empty array, got []"));
}

TEST(ScenarioStepsTest, ToolIsRequired) {
  EXPECT_EQ(errors_of(without(base_scenario(), at(kLlmStep, "/tool"))),
            only(kLlmStep, "missing required key \"tool\""));
}

TEST(ScenarioStepsTest, ToolMustNameAProvider) {
  EXPECT_EQ(errors_of(with(base_scenario(), at(kLlmStep, "/tool"), "bing")),
            only(at(kLlmStep, "/tool"), "no provider named \"bing\"; providers are: gpt, search"));
}

TEST(ScenarioStepsTest, SearchStepNeedsQueryFrom) {
  EXPECT_EQ(errors_of(without(base_scenario(), at(kSearchStep, "/query_from"))),
            only(kSearchStep,
                 "missing required key \"query_from\" (steps calling a web_search provider draw their "
                 "query from a workload.queries list)"));
}

TEST(ScenarioStepsTest, QueryFromMustNameAQueryList) {
  EXPECT_EQ(errors_of(with(base_scenario(), at(kSearchStep, "/query_from"), "people")),
            only(at(kSearchStep, "/query_from"), "no query list named \"people\"; workload.queries has: companies"));
}

TEST(ScenarioStepsTest, QueryFromIsNotAllowedOnLlmSteps) {
  EXPECT_EQ(errors_of(with(base_scenario(), at(kLlmStep, "/query_from"), "companies")),
            only(at(kLlmStep, "/query_from"),
                 "applies only to web_search and vector_search steps; \"gpt\" is an llm provider"));
}

TEST(ScenarioStepsTest, TokenCountsAreNotAllowedOnSearchSteps) {
  EXPECT_EQ(
      errors_of(with(base_scenario(), at(kSearchStep, "/max_output_tokens"), 10)),
      only(at(kSearchStep, "/max_output_tokens"), "applies only to llm steps; \"search\" is a web_search provider"));
}

TEST(ScenarioStepsTest, PromptTokensMustNotBeNegative) {
  EXPECT_EQ(errors_of(with(base_scenario(), at(kLlmStep, "/prompt_tokens"), -5)),
            only(at(kLlmStep, "/prompt_tokens"), "expected an integer in [0, 1000000000], got -5"));
}

TEST(ScenarioStepsTest, TokenCountsAreAtMostABillion) {
  // 2^63 - 1 prompt tokens overflowed the sums of tokens over steps.
  EXPECT_EQ(errors_of(with(base_scenario(), at(kLlmStep, "/prompt_tokens"), 9223372036854775807)),
            only(at(kLlmStep, "/prompt_tokens"), "expected an integer in [0, 1000000000], got 9223372036854775807"));
  EXPECT_EQ(errors_of(with(base_scenario(), at(kLlmStep, "/max_output_tokens"), 1'000'000'001)),
            only(at(kLlmStep, "/max_output_tokens"), "expected an integer in [0, 1000000000], got 1000000001"));
}

TEST(ScenarioStepsTest, StepOfAnInvalidProviderIsNotCheckedTwice) {
  // The provider's own entry reports the bad type; the step's keys are not judged by it.
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/type", "pinecone")),
            only("/providers/gpt/type",
                 "expected one of \"web_search\", \"llm\", \"tool\", \"vector_search\", got \"pinecone\""));
}

TEST(ScenarioQueriesTest, QueriesMustBeAnObject) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/queries", Json::array({"acme"}))),
            (std::vector<ValidationError>{
                {test::kBaseFile, "/workload/queries", "expected an object, got [\"acme\"]"},
                {test::kBaseFile, at(kSearchStep, "/query_from"),
                 "no query list named \"companies\"; workload.queries has none"},
            }));
}

TEST(ScenarioQueriesTest, AQueryIsAStringOrAnObjectWithText) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/queries/companies/0", 42)),
            only("/workload/queries/companies/0", "expected a query string or an object with \"text\", got 42"));
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/queries/companies/0", Json::object({{"rewrite", "acme"}}))),
            only("/workload/queries/companies/0", "missing required key \"text\""));
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/queries/companies/0", Json::object({{"text", ""}}))),
            only("/workload/queries/companies/0/text", "expected a non-empty string, got \"\""));
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/queries/companies/0",
                           Json::object({{"text", "acme"}, {"relevance", Json::array({"x"})}}))),
            only("/workload/queries/companies/0/relevance",
                 "unknown key \"relevance\"; expected one of: text, rewrite, relevant"));
}

TEST(ScenarioQueriesTest, RelevantLinksAreANonEmptyListOfDistinctStrings) {
  const auto query = [](Json relevant) { return Json::object({{"text", "acme"}, {"relevant", std::move(relevant)}}); };
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/queries/companies/0", query(Json::array()))),
            only("/workload/queries/companies/0/relevant", "expected a non-empty array, got []"));
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/queries/companies/0", query(Json::array({"a", 3, "a"})))),
            (std::vector<ValidationError>{
                {test::kBaseFile, "/workload/queries/companies/0/relevant/1", "expected a non-empty string, got 3"},
                {test::kBaseFile, "/workload/queries/companies/0/relevant/2",
                 "duplicate \"a\" (also /workload/queries/companies/0/relevant/0)"},
            }));
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/queries/companies/0", query(Json::array({"b", "a"})))),
            std::vector<ValidationError>{});
}

TEST(ScenarioQueriesTest, EverySearchStepOfATaskDrawsFromTheSameList) {
  // A task draws one query; a second search step naming another list would be ignored.
  Json doc = with(base_scenario(), "/workload/queries/people", Json::array({"Jane Doe"}));
  Json steps = doc.at(Json::json_pointer("/workload/tasks/0/steps"));
  Json second = steps.at(0);
  second["query_from"] = "people";
  steps.push_back(second);
  doc = with(doc, "/workload/tasks/0/steps", steps);
  EXPECT_EQ(errors_of(doc), only("/workload/tasks/0/steps/2/query_from",
                                 "expected \"companies\", the list of the task's first search step "
                                 "(/workload/tasks/0/steps/0): a task draws one query and every search step sends it, "
                                 "got \"people\""));
}

TEST(ScenarioQueriesTest, ATaskHasAtMost65535Steps) {
  // A call's step index is 16 bits (CallContext::step): one more step is refused.
  Json doc = base_scenario();
  Json steps = doc.at(Json::json_pointer("/workload/tasks/0/steps"));
  const Json step = steps.at(0);
  while (steps.size() < kMaxTaskSteps) steps.push_back(step);
  EXPECT_EQ(errors_of(with(doc, "/workload/tasks/0/steps", steps)), std::vector<ValidationError>{});
  steps.push_back(step);
  EXPECT_EQ(errors_of(with(doc, "/workload/tasks/0/steps", steps)),
            only("/workload/tasks/0/steps", "expected at most 65535 steps, got 65536"));
}

TEST(ScenarioQueriesTest, QueryListMustNotBeEmpty) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/queries/companies", Json::array())),
            only("/workload/queries/companies", "expected a non-empty array, got []"));
}

TEST(ScenarioQueriesTest, QueriesMustBeNonEmptyStrings) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/workload/queries/companies/0", "")),
            only("/workload/queries/companies/0", "expected a non-empty string, got \"\""));
}

}  // namespace
}  // namespace squall

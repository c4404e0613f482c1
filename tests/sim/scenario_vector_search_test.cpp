// One bad-input test per rule of vector_search providers and of the steps that call them,
// and what a valid entry reads into.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

using test::base_scenario;
using test::base_vector;
using test::errors_of;
using test::only;
using test::with;
using test::without;

Json with_units(const Json& units) { return with(base_vector(), "/providers/kb/read_units", units); }

Scenario load_ok(const Json& doc) {
  auto result = load_scenario_text(doc.dump(), test::kBaseFile);
  EXPECT_EQ(result.errors, std::vector<ValidationError>{});
  return result.scenario ? std::move(*result.scenario) : Scenario{};
}

TEST(ScenarioVectorSearchTest, ValidEntryAndStepAreRead) {
  Json doc = with(base_vector(), "/providers/kb/top_k", 3);
  doc = with(doc, "/providers/kb/read_units", Json{{"capacity", 20}, {"refill_per_s", 2.5}, {"per_query", 0.5}});
  doc = with(doc, "/workload/tasks/0/steps/2/top_k", 4);
  doc = with(doc, "/workload/tasks/0/steps/2/search_mode", "keyword");
  const Scenario s = load_ok(doc);
  const auto kb = std::find_if(s.providers.begin(), s.providers.end(), [](const auto& p) { return p.name == "kb"; });
  ASSERT_NE(kb, s.providers.end());
  const auto& config = std::get<VectorSearchConfig>(kb->spec);
  EXPECT_EQ(config.top_k, 3);
  ASSERT_TRUE(config.read_units.has_value());
  EXPECT_EQ(config.read_units->capacity_mru, 20'000);
  EXPECT_EQ(config.read_units->refill_mru_per_s, 2'500);
  EXPECT_EQ(config.read_units->per_query_mru, std::optional<std::int64_t>(500));
  const StepConfig& step = s.workload.tasks[0].steps[2];
  EXPECT_EQ(step.top_k, 4);
  EXPECT_EQ(step.search_mode, SearchMode::keyword);
  EXPECT_EQ(step.min_score, 0.85);                         // seed 001's first rung, by default
  EXPECT_EQ(s.workload.tasks[0].steps[0].min_score, 0.0);  // not a vector step
}

TEST(ScenarioVectorSearchTest, MinScoreIsRead) {
  const Scenario s = load_ok(with(base_vector(), "/workload/tasks/0/steps/2/min_score", 0.7));
  EXPECT_EQ(s.workload.tasks[0].steps[2].min_score, 0.7);
}

TEST(ScenarioVectorSearchTest, OwnKeysOnly) {
  EXPECT_EQ(errors_of(with(base_vector(), "/providers/kb/max_results", 5)),
            only("/providers/kb/max_results",
                 "unknown key \"max_results\"; expected one of: type, corpus, latency, top_k, read_units, faults, "
                 "capabilities, idempotent, sdk_retry, capacity"));
}

// The corpus is read as web_search's (scenario_provider_test.cpp has the corpus's own rules).
TEST(ScenarioVectorSearchTest, CorpusIsRequiredAndMustLoad) {
  EXPECT_EQ(errors_of(without(base_vector(), "/providers/kb/corpus")),
            only("/providers/kb", "missing required key \"corpus\""));
  EXPECT_EQ(errors_of(with(base_vector(), "/providers/kb/corpus", "missing.jsonl")),
            only("/providers/kb/corpus", test::data_path("missing.jsonl") + ": file not found"));
}

TEST(ScenarioVectorSearchTest, TopKBounds) {
  EXPECT_EQ(errors_of(with(base_vector(), "/providers/kb/top_k", 0)),
            only("/providers/kb/top_k", "expected an integer in [1, 10000], got 0"));
  EXPECT_EQ(errors_of(with(base_vector(), "/providers/kb/top_k", 10001)),
            only("/providers/kb/top_k", "expected an integer in [1, 10000], got 10001"));
}

TEST(ScenarioVectorSearchTest, ReadUnitsMustBeAnObjectWithCapacityAndRefill) {
  EXPECT_EQ(errors_of(with_units(5)), only("/providers/kb/read_units", "expected an object, got 5"));
  EXPECT_EQ(errors_of(with_units(Json{{"refill_per_s", 1}})),
            only("/providers/kb/read_units", "missing required key \"capacity\""));
  EXPECT_EQ(errors_of(with_units(Json{{"capacity", 1}})),
            only("/providers/kb/read_units", "missing required key \"refill_per_s\""));
  EXPECT_EQ(errors_of(with_units(Json{{"capacity", 1}, {"refill_per_s", 1}, {"burst", 2}})),
            only("/providers/kb/read_units/burst",
                 "unknown key \"burst\"; expected one of: capacity, refill_per_s, per_query"));
}

TEST(ScenarioVectorSearchTest, ReadUnitAmountsAreBounded) {
  EXPECT_EQ(errors_of(with_units(Json{{"capacity", 0}, {"refill_per_s", 1}})),
            only("/providers/kb/read_units/capacity", "expected a number in [0.001, 1000000], got 0"));
  EXPECT_EQ(errors_of(with_units(Json{{"capacity", 1}, {"refill_per_s", -1}})),
            only("/providers/kb/read_units/refill_per_s", "expected a number in [0, 1000000], got -1"));
  EXPECT_EQ(errors_of(with_units(Json{{"capacity", 1}, {"refill_per_s", 1}, {"per_query", "1 RU"}})),
            only("/providers/kb/read_units/per_query", "expected a number in [0.001, 1000000], got \"1 RU\""));
  EXPECT_EQ(errors_of(with_units(Json{{"capacity", 1}, {"refill_per_s", 1}, {"per_query", 0.0004}})),
            only("/providers/kb/read_units/per_query", "expected a number in [0.001, 1000000], got 0.0004"));
  // A refill that would round to nothing is not silently a bucket that never refills.
  EXPECT_EQ(errors_of(with_units(Json{{"capacity", 1}, {"refill_per_s", 0.0001}})),
            only("/providers/kb/read_units/refill_per_s",
                 "expected at least 0.001 (read units are counted in thousandths), got 0.0001"));
  EXPECT_EQ(errors_of(with_units(Json{{"capacity", 0.2505}, {"refill_per_s", 1}})),
            only("/providers/kb/read_units/capacity",
                 "expected a multiple of 0.001 (read units are counted in thousandths), got 0.2505"));
  EXPECT_EQ(errors_of(with_units(Json{{"capacity", 1}, {"refill_per_s", 0}})), std::vector<ValidationError>{});
}

TEST(ScenarioVectorSearchTest, AKeywordStepTakesNoThreshold) {
  Json doc = with(base_vector(), "/workload/tasks/0/steps/2/search_mode", "keyword");
  doc = with(doc, "/workload/tasks/0/steps/2/min_score", 0.99);
  EXPECT_EQ(errors_of(doc), only("/workload/tasks/0/steps/2/min_score",
                                 "applies only to dense search; this step's search_mode is \"keyword\", which ranks "
                                 "by BM25 without a threshold"));
}

TEST(ScenarioVectorSearchTest, QueryMustFitTheBucket) {
  EXPECT_EQ(errors_of(with_units(Json{{"capacity", 1}, {"refill_per_s", 1}, {"per_query", 2}})),
            only("/providers/kb/read_units/per_query",
                 "expected at most capacity (1), got 2: a query costing more than the bucket holds could never run"));
  // The default cost, Pinecone's 0.25 RU minimum for this small corpus.
  EXPECT_EQ(errors_of(with_units(Json{{"capacity", 0.1}, {"refill_per_s", 1}})),
            only("/providers/kb/read_units/capacity",
                 "expected at least 0.25 (what one query of this corpus costs by Pinecone's rule; see per_query), "
                 "got 0.1"));
}

TEST(ScenarioVectorSearchTest, IndexNotReadyOnlyOnVectorSearch) {
  const Json fault{{"kind", "index_not_ready"}, {"probability", 0.1}};
  EXPECT_EQ(errors_of(with(base_vector(), "/providers/search/faults/0", fault)),
            only("/providers/search/faults/0/kind",
                 "\"index_not_ready\" applies only to vector_search providers; \"search\" is a web_search provider"));
  EXPECT_EQ(errors_of(with(base_vector(), "/providers/kb/faults", Json::array({fault}))),
            std::vector<ValidationError>{});
  EXPECT_EQ(errors_of(with(base_vector(), "/providers/kb/faults",
                           Json::array({Json{{"kind", "index_not_ready"}, {"probability", 0.1}, {"status", 503}}}))),
            only("/providers/kb/faults/0/status",
                 "applies only to kind \"overloaded\", \"server_error\", \"client_error\" and \"stream_cut\", not "
                 "\"index_not_ready\""));
}

TEST(ScenarioVectorSearchTest, StepNeedsQueryFrom) {
  EXPECT_EQ(errors_of(without(base_vector(), "/workload/tasks/0/steps/2/query_from")),
            only("/workload/tasks/0/steps/2",
                 "missing required key \"query_from\" (steps calling a vector_search provider draw their query from a "
                 "workload.queries list)"));
}

TEST(ScenarioVectorSearchTest, StepKeysApplyOnlyToVectorSearchSteps) {
  EXPECT_EQ(errors_of(with(base_vector(), "/workload/tasks/0/steps/1/top_k", 3)),
            only("/workload/tasks/0/steps/1/top_k", "applies only to vector_search steps; \"gpt\" is an llm provider"));
  EXPECT_EQ(errors_of(with(base_vector(), "/workload/tasks/0/steps/0/min_score", 0.8)),
            only("/workload/tasks/0/steps/0/min_score",
                 "applies only to vector_search steps; \"search\" is a web_search provider"));
  EXPECT_EQ(errors_of(with(base_vector(), "/workload/tasks/0/steps/0/search_mode", "keyword")),
            only("/workload/tasks/0/steps/0/search_mode",
                 "applies only to vector_search steps; \"search\" is a web_search provider"));
}

TEST(ScenarioVectorSearchTest, StepValuesAreBounded) {
  EXPECT_EQ(errors_of(with(base_vector(), "/workload/tasks/0/steps/2/top_k", -1)),
            only("/workload/tasks/0/steps/2/top_k", "expected an integer in [0, 10000], got -1"));
  EXPECT_EQ(errors_of(with(base_vector(), "/workload/tasks/0/steps/2/min_score", 1.5)),
            only("/workload/tasks/0/steps/2/min_score", "expected a number in [0, 1], got 1.5"));
  EXPECT_EQ(errors_of(with(base_vector(), "/workload/tasks/0/steps/2/search_mode", "hybrid")),
            only("/workload/tasks/0/steps/2/search_mode", "expected one of \"dense\", \"keyword\", got \"hybrid\""));
}

}  // namespace
}  // namespace squall

// The semantic recovery ladder end to end: the loader, the LLM mock's rewrites, the
// strategies and the report's ladder rows, through sim::World.
#include <gtest/gtest.h>

#include <string>

#include "tests/sim/world_test_support.hpp"

namespace squall {
namespace {

// Ten tasks, one a second. The query matches no document of the web search's corpus
// (every word must match); its intended form, "acme revenue", matches the Acme report.
// (A web search has no similarity threshold to relax: relax_threshold is a vector
// search's, tests/sim/world_vector_search_test.cpp.)
constexpr std::string_view kLadder = R"({
  "name": "ladder",
  "duration": "10s",
  "workload": {
    "arrivals": { "process": "constant", "rate_per_s": 1 },
    "tasks": [ { "name": "t", "deadline": "30s",
                 "steps": [ { "tool": "search", "query_from": "q" } ] } ],
    "queries": { "q": [ { "text": "acme quarterly earnings", "rewrite": "acme revenue" } ] }
  },
  "providers": {
    "search": { "type": "web_search", "corpus": "corpus.jsonl",
                "latency": { "distribution": "constant", "value": "100ms" } },
    "gpt": { "type": "llm", "price_per_mtok": { "input": 1.0, "output": 2.0 },
             "time_to_first_token": { "distribution": "constant", "value": "200ms" },
             "tokens_per_second": 100, "rewrite_success_rate": RATE }
  },
  "policy": { "search": [ { "rewrite_query": { "provider": "gpt" } }, { "retry": {} } ] }
})";

Report run_at(std::string_view rate) {
  std::string json(kLadder);
  json.replace(json.find("RATE"), 4, rate);
  return test::run_world(test::inline_scenario(json), 1);
}

std::vector<std::string> ladder_rows(const Report& r) {
  std::vector<std::string> out;
  for (const LadderRow& l : r.ladder)
    out.push_back(l.tool + " " + l.strategy + " " + l.rung + " " + std::to_string(l.count));
  return out;
}

TEST(WorldLadderTest, AnIntendedRewriteIsFoundAndTheTaskIsDegraded) {
  const Report r = run_at("1");
  ASSERT_EQ(r.tasks.total, 10U);
  EXPECT_EQ(test::count(r, TaskStatus::degraded), 10U);
  ASSERT_EQ(r.tasks.by_reason.size(), 1U);
  EXPECT_EQ(r.tasks.by_reason[0].reason, "rewritten_query");
  EXPECT_EQ(ladder_rows(r), (std::vector<std::string>{"search rewrite_query intended 10"}));
  // Per task: 1 search, one rewrite, 1 search. The rewrite prompt is 200 + ceil(23 / 4) =
  // 206 tokens; its answer "acme revenue" is 3 tokens; at 1 and 2 USD per million,
  // (206 * 1 + 3 * 2) / 1e6 = 0.000212 USD per task.
  ASSERT_EQ(r.providers.size(), 2U);
  EXPECT_EQ(r.providers[0].name, "gpt");
  EXPECT_EQ(r.providers[0].calls, 10U);
  EXPECT_EQ(r.providers[0].input_tokens, 2060);
  EXPECT_EQ(r.providers[0].output_tokens, 30);
  EXPECT_EQ(r.providers[1].calls, 20U);
  EXPECT_NEAR(r.cost.total_usd, 0.00212, 1e-12);
  ASSERT_EQ(r.tasks.by_template.size(), 1U);
  EXPECT_EQ(r.tasks.by_template[0].tokens, 2090);
}

TEST(WorldLadderTest, AParaphraseCannotHelpAndTheTaskSafeFails) {
  // The paraphrase "earnings quarterly acme" has the query's words: its search finds
  // nothing again. The rewrite is billed all the same.
  const Report r = run_at("0");
  EXPECT_EQ(test::count(r, TaskStatus::safe_failed), 10U);
  ASSERT_EQ(r.tasks.by_reason.size(), 1U);
  EXPECT_EQ(r.tasks.by_reason[0].reason, "no_records_found");
  EXPECT_EQ(ladder_rows(r), (std::vector<std::string>{"search rewrite_query paraphrase 10"}));
  EXPECT_EQ(r.providers[1].calls, 20U);
  // "earnings quarterly acme" is 23 bytes: 6 output tokens per rewrite.
  EXPECT_EQ(r.tasks.by_template[0].tokens, 10 * (206 + 6));
}

TEST(WorldLadderTest, EachTaskEndsOneWayOrTheOtherReproducibly) {
  // At 0.5 a task's rewrite helps or not; the same seed gives the same run.
  const Report a = run_at("0.5");
  const Report b = run_at("0.5");
  EXPECT_EQ(a.fingerprint, b.fingerprint);
  EXPECT_EQ(ladder_rows(a), ladder_rows(b));
  EXPECT_EQ(test::count(a, TaskStatus::degraded) + test::count(a, TaskStatus::safe_failed), 10U);
}

}  // namespace
}  // namespace squall

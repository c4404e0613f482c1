// sim::World end to end on small inline scenarios with exact, hand-derived outcomes.
#include <gtest/gtest.h>

#include <cmath>

#include "mocks/corpus.hpp"
#include "mocks/query_matcher.hpp"
#include "tests/sim/world_test_support.hpp"

namespace squall {
namespace {

// Ten tasks, one per second from t = 0; search (100 ms) then an LLM call whose prompt is
// 500 tokens plus the tokens of the search hits' snippets.
constexpr std::string_view kSearchThenLlm = R"({
  "name": "search-then-llm",
  "duration": "10s",
  "workload": {
    "arrivals": { "process": "constant", "rate_per_s": 1 },
    "tasks": [ { "name": "t", "deadline": "30s",
                 "steps": [ { "tool": "search", "query_from": "q" },
                            { "tool": "llm", "prompt_tokens": 500, "max_output_tokens": 1000 } ] } ],
    "queries": { "q": [ "Acme Corp" ] }
  },
  "providers": {
    "search": { "type": "web_search", "corpus": "corpus.jsonl",
                "latency": { "distribution": "constant", "value": "100ms" } },
    "llm": { "type": "llm", "price_per_mtok": { "input": 1.0, "output": 2.0 },
             "time_to_first_token": { "distribution": "constant", "value": "200ms" },
             "tokens_per_second": 100, "mean_output_tokens": 50 }
  }
})";

TEST(WorldTest, SearchHitsFeedTheLlmPrompt) {
  const Scenario scenario = test::inline_scenario(kSearchThenLlm);
  const Report report = test::run_world(scenario, 1);
  ASSERT_EQ(report.tasks.total, 10U);
  EXPECT_EQ(test::count(report, TaskStatus::succeeded), 10U);

  // The hits' snippet tokens, computed independently from the corpus.
  const Corpus corpus = Corpus::load(std::string(SQUALL_SOURCE_DIR) + "/tests/sim/data/corpus.jsonl");
  QueryMatcher matcher(corpus);
  std::vector<SearchResult> hits;
  matcher.match("Acme Corp", 10, hits);
  ASSERT_FALSE(hits.empty());
  std::int64_t snippet_tokens = 0;
  for (const SearchResult& hit : hits) snippet_tokens += hit.snippet_tokens;
  // Search bills no tokens; each LLM call bills 500 + snippet tokens of input.
  EXPECT_EQ(report.tokens.input, 10 * (500 + snippet_tokens));
}

TEST(WorldTest, RunEndsAfterTheDurationAndEveryTask) {
  // With a 9.05 s duration the last task arrives at 9 s and needs 100 ms of search plus
  // at least 200 ms to the LLM's first token: the run must go on past the duration until
  // it has finished, so all ten tasks are reported and the run covers >= 9.3 s.
  std::string json(kSearchThenLlm);
  json.replace(json.find(R"("10s")"), 5, R"("9050ms")");
  const Scenario scenario = test::inline_scenario(json);
  const Report report = test::run_world(scenario, 1);
  EXPECT_EQ(report.tasks.total, 10U);
  EXPECT_GE(report.duration, millis(9300));
}

TEST(WorldTest, ACallSlowerThanTheLongestDeadlineMissesIt) {
  // Each call takes 100 years to its first token and then one token at 1e-300 per second:
  // its latency is cut to kMaxLatency (146 years), which is still longer than the longest
  // deadline a file may give, so every task misses it rather than succeeding.
  const Scenario scenario = test::inline_scenario(R"({
    "name": "slower-than-any-deadline", "duration": "3s",
    "workload": { "arrivals": { "process": "constant", "rate_per_s": 1 },
                  "tasks": [ { "name": "ask", "deadline": "876000h", "steps": [ { "tool": "llm" } ] } ] },
    "providers": { "llm": { "type": "llm", "tokens_per_second": 1e-300,
                            "time_to_first_token": { "distribution": "constant", "value": "876000h" } } } })");
  const Report report = test::run_world(scenario, 1);
  ASSERT_EQ(report.tasks.total, 3U);
  EXPECT_EQ(report.tasks.by_status[index_of(TaskStatus::succeeded)], 0U);
  EXPECT_EQ(report.tasks.by_status[index_of(TaskStatus::failed)], 3U);
}

TEST(WorldTest, AnEmptyCompletionBillsItsPrompt) {
  // Every completion comes back empty (a 200 without content): the provider read the
  // prompt, so each of the 5 tasks bills its 500 input tokens and no output, at 2.5 USD
  // per million: 5 * 500 * 2.5 / 1e6 = 0.00625 USD. The task safe-fails, as on an empty
  // search.
  const Scenario scenario = test::inline_scenario(R"({
    "name": "empty-completions", "duration": "5s",
    "workload": { "arrivals": { "process": "constant", "rate_per_s": 1 },
                  "tasks": [ { "name": "ask", "steps": [ { "tool": "llm", "prompt_tokens": 500 } ] } ] },
    "providers": { "llm": { "type": "llm", "price_per_mtok": { "input": 2.5, "output": 10 },
                            "faults": [ { "kind": "empty", "probability": 1 } ] } } })");
  const Report report = test::run_world(scenario, 1);
  ASSERT_EQ(report.tasks.total, 5U);
  EXPECT_EQ(report.tasks.by_status[index_of(TaskStatus::safe_failed)], 5U);
  ASSERT_EQ(report.providers.size(), 1U);
  EXPECT_EQ(report.providers[0].input_tokens, 2500);
  EXPECT_EQ(report.providers[0].output_tokens, 0);
  EXPECT_NEAR(report.cost.total_usd, 0.00625, 1e-12);
}

TEST(WorldTest, TasksPilingUpPastTheInFlightLimitStopTheRun) {
  // One task per second for 10 s. With a limit of 0 the first arrival exceeds it.
  const Scenario scenario = test::inline_scenario(kSearchThenLlm);
  const Corpora corpora = load_corpora(scenario);
  World world(scenario, scenario.policy, corpora, 1, nullptr, RunLimits{0});
  try {
    world.run();
    FAIL() << "the limit was not enforced";
  } catch (const RunLimitExceeded& e) {
    EXPECT_STREQ(e.what(),
                 "at 0s of simulated time, more than 0 tasks were in flight (the limit) while tasks arrived at 1 "
                 "per second: tasks arrive faster than they finish, or the limit is too low for this workload");
  }
  // Ten tasks in all fit a limit of 10 whatever their latencies.
  World roomy(scenario, scenario.policy, corpora, 1, nullptr, RunLimits{10});
  EXPECT_EQ(roomy.run().tasks.total, 10U);
}

TEST(WorldTest, EmptySearchEndsAsSafeFailureNotFailure) {
  // A query that matches nothing, without simplification: the task ends with the
  // structured no_records_found answer, and the LLM is never called.
  std::string json(kSearchThenLlm);
  json.replace(json.find(R"("Acme Corp")"), 11, R"("zebra quantum")");
  const Scenario scenario = test::inline_scenario(json);
  const Report report = test::run_world(scenario, 1);
  EXPECT_EQ(test::count(report, TaskStatus::safe_failed), 10U);
  ASSERT_EQ(report.tasks.by_reason.size(), 1U);
  EXPECT_EQ(report.tasks.by_reason[0].reason, "no_records_found");
  EXPECT_EQ(report.tokens.input, 0);
}

TEST(WorldTest, SimplifiedQueryMakesTheTaskDegraded) {
  // "Acme Corp annual zebra unicorn lantern" matches nothing as sent, nor after
  // first_5_words ("... zebra unicorn"); first_3_words leaves "Acme Corp annual", which
  // matches "Acme Corp annual report 2023": every task succeeds, degraded.
  std::string json(kSearchThenLlm);
  json.replace(json.find(R"("Acme Corp")"), 11, R"("Acme Corp annual zebra unicorn lantern")");
  json.replace(json.find(R"("providers")"), 0,
               R"("policy": { "search": [ { "simplify_query": {} } ] },
  )");
  const Scenario scenario = test::inline_scenario(json);
  const Report report = test::run_world(scenario, 1);
  EXPECT_EQ(test::count(report, TaskStatus::degraded), 10U);
}

TEST(WorldTest, BudgetExhaustionIsASafeFailure) {
  // The LLM step projects 500 + snippets + 1000 output tokens, above a 1000-token budget.
  std::string json(kSearchThenLlm);
  json.replace(json.find(R"("providers")"), 0,
               R"("policy": { "llm": [ { "budget": { "max_tokens": 1000 } } ] },
  )");
  const Scenario scenario = test::inline_scenario(json);
  const Report report = test::run_world(scenario, 1);
  EXPECT_EQ(test::count(report, TaskStatus::safe_failed), 10U);
  ASSERT_EQ(report.tasks.by_reason.size(), 1U);
  EXPECT_EQ(report.tasks.by_reason[0].reason, "budget_exhausted");
}

TEST(WorldTest, PeakTasksInFlightCountsTheTasksThatOverlap) {
  // A task every 40 ms, each a single 100 ms search: when a task arrives, the two before
  // it (40 and 80 ms earlier) are still waiting for their answers and the one 120 ms
  // earlier has finished, so three tasks are in flight at every arrival after the second.
  const Scenario scenario = test::inline_scenario(R"({
    "name": "overlap",
    "duration": "1s",
    "workload": {
      "arrivals": { "process": "constant", "rate_per_s": 25 },
      "tasks": [ { "name": "t", "steps": [ { "tool": "search", "query_from": "q" } ] } ],
      "queries": { "q": [ "Acme Corp" ] }
    },
    "providers": {
      "search": { "type": "web_search", "corpus": "corpus.jsonl",
                  "latency": { "distribution": "constant", "value": "100ms" } }
    }
  })");
  const Corpora corpora = load_corpora(scenario);
  World world(scenario, scenario.policy, corpora, 1);
  EXPECT_EQ(world.run().tasks.total, 25U);
  EXPECT_EQ(world.peak_tasks_in_flight(), 3U);
}

}  // namespace
}  // namespace squall

namespace squall {
namespace {

TEST(WorldTest, InjectedFaultWindowsSumToTheTotals) {
  // The flagship incident's 429 storm: the time series carries every injected fault in
  // the window the chaos layer decided it, and the storm's faults fall in its window
  // (2 to 6 min for the search API's 429s), none after it.
  const Scenario scenario = test::file_scenario("scenarios/incidents/launch-surge-429-storm.json");
  const Report rep = test::run_world(scenario, 7);
  std::uint64_t total = 0;
  for (std::size_t f = 0; f < rep.injected_faults.size(); ++f) {
    std::uint64_t sum = 0;
    for (const TimeWindow& w : rep.time_series.windows) sum += w.injected_faults.at(f);
    EXPECT_EQ(sum, rep.injected_faults[f].count)
        << rep.injected_faults[f].provider << "/" << rep.injected_faults[f].kind;
    total += sum;
    if (rep.injected_faults[f].provider != "web_search" || rep.injected_faults[f].kind != "rate_limited") continue;
    for (const TimeWindow& w : rep.time_series.windows) {
      const bool in_storm = w.start >= 2 * kMinute && w.start < 6 * kMinute;
      if (!in_storm) {
        EXPECT_EQ(w.injected_faults.at(f), 0U) << "window at " << w.start;
      }
    }
  }
  EXPECT_GT(total, 1000U);
}

}  // namespace
}  // namespace squall

// The cache strategy through the whole stack (loader, world, web_search mock with chaos,
// recorder, report, thresholds), on timelines simple enough to count by hand.
#include <gtest/gtest.h>

#include "reports/json_writer.hpp"
#include "reports/text_summary.hpp"
#include "tests/sim/world_test_support.hpp"

namespace squall {
namespace {

std::uint64_t action(const CacheSummary& c, CacheAction a) { return c.by_action[static_cast<std::size_t>(a)]; }

// One task a second from 0 s to 119 s, all asking the same query; each search takes 200 ms
// and fails with a 500 from 30 s to 60 s. The cache keeps answers 10 s and may serve them
// up to a minute stale.
//   0 s: miss, stored at 0.2 s, fresh until 10.2 s; 1..10 s: hits.
//   11 s: miss, fresh until 21.2 s; 12..21 s: hits. 22 s: miss, fresh until 32.2 s; 23..32 s: hits.
//   33..59 s: 27 misses whose calls fail; each gets the 22.2 s answer stale, 11 s to 37 s
//   old (at most 27 s past its expiry, within the minute).
//   60 s: the fault window is over: miss, fresh until 70.2 s; then a miss every 11 s (71,
//   82, 93, 104, 115 s) and hits between.
// Misses: 3 + 27 + 6 = 36 (the provider calls); hits: 120 - 36 = 84, each saving one call.
constexpr const char* kStaleScenario = R"({
  "name": "cache-stale-if-error",
  "duration": "2m",
  "workload": {
    "arrivals": { "process": "constant", "rate_per_s": 1 },
    "tasks": [ { "name": "lookup", "deadline": "30s", "steps": [ { "tool": "search", "query_from": "q" } ] } ],
    "queries": { "q": [ "Acme Corp" ] }
  },
  "providers": {
    "search": { "type": "web_search", "corpus": "corpus.jsonl",
                "latency": { "distribution": "constant", "value": "200ms" },
                "faults": [ { "kind": "server_error", "probability": 1, "from": "30s", "to": "60s" } ] }
  },
  "policy": { "search": [ { "cache": { "ttl": "10s", "stale_if_error": "1m" } } ] },
  "thresholds": {
    "cache_hits{tool:search}": [ "count==84" ],
    "cache_misses": [ "count==36" ],
    "cache_stale{tool:search}": [ "count==27" ],
    "cache_stale_age{tool:search}": [ "p(50)==24s", "p(99)==37s", "max==37s" ],
    "cache_calls_saved": [ "sum==84" ],
    "task_success": [ "rate==1" ]
  }
})";

TEST(WorldCacheTest, StaleAnswersCoverAnOutageWithTheirAges) {
  const Report report = test::run_world(test::inline_scenario(kStaleScenario), 7);
  ASSERT_EQ(report.tasks.total, 120u);
  EXPECT_EQ(test::count(report, TaskStatus::failed), 0u);
  EXPECT_EQ(test::count(report, TaskStatus::degraded), 27u);
  ASSERT_EQ(report.tasks.by_reason.size(), 1u);
  EXPECT_EQ(report.tasks.by_reason[0].reason, "stale_cache");
  EXPECT_EQ(test::provider_calls(report), 36u);

  ASSERT_EQ(report.caches.size(), 1u);
  const CacheSummary& c = report.caches[0];
  EXPECT_EQ(c.tool, "search");
  EXPECT_EQ(action(c, CacheAction::hit), 84u);
  EXPECT_EQ(action(c, CacheAction::miss), 36u);
  EXPECT_EQ(action(c, CacheAction::stale), 27u);
  EXPECT_EQ(action(c, CacheAction::coalesced), 0u);
  EXPECT_EQ(action(c, CacheAction::evicted), 0u);
  EXPECT_EQ(c.calls_saved, 84u);
  EXPECT_EQ(c.stale_age.count, 27u);
  EXPECT_EQ(c.stale_age.p50_ms, 24'000);  // nearest rank 14 of 11, 12, ..., 37 s
  EXPECT_EQ(c.stale_age.p99_ms, 37'000);
  EXPECT_EQ(c.stale_age.max_ms, 37'000);
  for (const ThresholdResult& t : report.thresholds) EXPECT_TRUE(t.passed) << t.metric << " " << t.expression;

  const auto json = to_json(report);
  EXPECT_EQ(json["caches"]["search"]["hit"], 84);
  EXPECT_EQ(json["caches"]["search"]["stale_age_ms"]["p99"], 37000.0);
  const std::string text = text_summary(report, false);
  EXPECT_NE(text.find("hit=84 miss=36 coalesced=0 wait_timeout=0 stale=27 evicted=0 calls_saved=84"), std::string::npos)
      << text;
}

// Twenty tasks 50 ms apart ask the same query; a search takes 200 ms. The first misses,
// the next three (50, 100, 150 ms) wait for its call, and the rest (from 200 ms, when the
// answer has arrived) hit: one provider call for twenty tasks.
constexpr const char* kSingleFlightScenario = R"({
  "name": "cache-single-flight",
  "duration": "1s",
  "workload": {
    "arrivals": { "process": "constant", "rate_per_s": 20 },
    "tasks": [ { "name": "lookup", "steps": [ { "tool": "search", "query_from": "q" } ] } ],
    "queries": { "q": [ "Acme Corp" ] }
  },
  "providers": {
    "search": { "type": "web_search", "corpus": "corpus.jsonl",
                "latency": { "distribution": "constant", "value": "200ms" } }
  },
  "policy": { "search": [ { "cache": {} }, { "retry": {} } ] },
  "thresholds": { "cache_coalesced": [ "count==3" ], "provider_calls": [ "count==1" ] }
})";

TEST(WorldCacheTest, ConcurrentMissesShareOneProviderCall) {
  const Report report = test::run_world(test::inline_scenario(kSingleFlightScenario), 7);
  ASSERT_EQ(report.tasks.total, 20u);
  EXPECT_EQ(test::count(report, TaskStatus::succeeded), 20u);
  EXPECT_EQ(test::provider_calls(report), 1u);
  ASSERT_EQ(report.caches.size(), 1u);
  const CacheSummary& c = report.caches[0];
  EXPECT_EQ(action(c, CacheAction::miss), 1u);
  EXPECT_EQ(action(c, CacheAction::coalesced), 3u);
  EXPECT_EQ(action(c, CacheAction::hit), 16u);
  EXPECT_EQ(c.calls_saved, 19u);
  EXPECT_TRUE(report.all_thresholds_passed());
}

// A vector_search tool: ten tasks a second apart ask one question, and the cache, whose
// key holds the step's min_score and mode too, answers all but the first.
constexpr const char* kVectorScenario = R"({
  "name": "cache-vector-search",
  "duration": "10s",
  "workload": {
    "arrivals": { "process": "constant", "rate_per_s": 1 },
    "tasks": [ { "name": "t", "steps": [ { "tool": "kb", "query_from": "q", "min_score": 0.8 } ] } ],
    "queries": { "q": [ "Configure SAML single sign-on with Okta" ] }
  },
  "providers": {
    "kb": { "type": "vector_search", "corpus": "../../../scenarios/corpora/kb.jsonl",
            "latency": { "distribution": "constant", "value": "50ms" } }
  },
  "policy": { "kb": [ { "cache": { "ttl": "1m" } } ] }
})";

TEST(WorldCacheTest, CachesVectorSearchAnswers) {
  const Report report = test::run_world(test::inline_scenario(kVectorScenario), 1);
  ASSERT_EQ(report.tasks.total, 10u);
  EXPECT_EQ(test::count(report, TaskStatus::succeeded), 10u);
  EXPECT_EQ(test::provider_calls(report), 1u);
  ASSERT_EQ(report.caches.size(), 1u);
  EXPECT_EQ(action(report.caches[0], CacheAction::hit), 9u);
}

TEST(WorldCacheTest, SameSeedSameFingerprint) {
  const Scenario scenario = test::inline_scenario(kStaleScenario);
  EXPECT_EQ(test::run_world(scenario, 3).fingerprint, test::run_world(scenario, 3).fingerprint);
}

}  // namespace
}  // namespace squall

// The cache's events through the recorder, the report model, thresholds and both writers.
#include <gtest/gtest.h>

#include "reports/json_writer.hpp"
#include "reports/metric_values.hpp"
#include "reports/recorder.hpp"
#include "reports/report.hpp"
#include "reports/text_summary.hpp"

namespace squall {
namespace {

void cache(Recorder& r, std::string_view tool, CacheAction action, TimePoint at, Nanos age = 0,
           std::int32_t saved = 0) {
  r.on_cache(CacheEvent{1, tool, action, at, age, saved});
}

// "web": 3 hits (saving 1, 1 and 2 calls), 2 misses, 1 coalesced waiter (saving 1), 1 wait
// timeout, 4 stale answers 10, 20, 30 and 40 s old, 1 eviction. "docs": 1 miss.
void feed(Recorder& r) {
  cache(r, "web", CacheAction::miss, 0);
  cache(r, "web", CacheAction::hit, kSecond, 500 * kMillisecond, 1);
  cache(r, "web", CacheAction::hit, 2 * kSecond, 1500 * kMillisecond, 1);
  cache(r, "web", CacheAction::hit, 3 * kSecond, 2500 * kMillisecond, 2);
  cache(r, "web", CacheAction::coalesced, 3 * kSecond, 0, 1);
  cache(r, "web", CacheAction::wait_timeout, 4 * kSecond);
  cache(r, "docs", CacheAction::miss, 4 * kSecond);
  cache(r, "web", CacheAction::miss, 5 * kSecond);
  cache(r, "web", CacheAction::evicted, 5 * kSecond);
  for (int i = 1; i <= 4; ++i) cache(r, "web", CacheAction::stale, (5 + i) * kSecond, i * 10 * kSecond);
}

std::optional<double> observed(const Recorder& r, std::string_view metric, std::string_view expression) {
  auto t = parse_threshold(metric, expression);
  if (auto* error = std::get_if<std::string>(&t)) {
    ADD_FAILURE() << *error;
    return std::nullopt;
  }
  return observe(r, std::get<Threshold>(t), 10 * kSecond);
}

std::uint64_t action(const CacheSummary& c, CacheAction a) { return c.by_action[static_cast<std::size_t>(a)]; }

TEST(CacheReportTest, RecorderCountsActionsCallsSavedAndStaleAges) {
  Recorder r;
  feed(r);
  ASSERT_EQ(r.caches().size(), 2u);
  const CacheStats& web = r.caches()[0];  // first sight order
  EXPECT_EQ(web.name, "web");
  EXPECT_EQ(web.actions[static_cast<std::size_t>(CacheAction::hit)], 3u);
  EXPECT_EQ(web.calls_saved, 5u);
  EXPECT_EQ(web.stale_age.to_vector(),
            (std::vector<std::int64_t>{10 * kSecond, 20 * kSecond, 30 * kSecond, 40 * kSecond}));
  EXPECT_EQ(r.last_event_at(), 9 * kSecond);
}

TEST(CacheReportTest, ReportSortsCachesByToolWithStaleAgePercentiles) {
  Recorder r;
  feed(r);
  const Report rep = build_report(r, RunInfo{"s", 1, 10 * kSecond}, {});
  ASSERT_EQ(rep.caches.size(), 2u);
  EXPECT_EQ(rep.caches[0].tool, "docs");
  EXPECT_EQ(action(rep.caches[0], CacheAction::miss), 1u);
  EXPECT_EQ(rep.caches[0].stale_age.count, 0u);
  const CacheSummary& web = rep.caches[1];
  EXPECT_EQ(action(web, CacheAction::hit), 3u);
  EXPECT_EQ(action(web, CacheAction::miss), 2u);
  EXPECT_EQ(action(web, CacheAction::coalesced), 1u);
  EXPECT_EQ(action(web, CacheAction::wait_timeout), 1u);
  EXPECT_EQ(action(web, CacheAction::stale), 4u);
  EXPECT_EQ(action(web, CacheAction::evicted), 1u);
  EXPECT_EQ(web.calls_saved, 5u);
  // Nearest rank of 10, 20, 30, 40 s: p50 rank 2, p90 and p99 rank 4.
  EXPECT_EQ(web.stale_age.count, 4u);
  EXPECT_EQ(web.stale_age.p50_ms, 20'000);
  EXPECT_EQ(web.stale_age.p99_ms, 40'000);
  EXPECT_EQ(web.stale_age.max_ms, 40'000);
  EXPECT_EQ(web.stale_age.mean_ms, 25'000);
}

TEST(CacheReportTest, ThresholdsReadEveryCacheMetric) {
  Recorder r;
  feed(r);
  EXPECT_EQ(observed(r, "cache_hits", "count>0"), 3.0);
  EXPECT_EQ(observed(r, "cache_misses", "count>0"), 3.0);
  EXPECT_EQ(observed(r, "cache_misses{tool:docs}", "count>0"), 1.0);
  EXPECT_EQ(observed(r, "cache_coalesced{tool:web}", "count>0"), 1.0);
  EXPECT_EQ(observed(r, "cache_wait_timeouts", "count>0"), 1.0);
  EXPECT_EQ(observed(r, "cache_stale", "rate>0"), 0.4);  // 4 per 10 simulated seconds
  EXPECT_EQ(observed(r, "cache_evictions", "sum>0"), 1.0);
  EXPECT_EQ(observed(r, "cache_calls_saved{tool:web}", "sum>0"), 5.0);
  EXPECT_EQ(observed(r, "cache_stale_age", "p(99)<1s"), 40'000.0);
  EXPECT_EQ(observed(r, "cache_stale_age{tool:web}", "med<1s"), 20'000.0);
  EXPECT_EQ(observed(r, "cache_stale_age{tool:docs}", "max<1s"), std::nullopt);  // no samples
}

TEST(CacheReportTest, StaleAgeIsATimeMetric) {
  EXPECT_TRUE(std::holds_alternative<std::string>(parse_threshold("cache_stale_age", "p(99)<25")));
  EXPECT_TRUE(std::holds_alternative<std::string>(parse_threshold("cache_hits", "p(99)<25")));
}

TEST(CacheReportTest, JsonAndTextShowEveryCache) {
  Recorder r;
  feed(r);
  const Report rep = build_report(r, RunInfo{"s", 1, 10 * kSecond}, {});
  const auto j = to_json(rep);
  std::vector<std::string> keys;
  for (const auto& [key, value] : j["caches"]["web"].items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"hit", "miss", "coalesced", "wait_timeout", "stale", "evicted",
                                            "calls_saved", "stale_age_ms"}));
  EXPECT_EQ(j["caches"]["web"]["stale_age_ms"]["p50"], 20'000.0);
  EXPECT_EQ(j["caches"]["docs"]["stale_age_ms"]["p50"], nullptr);

  const std::string text = text_summary(rep, false);
  EXPECT_NE(text.find("cache web ....."), std::string::npos) << text;
  EXPECT_NE(text.find(": hit=3 miss=2 coalesced=1 wait_timeout=1 stale=4 evicted=1 calls_saved=5\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("stale age (ms) ....."), std::string::npos) << text;
  EXPECT_NE(text.find("p50=20000.000 p90=40000.000 p99=40000.000 max=40000.000 mean=25000.000"), std::string::npos);
}

TEST(CacheReportTest, CacheEventsArePartOfTheFingerprint) {
  Recorder a;
  Recorder b;
  feed(a);
  feed(b);
  EXPECT_EQ(a.fingerprint(), b.fingerprint());
  cache(b, "web", CacheAction::hit, 9 * kSecond, 1, 1);
  EXPECT_NE(a.fingerprint(), b.fingerprint());
  Recorder c;
  feed(c);
  cache(c, "web", CacheAction::hit, 9 * kSecond, 2, 1);  // only the age differs
  EXPECT_NE(b.fingerprint(), c.fingerprint());
}

}  // namespace
}  // namespace squall

// The capacity model in a whole run: 429s, 503s and queueing emerge from load, the report
// carries the capacity section, and capacity thresholds evaluate.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "sim/run.hpp"
#include "sim/scenario_loader.hpp"
#include "world_test_support.hpp"

namespace squall {
namespace {

std::string overloaded_tool(std::string_view policy) {
  return std::string(R"({
    "name": "capacity", "seed": 3, "duration": "60s",
    "workload": { "arrivals": { "process": "constant", "rate_per_s": 5 },
                  "tasks": [ { "name": "t", "deadline": "30s", "steps": [ { "tool": "crm" } ] } ] },
    "providers": { "crm": { "type": "tool", "latency": { "distribution": "constant", "value": "1s" },
                            "capacity": { "max_concurrency": 2, "queue_size": 4, "queue_timeout": "2s" } } },
    "policy": { "crm": )") +
         std::string(policy) + R"( },
    "thresholds": { "capacity_goodput{provider:crm}": ["rate<=2"], "capacity_queue_length": ["max==4"] }
  })";
}

TEST(WorldCapacityTest, OfferedLoadAboveTheSlotsIsQueuedAndRejected) {
  // 5 requests per second against 2 slots of 1 s: at most 2 answers per second; the
  // queue of 4 fills at once and the rest is rejected with 503.
  const Scenario scenario = test::inline_scenario(overloaded_tool("[]"));
  const Report report = test::run_world(scenario, 3);
  ASSERT_EQ(report.capacity.size(), 1U);
  const CapacityReport& c = report.capacity[0];
  EXPECT_EQ(c.provider, "crm");
  EXPECT_EQ(c.arrivals, 300U);
  EXPECT_EQ(c.max_in_flight, 2);
  EXPECT_EQ(c.max_queue, 4);
  EXPECT_GT(c.queue_full, 150U);
  // 2 per second for 60 s, plus the 2 in service and 4 queued when arrivals stop.
  EXPECT_LE(c.goodput, 126U);
  EXPECT_GE(c.goodput, 120U);
  EXPECT_EQ(c.goodput + c.queue_full + c.queue_timeouts, 300U);
  ASSERT_EQ(c.windows.size(), report.time_series.windows.size());
  // A window in the steady state: 50 arrivals, 20 answers, queue full throughout.
  EXPECT_EQ(c.windows[2].arrivals, 50U);
  EXPECT_EQ(c.windows[2].goodput, 20U);
  EXPECT_EQ(c.windows[2].in_flight_mean, 2.0);
  EXPECT_TRUE(report.all_thresholds_passed());
}

TEST(WorldCapacityTest, RetriesOfRejectedCallsAddOfferedLoadButNoGoodput) {
  // The same load with immediate retries: the server answers no more (2 per second), but
  // sees more requests.
  const Scenario scenario = test::inline_scenario(
      overloaded_tool(R"([ { "retry": { "max_attempts": 4, "backoff": "constant", "base_delay": "0s",
                                         "jitter": "none", "retry_on": ["overloaded"] } } ])"));
  const Report report = test::run_world(scenario, 3);
  ASSERT_EQ(report.capacity.size(), 1U);
  const CapacityReport& c = report.capacity[0];
  EXPECT_GT(c.arrivals, 600U);
  EXPECT_LE(c.goodput, 126U);
}

// A server at utilisation 0.8 (10 slots, exponential service of mean 1 s, Poisson arrivals
// at 8/s, a deep queue) loses 6 of its slots for one minute. Clients time out after 3 s.
std::string drop_scenario(int max_attempts) {
  return fmt::format(R"({{
    "name": "metastable", "seed": 5, "duration": "6m",
    "workload": {{ "arrivals": {{ "process": "poisson", "rate_per_s": 8 }},
                  "tasks": [ {{ "name": "t", "deadline": "30s", "steps": [ {{ "tool": "crm" }} ] }} ] }},
    "providers": {{ "crm": {{ "type": "tool", "latency": {{ "distribution": "exponential", "mean": "1s" }},
                            "capacity": {{ "max_concurrency": 10, "queue_size": 1000, "queue_timeout": "60s",
                                          "drops": [ {{ "from": "1m", "to": "2m", "max_concurrency": 4 }} ] }} }} }},
    "policy": {{ "crm": [ {{ "retry": {{ "max_attempts": {}, "backoff": "constant", "base_delay": "0s",
                                      "jitter": "none", "retry_on": ["timeout", "overloaded"] }} }},
                         {{ "timeout": {{ "per_attempt": "3s" }} }} ] }}
  }})",
                     max_attempts);
}

// Goodput per second over the report windows [from, to).
double goodput_per_s(const CapacityReport& c, std::size_t from, std::size_t to) {
  std::uint64_t n = 0;
  for (std::size_t w = from; w < to; ++w) n += c.windows[w].goodput;
  return static_cast<double>(n) / (10.0 * static_cast<double>(to - from));
}

TEST(WorldCapacityTest, NaiveRetriesKeepTheServerOverloadedAfterADrop) {
  // Without retries the queue drains within about a minute of the drop's end and goodput
  // returns to the arrival rate. With 4 immediate attempts per call, every timed-out
  // attempt still holds its queue place and then a slot (wasted work) while its retry
  // adds another request: the queue never drains and goodput stays near 0 for the rest of
  // the run, long after the trigger has gone (a metastable failure).
  const Scenario calm = test::inline_scenario(drop_scenario(1));
  const Scenario storm = test::inline_scenario(drop_scenario(4));
  const Report calm_report = test::run_world(calm, 5);
  const Report storm_report = test::run_world(storm, 5);
  const CapacityReport& c = calm_report.capacity.at(0);
  const CapacityReport& s = storm_report.capacity.at(0);
  // Before the drop both serve the arrivals (8/s).
  EXPECT_GT(goodput_per_s(c, 0, 6), 7.0);
  EXPECT_GT(goodput_per_s(s, 0, 6), 7.0);
  // Minutes 4-6, two minutes after the drop ended.
  EXPECT_GT(goodput_per_s(c, 24, 36), 7.0);
  EXPECT_LT(goodput_per_s(s, 24, 36), 1.0);
  EXPECT_GT(s.wasted_requests, 2 * c.wasted_requests);
  EXPECT_GT(s.abandoned, 3 * c.abandoned);
  EXPECT_GT(s.arrivals, 3 * c.arrivals);
}

}  // namespace
}  // namespace squall

namespace squall {
namespace {

TEST(WorldCapacityTest, ShippedRetryStormIncidentRecoversOnlyUnderItsRetryThrottle) {
  // scenarios/incidents/internal-api-retry-storm.json at its seed: under gRPC's retry
  // throttle goodput is back 90 s after the one-minute drop (the end of the 10 s window
  // at 4:30, the drop ended at 3:00); under immediate retries it never is, and the
  // recovery time is the rest of the run.
  const PreparedScenario prepared(test::file_scenario("scenarios/incidents/internal-api-retry-storm.json"));
  const auto naive =
      load_policy_file(std::string(SQUALL_SOURCE_DIR) + "/scenarios/policies/internal-api-naive-retry.json");
  ASSERT_TRUE(naive.ok());
  const Report careful = prepared.run(11, Provenance{});
  const Report storm = prepared.run(*naive.policy, 11, Provenance{});
  ASSERT_TRUE(careful.capacity.at(0).recovery.has_value());
  EXPECT_TRUE(careful.capacity[0].recovery->recovered);
  EXPECT_EQ(careful.capacity[0].recovery->time, 90 * kSecond);
  ASSERT_TRUE(storm.capacity.at(0).recovery.has_value());
  EXPECT_FALSE(storm.capacity[0].recovery->recovered);
  EXPECT_EQ(storm.capacity[0].recovery->time, storm.duration - 3 * kMinute);
  EXPECT_GT(storm.capacity[0].wasted_requests, 2 * careful.capacity[0].wasted_requests);
}

TEST(WorldCapacityTest, ShippedRetryStormIncidentIsMetastableNotPlainlyUnstable) {
  // The naive client (four immediate retries) of the same incident, over ten seeds. Without
  // the trigger (the capacity drop removed) the server is healthy: every task succeeds and
  // under 0.2% of requests are abandoned (the few whose service time, in the tail, passes
  // the 3 s timeout), so immediate retries alone do not overload it. With the trigger
  // goodput never comes back, long after the drop's end at 3:00, and over the run fewer
  // than a third of the tasks succeed.
  Scenario calm = test::file_scenario("scenarios/incidents/internal-api-retry-storm.json");
  calm.providers.at(0).capacity->drops.clear();
  const PreparedScenario healthy(std::move(calm));
  const PreparedScenario triggered(test::file_scenario("scenarios/incidents/internal-api-retry-storm.json"));
  const auto naive =
      load_policy_file(std::string(SQUALL_SOURCE_DIR) + "/scenarios/policies/internal-api-naive-retry.json");
  ASSERT_TRUE(naive.ok());
  const auto succeeded = [](const Report& r) {
    return r.tasks.by_status[static_cast<std::size_t>(TaskStatus::succeeded)] +
           r.tasks.by_status[static_cast<std::size_t>(TaskStatus::degraded)];
  };
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    SCOPED_TRACE(seed);
    const Report before = healthy.run(*naive.policy, seed, Provenance{});
    EXPECT_EQ(succeeded(before), before.tasks.total);
    EXPECT_LT(before.capacity.at(0).wasted_requests, before.tasks.total / 500);
    const Report after = triggered.run(*naive.policy, seed, Provenance{});
    ASSERT_TRUE(after.capacity.at(0).recovery.has_value());
    EXPECT_FALSE(after.capacity[0].recovery->recovered);
    EXPECT_LT(succeeded(after), after.tasks.total / 3);
  }
}

}  // namespace
}  // namespace squall

// The capacity model in a whole run: 429s, 503s and queueing emerge from load, the report
// carries the capacity section, and capacity thresholds evaluate.
#include <gtest/gtest.h>

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
    "policy": { "crm": )") + std::string(policy) + R"( },
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

}  // namespace
}  // namespace squall

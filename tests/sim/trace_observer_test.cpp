// A run's observer (the JSONL trace's way in) sees every event the recorder sees, in the
// same order, and changes nothing about the run.
#include <gtest/gtest.h>

#include "reports/json_writer.hpp"
#include "reports/recorder.hpp"
#include "reports/writers/trace_writer.hpp"
#include "sim/run.hpp"
#include "world_test_support.hpp"

namespace squall {
namespace {

// Counts events by type, through the generated list so that a new event is counted too.
class CountingSink final : public EventSink {
 public:
#define SQUALL_COUNT_HANDLER(handler, Event, trace_name) \
  void handler(const Event&) override { ++counts[trace_name]; }
  SQUALL_EVENTS(SQUALL_COUNT_HANDLER)
#undef SQUALL_COUNT_HANDLER
  std::map<std::string, std::uint64_t> counts;
};

TEST(TraceObserverTest, SeesEveryEventAndLeavesTheReportUnchanged) {
  const PreparedScenario prepared(test::file_scenario("scenarios/incidents/openai-outage-model-fallback.json"));
  const Report plain = prepared.run(17, Provenance{});
  CountingSink counts;
  const Report observed = prepared.run(17, Provenance{}, &counts);
  EXPECT_EQ(to_json_text(observed), to_json_text(plain));
  EXPECT_EQ(counts.counts["task_finished"], plain.tasks.total);
  std::uint64_t attempts = 0;
  for (const ProviderSummary& p : plain.providers) attempts += p.calls;
  EXPECT_EQ(counts.counts["attempt"], attempts);
  EXPECT_EQ(counts.counts["breaker_transition"], plain.breaker_transitions_total);
  EXPECT_GT(counts.counts["fallback"], 0U);
  EXPECT_GT(counts.counts["escalation"], 0U);
}

TEST(TraceObserverTest, TheTraceIsTheSameForTheSameSeed) {
  const PreparedScenario prepared(test::file_scenario("scenarios/incidents/launch-surge-429-storm.json"));
  std::string traces[2];
  for (std::string& out : traces) {
    TraceWriter trace([&out](std::string_view piece) { out += piece; }, TraceHeader{"launch", 7, "test"});
    const Report report = prepared.run(7, Provenance{}, &trace);
    trace.finish(report);
  }
  EXPECT_EQ(traces[0], traces[1]);
  EXPECT_GT(traces[0].size(), 1'000'000U);
}

}  // namespace
}  // namespace squall

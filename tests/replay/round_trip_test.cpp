// A shipped incident run with the OTLP export, read back and grouped: the grouping must
// recover the run's tasks, logical calls and attempts exactly, and the attempts' counts by
// provider and outcome must equal the report's.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "cli/run_outputs.hpp"
#include "engine/tee_sink.hpp"
#include "replay/grouping.hpp"
#include "replay/otlp_reader.hpp"
#include "reports/writers/otlp_writer.hpp"
#include "sim/run.hpp"
#include "sim/scenario_loader.hpp"

namespace squall::replay {
namespace {

struct Exported {
  Report report;
  std::string otlp;
  std::uint64_t calls_that_sent = 0;  // logical calls with at least one attempt
};

// Counts the logical calls that sent a request: a call an open breaker or a budget refused
// before any attempt has no span, in squall's export as in any client's trace.
class SentCalls final : public EventSink {
 public:
  void on_logical_call(const LogicalCallEvent& e) override { count += e.attempts > 0 ? 1 : 0; }
  std::uint64_t count = 0;
};

Exported run_exported(const std::string& relative_path) {
  LoadResult loaded = load_scenario(std::string(SQUALL_SOURCE_DIR) + "/" + relative_path);
  EXPECT_TRUE(loaded.errors.empty()) << relative_path;
  const PreparedScenario prepared(std::move(*loaded.scenario));
  const std::uint64_t seed = prepared.scenario().seed;
  Exported out;
  OtlpWriter writer([&out](std::string_view piece) { out.otlp += piece; },
                    cli::otlp_run_info(prepared.scenario(), seed));
  SentCalls sent;
  TeeSink both(writer, sent);
  out.report = prepared.run(seed, Provenance{}, &both);
  writer.finish();
  out.calls_that_sent = sent.count;
  return out;
}

void expect_recovered(const std::string& scenario) {
  SCOPED_TRACE(scenario);
  const Exported run = run_exported(scenario);
  TraceData data;
  read_otlp_text(run.otlp, "export.json", data);
  EXPECT_EQ(data.counts.duplicates, 0U);
  EXPECT_EQ(data.counts.orphans, 0U);
  EXPECT_EQ(data.counts.unknown_attributes, 0U);
  EXPECT_EQ(data.counts.unclassified_errors, 0U);
  const Grouping g = group_attempts(data);
  EXPECT_EQ(g.counts.tasks, run.report.tasks.total);
  EXPECT_EQ(g.counts.calls, run.calls_that_sent);
  EXPECT_EQ(g.counts.joined_by_timing, 0U);
  EXPECT_EQ(g.counts.resends_without_first, 0U);

  std::map<std::string, OutcomeCounts> by_provider;
  for (const AttemptRecord& a : data.attempts) ++by_provider[a.provider][index_of(a.outcome)];
  std::uint64_t attempts = 0;
  for (const ProviderSummary& p : run.report.providers) {
    attempts += p.calls;
    if (p.calls == 0) continue;
    // A cut answer is a success to the report (counted apart as truncated) and `truncated`
    // to the trace's reader (finish_reason "length"): the same attempts.
    OutcomeCounts replayed = by_provider[p.name];
    EXPECT_EQ(replayed[index_of(OutcomeKind::truncated)], p.truncated) << p.name;
    replayed[index_of(OutcomeKind::success)] += replayed[index_of(OutcomeKind::truncated)];
    replayed[index_of(OutcomeKind::truncated)] = 0;
    EXPECT_EQ(replayed, p.by_outcome) << p.name;
  }
  EXPECT_EQ(g.counts.attempts, attempts);
  EXPECT_EQ(data.attempts.size(), attempts);
  // Every fallback the report counts is a call that reached a second provider.
  std::uint64_t switched = 0;
  for (const FallbackRow& f : run.report.fallbacks) {
    if (f.action == FallbackAction::switched) switched += f.count;
  }
  if (switched > 0) {
    EXPECT_GT(g.counts.fallback_calls, 0U);
  }
}

TEST(RoundTripTest, LaunchSurgeRecoversTasksCallsAndAttempts) {
  expect_recovered("scenarios/incidents/launch-surge-429-storm.json");
}

TEST(RoundTripTest, OpenAiOutageWithModelFallbackRecoversTasksCallsAndAttempts) {
  expect_recovered("scenarios/incidents/openai-outage-model-fallback.json");
}

TEST(RoundTripTest, InternalApiRetryStormRecoversTasksCallsAndAttempts) {
  expect_recovered("scenarios/incidents/internal-api-retry-storm.json");
}

TEST(RoundTripTest, TheExportIsTheSameBytesForTheSameSeed) {
  EXPECT_EQ(run_exported("scenarios/incidents/launch-surge-429-storm.json").otlp,
            run_exported("scenarios/incidents/launch-surge-429-storm.json").otlp);
}

}  // namespace
}  // namespace squall::replay

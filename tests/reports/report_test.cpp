#include "reports/report.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "engine/call.hpp"
#include "sample_run.hpp"

namespace squall {
namespace {

std::vector<Threshold> thresholds(std::initializer_list<std::pair<std::string_view, std::string_view>> list) {
  std::vector<Threshold> out;
  for (const auto& [metric, expression] : list) out.push_back(std::get<Threshold>(parse_threshold(metric, expression)));
  return out;
}

Report sample_report(const std::vector<Threshold>& ts = {}) {
  Recorder r;
  test_support::feed_sample_run(r);
  return build_report(r, RunInfo{"sample", 7, 30 * kSecond}, ts);
}

TEST(ReportTest, CountsAnswersByVerdictAndDegradationPath) {
  Recorder r;
  const auto bit = [](Degradation d) { return std::uint32_t{1} << static_cast<unsigned>(d); };
  const auto task = [&](std::uint64_t id, TaskStatus status, std::uint32_t path, std::optional<AnswerVerdict> answer) {
    TaskResult t{id, "rag", 0, kSecond, status, ""};
    t.degradations = path;
    t.answer = answer;
    r.on_task_finished(t);
  };
  const std::uint32_t relaxed = bit(Degradation::relaxed_threshold);
  const std::uint32_t keyword = bit(Degradation::relaxed_threshold) | bit(Degradation::keyword_fallback);
  task(1, TaskStatus::succeeded, 0, AnswerVerdict::answered);
  task(2, TaskStatus::degraded, relaxed, AnswerVerdict::answered);
  task(3, TaskStatus::wrong_answer, keyword, AnswerVerdict::answered_wrongly);
  task(4, TaskStatus::safe_failed, keyword, AnswerVerdict::not_answered);
  task(5, TaskStatus::succeeded, 0, std::nullopt);  // no ground truth: not counted
  const Report rep = build_report(r, RunInfo{"rag", 1, 10 * kSecond},
                                  thresholds({{"answered", "rate>=0.5"}, {"answered_wrongly", "rate<0.2"}}));
  EXPECT_EQ(rep.answers.total(), 4U);
  EXPECT_EQ(rep.answers.by_verdict, (AnswerCounts{2, 1, 1}));
  ASSERT_EQ(rep.answers.by_path.size(), 3U);
  EXPECT_EQ(rep.answers.by_path[0].path, "clean");
  EXPECT_EQ(rep.answers.by_path[0].by_verdict, (AnswerCounts{1, 0, 0}));
  EXPECT_EQ(rep.answers.by_path[1].path, "relaxed_threshold");
  EXPECT_EQ(rep.answers.by_path[1].by_verdict, (AnswerCounts{1, 0, 0}));
  EXPECT_EQ(rep.answers.by_path[2].path, "relaxed_threshold+keyword_fallback");
  EXPECT_EQ(rep.answers.by_path[2].by_verdict, (AnswerCounts{0, 1, 1}));
  // Rates among the four tasks with ground truth: 2/4 answered, 1/4 answered wrongly.
  ASSERT_EQ(rep.thresholds.size(), 2U);
  EXPECT_EQ(rep.thresholds[0].observed, 0.5);
  EXPECT_TRUE(rep.thresholds[0].passed);
  EXPECT_EQ(rep.thresholds[1].observed, 0.25);
  EXPECT_FALSE(rep.thresholds[1].passed);
  // task_success does not count the wrong answer.
  EXPECT_EQ(rep.tasks.by_status[index_of(TaskStatus::wrong_answer)], 1U);
}

TEST(ReportTest, SummarisesTasks) {
  const Report rep = sample_report();
  EXPECT_EQ(rep.scenario, "sample");
  EXPECT_EQ(rep.seed, 7U);
  EXPECT_EQ(rep.tasks.total, 4U);
  EXPECT_EQ(rep.tasks.by_status, (StatusCounts{1, 1, 0, 2, 0}));
  // Sorted by status (degraded before failed), then by reason.
  ASSERT_EQ(rep.tasks.by_reason.size(), 3U);
  EXPECT_EQ(rep.tasks.by_reason[0].reason, "simplified_query");
  EXPECT_EQ(rep.tasks.by_reason[1].reason, "circuit_open");
  EXPECT_EQ(rep.tasks.by_reason[2].reason, "timeout");
  ASSERT_EQ(rep.tasks.by_template.size(), 2U);
  EXPECT_EQ(rep.tasks.by_template[0].name, "lookup");
  // Task durations 0, 1000, 3500, 10300 ms.
  EXPECT_EQ(rep.latency.count, 4U);
  EXPECT_EQ(rep.latency.p50_ms, 1000);
  EXPECT_EQ(rep.latency.p90_ms, 10'300);
  EXPECT_EQ(rep.latency.mean_ms, 3700);
}

TEST(ReportTest, SortsProvidersAndToolsByName) {
  const Report rep = sample_report();
  ASSERT_EQ(rep.providers.size(), 2U);
  EXPECT_EQ(rep.providers[0].name, "llm");
  EXPECT_EQ(rep.providers[1].name, "web_search");
  EXPECT_EQ(rep.providers[1].calls, 5U);
  EXPECT_EQ(rep.providers[1].latency.max_ms, 1000);
  ASSERT_EQ(rep.tools.size(), 2U);
  EXPECT_EQ(rep.tools[0].name, "llm");
  EXPECT_EQ(rep.tools[0].amplification, 2.0 / 3.0);
  EXPECT_EQ(rep.tools[1].amplification, 5.0 / 3.0);
  EXPECT_EQ(rep.retry_amplification, 7.0 / 6.0);
}

TEST(ReportTest, SumsTokensAndCost) {
  const Report rep = sample_report();
  EXPECT_EQ(rep.tokens.input, 2400);
  EXPECT_EQ(rep.tokens.output, 500);
  EXPECT_EQ(rep.tokens.burned_by_failed_attempts, 1300);
  EXPECT_DOUBLE_EQ(rep.cost.total_usd, 0.0088);
  EXPECT_DOUBLE_EQ(rep.cost.burned_by_failed_attempts_usd, 0.0032);
  EXPECT_DOUBLE_EQ(*rep.cost.per_task_usd, 0.0022);
  ASSERT_EQ(rep.cost.per_provider_usd.size(), 2U);
  EXPECT_EQ(rep.cost.per_provider_usd[0].first, "llm");
}

TEST(ReportTest, AnAnswerValidateRejectedIsBurnedByAFailedAttempt) {
  // The attempt ended `success` (a 200 with a malformed completion); validate made it
  // invalid_output, and what it billed moves to what failed attempts burned.
  Recorder r;
  r.on_attempt(AttemptEvent{1, "answer", "llm", 1, 0, kSecond, OutcomeKind::success, 200, 100, 300, 0.002});
  r.on_validation_failed(ValidationFailedEvent{1, "answer", "llm", "json", kSecond, 100, 300, 0.002});
  r.on_attempt(AttemptEvent{1, "answer", "llm", 2, kSecond, 2 * kSecond, OutcomeKind::success, 200, 100, 200, 0.0015});
  const Report rep = build_report(r, RunInfo{"validate", 1, 10 * kSecond}, {});
  EXPECT_EQ(rep.tokens.input, 200);
  EXPECT_EQ(rep.tokens.output, 500);
  EXPECT_EQ(rep.tokens.burned_by_failed_attempts, 400);
  EXPECT_DOUBLE_EQ(rep.cost.total_usd, 0.0035);
  EXPECT_DOUBLE_EQ(rep.cost.burned_by_failed_attempts_usd, 0.002);
}

TEST(ReportTest, ListsBreakerTransitionsAndInjectedFaults) {
  const Report rep = sample_report();
  ASSERT_EQ(rep.breaker_transitions.size(), 1U);
  EXPECT_EQ(rep.breaker_transitions[0].tool, "llm");
  EXPECT_EQ(rep.breaker_transitions[0].at, 22'300 * kMillisecond);
  EXPECT_EQ(rep.breaker_transitions_total, 1U);
  ASSERT_EQ(rep.injected_faults.size(), 2U);
  EXPECT_EQ(rep.injected_faults[0].provider, "llm");
  EXPECT_EQ(rep.injected_faults[1].kind, "rate_limited");
  // Each window holds a count per injected-fault row, in the rows' order.
  ASSERT_EQ(rep.time_series.windows.size(), 3U);
  EXPECT_EQ(rep.time_series.windows[0].injected_faults, (std::vector<std::uint64_t>{0, 1}));
  EXPECT_EQ(rep.time_series.windows[1].injected_faults, (std::vector<std::uint64_t>{1, 0}));
  EXPECT_EQ(rep.time_series.windows[2].injected_faults, (std::vector<std::uint64_t>{0, 0}));
}

TEST(ReportTest, FaultWindowsExtendTheTimeSeries) {
  // A fault decided in window 4 of a 20 s run (windows 0-1) still has its window.
  Recorder r;
  r.set_injected_faults("p", "timeout", 1, {0, 0, 0, 0, 1});
  const Report rep = build_report(r, RunInfo{"x", 1, 20 * kSecond}, {});
  ASSERT_EQ(rep.time_series.windows.size(), 5U);
  EXPECT_EQ(rep.time_series.windows[4].injected_faults, (std::vector<std::uint64_t>{1}));
}

TEST(ReportTest, EvaluatesThresholds) {
  const Report rep = sample_report(thresholds({
      {"task_success", "rate>=0.5"},                     // 0.5: holds
      {"task_latency", "p(99)<10s"},                     // 10300 ms: fails
      {"cost_usd", "sum<=0.01"},                         // 0.0088: holds
      {"call_latency{outcome:overloaded}", "p(99)<1s"},  // no samples: fails
  }));
  ASSERT_EQ(rep.thresholds.size(), 4U);
  EXPECT_TRUE(rep.thresholds[0].passed);
  EXPECT_EQ(rep.thresholds[0].observed, 0.5);
  EXPECT_FALSE(rep.thresholds[1].passed);
  EXPECT_EQ(rep.thresholds[1].observed, 10'300.0);
  EXPECT_EQ(rep.thresholds[1].expression, "p(99)<10s");
  EXPECT_TRUE(rep.thresholds[2].passed);
  EXPECT_FALSE(rep.thresholds[3].passed);
  EXPECT_EQ(rep.thresholds[3].observed, std::nullopt);
  EXPECT_FALSE(rep.all_thresholds_passed());
  EXPECT_TRUE(sample_report(thresholds({{"task_success", "rate>=0.5"}})).all_thresholds_passed());
  EXPECT_TRUE(sample_report().all_thresholds_passed());
}

TEST(ReportTest, TimeSeriesCoversTheRun) {
  Recorder r;
  test_support::feed_sample_run(r);
  // 30 s in 10 s windows is 3 windows; a 45 s run is 5 even though nothing ends after 26 s.
  const Report rep = build_report(r, RunInfo{"sample", 7, 45 * kSecond}, {});
  ASSERT_EQ(rep.time_series.windows.size(), 5U);
  EXPECT_EQ(rep.time_series.window, 10 * kSecond);
  EXPECT_EQ(rep.time_series.windows[2].start, 20 * kSecond);
  EXPECT_EQ(rep.time_series.windows[2].tasks, (StatusCounts{0, 1, 0, 2}));
  // provider_calls follow Report::providers: llm, web_search.
  EXPECT_EQ(rep.time_series.windows[2].provider_calls[0][index_of(OutcomeKind::timeout)], 1U);
  EXPECT_EQ(rep.time_series.windows[1].provider_calls[1][index_of(OutcomeKind::empty)], 1U);
  EXPECT_EQ(rep.time_series.windows[4].tasks, StatusCounts{});
}

TEST(ReportTest, LadderRowsCountRungsPerToolInLadderOrder) {
  // Events arrive in any order; rows are sorted by tool, strategy, then the rung's place
  // on its ladder (not its name: "keyword" after "dense 0.7").
  Recorder r;
  const auto relax = [&r](std::string_view tool, std::int32_t rung, std::string_view label) {
    r.on_threshold_relax(ThresholdRelaxEvent{1, tool, rung, label, 0, 0, SearchMode::dense});
  };
  relax("search", 3, "keyword");
  relax("search", 1, "dense 0.75");
  relax("search", 2, "dense 0.7");
  relax("search", 1, "dense 0.75");
  relax("docs", 1, "dense 0.75");
  RewriteEvent rewrite;
  rewrite.tool = "search";
  rewrite.provider = "gpt";
  rewrite.result = RewriteResult::paraphrase;
  r.on_rewrite(rewrite);
  rewrite.result = RewriteResult::intended;
  r.on_rewrite(rewrite);
  r.on_rewrite(rewrite);
  const Report rep = build_report(r, RunInfo{"ladder", 1, 0}, {});
  std::vector<std::string> rows;
  for (const LadderRow& l : rep.ladder) rows.push_back(fmt::format("{} {} {}={}", l.tool, l.strategy, l.rung, l.count));
  EXPECT_EQ(rows, (std::vector<std::string>{"docs relax_threshold dense 0.75=1", "search relax_threshold dense 0.75=2",
                                            "search relax_threshold dense 0.7=1", "search relax_threshold keyword=1",
                                            "search rewrite_query intended=2", "search rewrite_query paraphrase=1"}));
}

TEST(ReportTest, EmptyRunHasUndefinedRatios) {
  const Report rep = build_report(Recorder(), RunInfo{"empty", 1, 0}, {});
  EXPECT_EQ(rep.tasks.total, 0U);
  EXPECT_EQ(rep.latency.count, 0U);
  EXPECT_EQ(rep.retry_amplification, std::nullopt);
  EXPECT_EQ(rep.cost.per_task_usd, std::nullopt);
  EXPECT_TRUE(rep.time_series.windows.empty());
}

}  // namespace
}  // namespace squall

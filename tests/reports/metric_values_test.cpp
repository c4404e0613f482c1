#include "reports/metric_values.hpp"

#include <gtest/gtest.h>

#include "sample_run.hpp"

namespace squall {
namespace {

constexpr Nanos kDuration = 30 * kSecond;

// The value a threshold observes on the sample run (tests/reports/sample_run.hpp).
std::optional<double> observed(std::string_view metric, std::string_view expression, Nanos duration = kDuration) {
  Recorder r;
  test_support::feed_sample_run(r);
  auto t = parse_threshold(metric, expression);
  if (auto* error = std::get_if<std::string>(&t)) {
    ADD_FAILURE() << *error;
    return std::nullopt;
  }
  return observe(r, std::get<Threshold>(t), duration);
}

TEST(MetricValuesTest, TaskRates) {
  // 4 tasks: 1 succeeded, 1 degraded, 2 failed.
  EXPECT_EQ(observed("task_success", "rate>0"), 0.5);
  EXPECT_EQ(observed("task_degraded", "rate>0"), 0.25);
  EXPECT_EQ(observed("task_safe_fail", "rate>0"), 0.0);
  EXPECT_EQ(observed("task_failed", "rate>0"), 0.5);
  // "lookup": task 3 failed, task 4 degraded.
  EXPECT_EQ(observed("task_success{template:lookup}", "rate>0"), 0.5);
  EXPECT_EQ(observed("task_failed{template:research}", "rate>0"), 0.5);
}

TEST(MetricValuesTest, TaskLatencyAggregations) {
  // Task durations, sorted: 0, 1000, 3500, 10300 ms.
  EXPECT_EQ(observed("task_latency", "min<1ms"), 0.0);
  EXPECT_EQ(observed("task_latency", "max<1ms"), 10'300.0);
  EXPECT_EQ(observed("task_latency", "avg<1ms"), 3700.0);    // 14800 / 4
  EXPECT_EQ(observed("task_latency", "med<1ms"), 1000.0);    // rank ceil(2) = 2
  EXPECT_EQ(observed("task_latency", "p(75)<1ms"), 3500.0);  // rank ceil(3) = 3
  EXPECT_EQ(observed("task_latency", "p(76)<1ms"), 10'300.0);
  EXPECT_EQ(observed("task_latency{template:research}", "min<1ms"), 3500.0);
}

TEST(MetricValuesTest, PerTaskSpendIsATrend) {
  // Tokens per task, sorted: 0, 0 (the lookups), 1300, 1600; USD 0, 0, 0.0032, 0.0056.
  EXPECT_EQ(observed("task_tokens", "p(50)<1"), 0.0);  // rank 2
  EXPECT_EQ(observed("task_tokens", "p(75)<1"), 1300.0);
  EXPECT_EQ(observed("task_tokens", "p(99)<1"), 1600.0);
  EXPECT_EQ(observed("task_tokens", "max<1"), 1600.0);
  EXPECT_EQ(observed("task_tokens", "avg<1"), 725.0);  // 2900 / 4
  EXPECT_EQ(observed("task_tokens{template:research}", "min<1"), 1300.0);
  EXPECT_EQ(observed("task_cost_usd", "p(99)<1"), 0.0056);
  EXPECT_EQ(observed("task_cost_usd", "p(75)<1"), 0.0032);
  EXPECT_DOUBLE_EQ(*observed("task_cost_usd", "avg<1"), 0.0022);
  EXPECT_EQ(observed("task_cost_usd{template:lookup}", "max<1"), 0.0);
  EXPECT_EQ(observed("task_cost_usd{template:nothing}", "max<1"), std::nullopt);
}

TEST(MetricValuesTest, PerTaskSpendTakesTrendAggregationsOnly) {
  EXPECT_TRUE(std::holds_alternative<std::string>(parse_threshold("task_tokens", "sum<5")));
  EXPECT_TRUE(std::holds_alternative<std::string>(parse_threshold("task_cost_usd", "rate<5")));
  EXPECT_TRUE(std::holds_alternative<std::string>(parse_threshold("task_cost_usd", "p(99)<5s")));
  EXPECT_TRUE(std::holds_alternative<Threshold>(parse_threshold("task_cost_usd{template:research}", "p(99)<0.01")));
}

TEST(MetricValuesTest, CallLatencyBySubMetric) {
  // web_search attempts: 200 (rate_limited), 300, 100 (empty), 200, 1000 ms.
  EXPECT_EQ(observed("call_latency{provider:web_search}", "max<1ms"), 1000.0);
  EXPECT_EQ(observed("call_latency{provider:web_search}", "med<1ms"), 200.0);                  // 100 200 200 300 1000
  EXPECT_EQ(observed("call_latency{provider:web_search,outcome:success}", "avg<1ms"), 500.0);  // 1500 / 3
  EXPECT_EQ(observed("call_latency{outcome:timeout}", "p(99)<1ms"), 10'000.0);
}

TEST(MetricValuesTest, CounterAggregations) {
  // 7 attempts in all: web_search 5, llm 2.
  EXPECT_EQ(observed("provider_calls", "count<1"), 7.0);
  EXPECT_EQ(observed("provider_calls", "sum<1"), 7.0);
  EXPECT_EQ(observed("provider_calls{provider:web_search,outcome:success}", "count<1"), 3.0);
  EXPECT_EQ(observed("provider_calls", "rate<1"), 7.0 / 30.0);  // per second of 30 s
  EXPECT_EQ(observed("provider_calls", "avg<1"), 7.0 / 4.0);    // per finished task
  EXPECT_EQ(observed("tokens", "sum<1"), 2900.0);
  EXPECT_EQ(observed("tokens{kind:output}", "sum<1"), 500.0);
  EXPECT_EQ(observed("tokens{provider:web_search}", "sum<1"), 0.0);
  EXPECT_DOUBLE_EQ(*observed("cost_usd", "sum<1"), 0.0088);
  EXPECT_DOUBLE_EQ(*observed("cost_usd", "avg<1"), 0.0088 / 4);
  EXPECT_EQ(observed("breaker_transitions{to:open}", "count<1"), 1.0);
  EXPECT_EQ(observed("breaker_transitions{to:closed}", "count<1"), 0.0);
  EXPECT_EQ(observed("injected_faults", "count<1"), 2.0);
  EXPECT_EQ(observed("injected_faults{provider:llm,kind:timeout}", "count<1"), 1.0);
}

TEST(MetricValuesTest, BurnedSpendIsWhatFailedAttemptsBilled) {
  // The one failed attempt that billed anything: llm's timeout, 1200 + 100 tokens, $0.0032.
  EXPECT_EQ(observed("burned_tokens", "sum<1"), 1300.0);
  EXPECT_EQ(observed("burned_tokens{kind:output}", "sum<1"), 100.0);
  EXPECT_EQ(observed("burned_tokens{provider:web_search}", "sum<1"), 0.0);
  EXPECT_DOUBLE_EQ(*observed("burned_cost_usd", "sum<1"), 0.0032);
  EXPECT_DOUBLE_EQ(*observed("burned_cost_usd", "avg<1"), 0.0032 / 4);  // per finished task
}

TEST(MetricValuesTest, BackoffDelayIsEachWait) {
  EXPECT_EQ(observed("backoff_delay", "max<1s"), 1000.0);  // web_search's one backoff, in ms
  EXPECT_EQ(observed("backoff_delay{tool:llm}", "max<1s"), std::nullopt);
}

TEST(MetricValuesTest, EscalationsByLevelAndReason) {
  Recorder r;
  test_support::feed_sample_run(r);
  r.on_escalation(EscalationEvent{1, "research", EscalationLevel::human_review, EscalationCondition::safe_failed, 0});
  r.on_escalation(EscalationEvent{2, "research", EscalationLevel::critical_failure, EscalationCondition::failed, 0});
  r.on_escalation(EscalationEvent{3, "lookup", EscalationLevel::human_review, EscalationCondition::cost_usd, 0});
  const auto value = [&r](std::string_view metric, std::string_view expression) {
    return observe(r, std::get<Threshold>(parse_threshold(metric, expression)), kDuration);
  };
  EXPECT_EQ(value("escalations", "count<=10"), 3.0);
  EXPECT_EQ(value("escalations{level:human_review}", "count<=10"), 2.0);
  EXPECT_EQ(value("escalations{level:human_review,reason:cost_usd}", "count<=10"), 1.0);
  EXPECT_EQ(value("escalations{level:urgent_action}", "count==0"), 0.0);  // a count, not "no samples"
  EXPECT_EQ(value("escalations{reason:failed}", "rate<1"), 1.0 / 30.0);   // per second of 30 s
  EXPECT_EQ(value("escalations", "avg<1"), 3.0 / 4.0);                    // per finished task (4)
}

TEST(MetricValuesTest, LadderRungsByToolStrategyAndRung) {
  Recorder r;
  test_support::feed_sample_run(r);
  for (const std::string_view label : {"dense 0.75", "dense 0.7", "keyword", "dense 0.75"}) {
    r.on_threshold_relax(ThresholdRelaxEvent{1, "web_search", 1, label, 0, 0, SearchMode::dense});
  }
  RewriteEvent rewrite;
  rewrite.tool = "web_search";
  rewrite.provider = "llm";
  rewrite.result = RewriteResult::intended;
  r.on_rewrite(rewrite);
  const auto value = [&r](std::string_view metric, std::string_view expression) {
    return observe(r, std::get<Threshold>(parse_threshold(metric, expression)), kDuration);
  };
  EXPECT_EQ(value("ladder_rungs", "count<=10"), 5.0);
  EXPECT_EQ(value("ladder_rungs{strategy:relax_threshold}", "count<=10"), 4.0);
  EXPECT_EQ(value("ladder_rungs{rung:dense 0.75}", "count<=10"), 2.0);
  EXPECT_EQ(value("ladder_rungs{tool:web_search,rung:keyword}", "count<=10"), 1.0);
  EXPECT_EQ(value("ladder_rungs{strategy:rewrite_query,rung:intended}", "avg<1"), 1.0 / 4.0);  // per task (4)
}

TEST(MetricValuesTest, RetryAmplificationIsAttemptsPerLogicalCall) {
  // web_search calls made 2, 2, 1 attempts; llm 1, 1, 0.
  EXPECT_EQ(observed("retry_amplification{tool:web_search}", "avg<1"), 5.0 / 3.0);
  EXPECT_EQ(observed("retry_amplification", "max<1"), 2.0);
  EXPECT_EQ(observed("retry_amplification{tool:llm}", "min<1"), 0.0);
  EXPECT_EQ(observed("retry_amplification", "avg<1"), 7.0 / 6.0);
  // Nearest ranks among 0, 1, 1, 1, 2, 2 (from the counts per number of attempts).
  EXPECT_EQ(observed("retry_amplification", "p(16)<1"), 0.0);  // rank ceil(0.96) = 1
  EXPECT_EQ(observed("retry_amplification", "p(17)<1"), 1.0);  // rank ceil(1.02) = 2
  EXPECT_EQ(observed("retry_amplification", "med<1"), 1.0);    // rank 3
  EXPECT_EQ(observed("retry_amplification", "p(67)<1"), 2.0);  // rank ceil(4.02) = 5
  EXPECT_EQ(observed("retry_amplification", "p(99)<1"), 2.0);  // rank 6
  EXPECT_EQ(observed("retry_amplification", "min<1"), 0.0);
  EXPECT_EQ(observed("retry_amplification{tool:nope}", "avg<1"), std::nullopt);  // no calls
}

TEST(MetricValuesTest, UndefinedValuesHaveNoObservation) {
  EXPECT_EQ(observed("task_success{template:nope}", "rate>0"), std::nullopt);          // no tasks
  EXPECT_EQ(observed("call_latency{outcome:overloaded}", "p(99)<1ms"), std::nullopt);  // no samples
  EXPECT_EQ(observed("provider_calls", "rate<1", 0), std::nullopt);                    // zero duration
  EXPECT_EQ(observed("provider_calls{provider:nope}", "count<1"), 0.0);                // a counter is 0
}

TEST(MetricValuesTest, EmptyRecorderHasNoTaskAverage) {
  Recorder r;
  const Threshold t = std::get<Threshold>(parse_threshold("cost_usd", "avg<1"));
  EXPECT_EQ(observe(r, t, kDuration), std::nullopt);
}

}  // namespace
}  // namespace squall

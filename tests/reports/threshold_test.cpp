#include "reports/threshold.hpp"

#include <gtest/gtest.h>

#include <string>

namespace squall {
namespace {

Threshold parsed(std::string_view metric, std::string_view expression) {
  auto result = parse_threshold(metric, expression);
  if (auto* error = std::get_if<std::string>(&result)) ADD_FAILURE() << *error;
  return std::get<Threshold>(result);
}

std::string error_of(std::string_view metric, std::string_view expression) {
  auto result = parse_threshold(metric, expression);
  if (std::holds_alternative<Threshold>(result)) {
    ADD_FAILURE() << "\"" << expression << "\" on \"" << metric << "\" parsed";
    return "";
  }
  return std::get<std::string>(result);
}

TEST(ThresholdParseTest, ParsesEveryAggregation) {
  EXPECT_EQ(parsed("task_success", "rate>=0.95").parsed.aggregation, Aggregation::rate);
  const Threshold p = parsed("task_latency", "p(99.9)<20ms");
  EXPECT_EQ(p.parsed.aggregation, Aggregation::percentile);
  EXPECT_DOUBLE_EQ(p.parsed.percentile, 99.9);
  EXPECT_EQ(parsed("task_latency", "avg<1ms").parsed.aggregation, Aggregation::avg);
  EXPECT_EQ(parsed("task_latency", "min<1ms").parsed.aggregation, Aggregation::min);
  EXPECT_EQ(parsed("task_latency", "max<1ms").parsed.aggregation, Aggregation::max);
  EXPECT_EQ(parsed("task_latency", "med<1ms").parsed.aggregation, Aggregation::med);
  EXPECT_EQ(parsed("provider_calls", "count<1").parsed.aggregation, Aggregation::count);
  EXPECT_EQ(parsed("cost_usd", "sum<=5").parsed.aggregation, Aggregation::sum);
  EXPECT_EQ(parsed("cost_usd", "avg<=0.01").parsed.aggregation, Aggregation::avg);
  EXPECT_EQ(parsed("provider_calls", "rate<100").parsed.aggregation, Aggregation::rate);
}

TEST(ThresholdParseTest, ParsesEveryOperator) {
  EXPECT_EQ(parsed("task_success", "rate<0.5").parsed.op, Comparison::lt);
  EXPECT_EQ(parsed("task_success", "rate<=0.5").parsed.op, Comparison::le);
  EXPECT_EQ(parsed("task_success", "rate>0.5").parsed.op, Comparison::gt);
  EXPECT_EQ(parsed("task_success", "rate>=0.5").parsed.op, Comparison::ge);
  EXPECT_EQ(parsed("task_success", "rate==1").parsed.op, Comparison::eq);
}

TEST(ThresholdParseTest, NormalisesDurationsToMilliseconds) {
  EXPECT_DOUBLE_EQ(parsed("task_latency", "p(99)<20ms").parsed.value, 20);
  EXPECT_DOUBLE_EQ(parsed("task_latency", "p(99)<1500000ns").parsed.value, 1.5);
  EXPECT_DOUBLE_EQ(parsed("task_latency", "p(99)<250us").parsed.value, 0.25);
  EXPECT_DOUBLE_EQ(parsed("task_latency", "p(99)<250ms").parsed.value, 250);
  EXPECT_DOUBLE_EQ(parsed("task_latency", "p(99)<20s").parsed.value, 20'000);
  EXPECT_DOUBLE_EQ(parsed("task_latency", "p(99)<1.5m").parsed.value, 90'000);
  EXPECT_DOUBLE_EQ(parsed("call_latency", "max<2h").parsed.value, 7'200'000);
}

TEST(ThresholdParseTest, ParsesCompoundDurationsExactly) {
  // 1 min 30 s = 90000 ms; 1 h 15 min = 4500 s; 2 h 45 min 30.5 s = 9930.5 s.
  EXPECT_DOUBLE_EQ(parsed("task_latency", "p(99)<1m30s").parsed.value, 90'000);
  EXPECT_DOUBLE_EQ(parsed("call_latency", "max <= 1h15m").parsed.value, 4'500'000);
  EXPECT_DOUBLE_EQ(parsed("task_latency", "avg<2h45m30.5s").parsed.value, 9'930'500);
  // Parsed from the digits to nanoseconds, as a scenario's durations are: "0.27m" is exactly
  // 16200 ms, where the double product 0.27 * 60000 would be 16200.000000000002.
  EXPECT_EQ(parsed("task_latency", "p(99)<0.27m").parsed.value, 16'200.0);
  const Threshold t = parsed("task_latency", "p(99) < 1m30s");
  EXPECT_EQ(t.expression, "p(99) < 1m30s");
}

TEST(ThresholdParseTest, ToleratesWhitespaceBetweenTokens) {
  const Threshold t = parsed(" task_latency ", "  p( 99 ) <=  20s ");
  EXPECT_EQ(t.metric, "task_latency");
  EXPECT_EQ(t.metric_name, "task_latency");
  EXPECT_EQ(t.expression, "p( 99 ) <=  20s");
  EXPECT_EQ(t.parsed.aggregation, Aggregation::percentile);
  EXPECT_DOUBLE_EQ(t.parsed.percentile, 99);
  EXPECT_EQ(t.parsed.op, Comparison::le);
  EXPECT_DOUBLE_EQ(t.parsed.value, 20'000);
}

TEST(ThresholdParseTest, ParsesTagSelectors) {
  const Threshold t = parsed("provider_calls{provider:gpt-4.1, outcome : rate_limited}", "count<10");
  EXPECT_EQ(t.metric, "provider_calls{provider:gpt-4.1, outcome : rate_limited}");
  EXPECT_EQ(t.metric_name, "provider_calls");
  const std::map<std::string, std::string> expected{{"outcome", "rate_limited"}, {"provider", "gpt-4.1"}};
  EXPECT_EQ(t.tags, expected);
}

TEST(ThresholdParseTest, RejectsTextWithoutTheShapeOfAThreshold) {
  EXPECT_EQ(error_of("task_latency", "fast"),
            R"msg(expected "<aggregation> <op> <value>" such as "p(99)<20s", got "fast")msg");
  EXPECT_EQ(error_of("task_latency", " "),
            R"msg(expected "<aggregation> <op> <value>" such as "p(99)<20s", got "")msg");
  EXPECT_EQ(error_of("task_latency", "<20"),
            R"msg(expected "<aggregation> <op> <value>" such as "p(99)<20s", got "<20")msg");
}

TEST(ThresholdParseTest, RejectsUnknownAggregation) {
  EXPECT_EQ(error_of("task_latency", "median < 5"),
            "unknown aggregation \"median\"; expected rate, p(N), avg, min, max, med, count or sum");
}

TEST(ThresholdParseTest, RejectsMalformedPercentile) {
  EXPECT_EQ(error_of("task_latency", "p(x)<5"),
            R"msg(expected a percentile such as "p(99)" or "p(99.9)", got "p(x)<5")msg");
  EXPECT_EQ(error_of("task_latency", "p99<5"),
            R"msg(expected a percentile such as "p(99)" or "p(99.9)", got "p99<5")msg");
  EXPECT_EQ(error_of("task_latency", "p(99<5"),
            R"msg(expected a percentile such as "p(99)" or "p(99.9)", got "p(99<5")msg");
}

TEST(ThresholdParseTest, RejectsPercentileOutOfRange) {
  EXPECT_EQ(error_of("task_latency", "p(150)<5"), "percentile must be in (0, 100], got 150");
  EXPECT_EQ(error_of("task_latency", "p(0)<5"), "percentile must be in (0, 100], got 0");
  EXPECT_EQ(error_of("task_latency", "p(-1)<5"), "percentile must be in (0, 100], got -1");
}

TEST(ThresholdParseTest, RejectsMissingOrUnknownOperator) {
  EXPECT_EQ(error_of("task_latency", "p(99) 20s"),
            R"msg(expected an operator (<, <=, >, >=, ==) after "p(99)", got "20s")msg");
  EXPECT_EQ(error_of("task_success", "rate=1"),
            R"msg(expected an operator (<, <=, >, >=, ==) after "rate", got "=1")msg");
  EXPECT_EQ(error_of("task_success", "rate"), R"msg(expected an operator (<, <=, >, >=, ==) after "rate", got "")msg");
}

TEST(ThresholdParseTest, RejectsMissingNumber) {
  EXPECT_EQ(error_of("task_latency", "p(99) < fast"), R"msg(expected a number after "p(99) <", got "fast")msg");
  EXPECT_EQ(error_of("task_latency", "p(99)<"), R"msg(expected a number after "p(99)<", got "")msg");
  EXPECT_EQ(error_of("task_latency", "p(99)<nan"), R"msg(expected a number after "p(99)<", got "nan")msg");
}

// A space between a number and its unit is refused, as in every other duration of the
// format (a scenario's "1 s" is refused too).
TEST(ThresholdParseTest, RejectsASpaceBeforeTheUnit) {
  EXPECT_EQ(error_of("task_latency", "p(99)<20 s"),
            R"msg(expected a duration without a space before its unit, such as "20s", got "20 s")msg");
  EXPECT_EQ(error_of("call_latency", "max <= 1  h15m"),
            R"msg(expected a duration without a space before its unit, such as "1h15m", got "1  h15m")msg");
  EXPECT_EQ(error_of("task_latency", "avg<1.5\tms"),
            "expected a duration without a space before its unit, such as \"1.5ms\", got \"1.5\tms\"");
}

TEST(ThresholdParseTest, RejectsUnknownUnit) {
  EXPECT_EQ(error_of("task_latency", "p(99)<2d"), R"msg(unknown unit "d" in "2d"; expected ns, us, ms, s, m or h)msg");
  EXPECT_EQ(error_of("task_latency", "p(99)<2 sec"),
            R"msg(unknown unit "sec" in "2 sec"; expected ns, us, ms, s, m or h)msg");
  // Not a time metric: the letters are part of a malformed number, not a unit.
  EXPECT_EQ(error_of("task_success", "rate>=0x1"), R"msg(expected a number after "rate>=", got "0x1")msg");
  // A valid duration still gets the message that names durations.
  EXPECT_EQ(
      error_of("task_success", "rate>=5s"),
      R"msg(a duration ("5s") applies only to time metrics (task_latency, call_latency, cache_stale_age, capacity_recovery_time, limit_recovery_time, backoff_delay); "task_success" is not one)msg");
}

TEST(ThresholdParseTest, RejectsDurationsThatScenarioFilesReject) {
  EXPECT_EQ(error_of("task_latency", "p(99)<30s1m"),
            R"msg(expected a duration string such as "250ms", got "30s1m")msg");
  EXPECT_EQ(error_of("task_latency", "p(99)<1s1s"), R"msg(expected a duration string such as "250ms", got "1s1s")msg");
  EXPECT_EQ(error_of("task_latency", "p(99)<1e3ms"),
            R"msg(expected a duration string such as "250ms", got "1e3ms")msg");
  EXPECT_EQ(error_of("task_latency", "p(99)<-5s"), R"msg(expected a non-negative duration, got "-5s")msg");
  EXPECT_EQ(error_of("task_latency", "p(99)<0.5ns"), R"msg(expected a whole number of nanoseconds, got "0.5ns")msg");
  // Bounded as the scenario's durations are: 100 years.
  EXPECT_EQ(error_of("task_latency", "p(99)<3000000h"),
            R"msg(expected a duration of at most 876000h (100 years), got "3000000h")msg");
  EXPECT_EQ(error_of("task_latency", "p(99)<876001h"),
            R"msg(expected a duration of at most 876000h (100 years), got "876001h")msg");
  EXPECT_TRUE(std::holds_alternative<Threshold>(parse_threshold("task_latency", "p(99)<876000h")));
  EXPECT_EQ(error_of("task_latency", "p(99)<1m30d"),
            R"msg(unknown unit "d" in "1m30d"; expected ns, us, ms, s, m or h)msg");
}

TEST(ThresholdParseTest, RejectsTrailingText) {
  EXPECT_EQ(error_of("task_success", "rate>=0.95)"), R"msg(unexpected ")" after "rate>=0.95")msg");
  EXPECT_EQ(error_of("task_latency", "p(99)<20s 5"), R"msg(unexpected "5" after "p(99)<20s")msg");
}

TEST(ThresholdParseTest, RejectsAggregationThatDoesNotApply) {
  EXPECT_EQ(error_of("task_success", "p(99)<20s"),
            R"msg(aggregation "p(99)" does not apply to rate metric "task_success"; use rate)msg");
  EXPECT_EQ(
      error_of("task_latency", "rate>0.5"),
      R"msg(aggregation "rate" does not apply to trend metric "task_latency"; use p(N), avg, min, max or med)msg");
  EXPECT_EQ(error_of("cost_usd", "p(99.5)<1"),
            R"msg(aggregation "p(99.5)" does not apply to counter metric "cost_usd"; use count, sum, rate or avg)msg");
}

TEST(ThresholdParseTest, RejectsDurationOnMetricThatIsNotATime) {
  EXPECT_EQ(
      error_of("cost_usd", "sum < 5 s"),
      R"msg(a duration ("5 s") applies only to time metrics (task_latency, call_latency, cache_stale_age, capacity_recovery_time, limit_recovery_time, backoff_delay); "cost_usd" is not one)msg");
}

TEST(ThresholdParseTest, TimeMetricNeedsAUnit) {
  // k6 reads a bare number as milliseconds; squall's durations carry their unit everywhere.
  EXPECT_EQ(
      error_of("task_latency", "p(99)<25"),
      R"msg(expected a duration with a unit for time metric "task_latency", such as "p(99)<25ms", got "p(99)<25")msg");
  EXPECT_EQ(
      error_of("call_latency{provider:web_search}", " avg >= 0.5 "),
      R"msg(expected a duration with a unit for time metric "call_latency", such as "avg>=0.5ms", got "avg >= 0.5")msg");
}

TEST(ThresholdParseTest, RejectsRateOutsideZeroToOne) {
  EXPECT_EQ(error_of("task_success", "rate>=95"), "rate is a fraction in [0, 1], got 95");
  EXPECT_EQ(error_of("task_failed", "rate<-0.5"), "rate is a fraction in [0, 1], got -0.5");
}

TEST(MetricParseTest, RejectsMalformedMetric) {
  constexpr std::string_view kShape =
      R"msg(expected "<metric>" or "<metric>{<tag>:<value>,...}" such as "provider_calls{provider:web_search}", got )msg";
  EXPECT_EQ(error_of("provider_calls{provider}", "count<1"),
            std::string(kShape) + R"msg("provider_calls{provider}")msg");
  EXPECT_EQ(error_of("provider_calls{provider:web_search", "count<1"),
            std::string(kShape) + R"msg("provider_calls{provider:web_search")msg");
  EXPECT_EQ(error_of("provider_calls{provider:}", "count<1"),
            std::string(kShape) + R"msg("provider_calls{provider:}")msg");
  EXPECT_EQ(error_of("", "count<1"), std::string(kShape) + R"msg("")msg");
  EXPECT_EQ(error_of("Task_success", "rate>0"), std::string(kShape) + R"msg("Task_success")msg");
}

TEST(MetricParseTest, RejectsUnknownMetric) {
  EXPECT_EQ(error_of("foo", "rate>0"),
            "unknown metric \"foo\"; known: task_success, task_degraded, task_safe_fail, task_failed, task_latency, "
            "call_latency, provider_calls, retry_amplification, tokens, cost_usd, breaker_transitions, "
            "injected_faults, fallbacks, reflections, ladder_rungs, escalations, answered, answered_wrongly, "
            "task_tokens, task_cost_usd, cache_hits, cache_misses, cache_coalesced, cache_wait_timeouts, cache_stale, "
            "cache_stale_age, cache_evictions, cache_calls_saved, capacity_offered, capacity_goodput, "
            "capacity_rate_limited, capacity_rejected, capacity_wasted, capacity_queue_length, capacity_recovery_time, "
            "retries_refused, "
            "throttled_requests, truncated_answers, logical_calls, hedges, hedged_fraction, hedge_loser_cost_usd, "
            "breaker_openings, concurrency_limit, limit_recovery_time, burned_tokens, burned_cost_usd, backoff_delay, "
            "client_retry_amplification, client_retries, client_early_retries, client_retries_against_advice, "
            "client_loops, client_peak_concurrency, client_resent_tokens");
}

TEST(MetricParseTest, RejectsUnknownTag) {
  EXPECT_EQ(error_of("call_latency{region:eu}", "p(99)<1"),
            R"msg(unknown tag "region" for metric "call_latency"; known: provider, outcome)msg");
}

TEST(MetricParseTest, RejectsTagGivenTwice) {
  EXPECT_EQ(error_of("cost_usd{provider:a,provider:b}", "sum<1"),
            R"msg(tag "provider" is given twice in "cost_usd{provider:a,provider:b}")msg");
}

TEST(MetricParseTest, RejectsValueOutsideTagVocabulary) {
  EXPECT_EQ(
      error_of("provider_calls{outcome:ratelimited}", "count<1"),
      "unknown value \"ratelimited\" for tag \"outcome\" of metric \"provider_calls\"; known: success, empty, "
      "timeout, rate_limited, quota_exhausted, overloaded, server_error, auth_error, bad_request, context_length, "
      "content_filter, invalid_output, truncated, circuit_open, budget_exhausted, cancelled, throttled, "
      "bulkhead_full, "
      "rate_limiter_rejected");
  EXPECT_EQ(
      error_of("breaker_transitions{to:opened}", "count<1"),
      R"msg(unknown value "opened" for tag "to" of metric "breaker_transitions"; known: closed, open, half_open)msg");
  EXPECT_EQ(error_of("tokens{kind:cached}", "sum<1"),
            R"msg(unknown value "cached" for tag "kind" of metric "tokens"; known: input, output)msg");
  EXPECT_EQ(error_of("escalations{level:page}", "count<1"),
            "unknown value \"page\" for tag \"level\" of metric \"escalations\"; known: auto_retry, model_switch, "
            "human_review, urgent_action, critical_failure");
  EXPECT_EQ(error_of("escalations{reason:retries}", "count<1"),
            "unknown value \"retries\" for tag \"reason\" of metric \"escalations\"; known: failed_attempts, "
            "fallbacks, fallbacks_exhausted, cost_usd, tokens, degraded, safe_failed, failed");
  EXPECT_EQ(
      error_of("ladder_rungs{strategy:foo}", "count<1"),
      R"msg(unknown value "foo" for tag "strategy" of metric "ladder_rungs"; known: relax_threshold, rewrite_query)msg");
  EXPECT_EQ(error_of("escalations{template:research}", "count<1"),
            R"msg(unknown tag "template" for metric "escalations"; known: level, reason)msg");
}

TEST(MetricParseTest, MetricErrorsComeBeforeExpressionErrors) {
  EXPECT_EQ(error_of("foo", "fast").substr(0, 20), "unknown metric \"foo\"");
}

TEST(MetricParseTest, ParseMetricAloneReturnsTheSelector) {
  auto result = parse_metric("breaker_transitions{tool:web_search,to:open}");
  ASSERT_TRUE(std::holds_alternative<MetricSelector>(result));
  const auto& selector = std::get<MetricSelector>(result);
  EXPECT_EQ(selector.metric_name, "breaker_transitions");
  EXPECT_EQ(selector.tags.at("tool"), "web_search");
  EXPECT_EQ(selector.tags.at("to"), "open");
}

TEST(ThresholdHoldsTest, EveryOperatorAtItsBoundary) {
  ThresholdExpression e;
  e.value = 5;
  e.op = Comparison::lt;
  EXPECT_TRUE(holds(e, 4.999));
  EXPECT_FALSE(holds(e, 5));
  e.op = Comparison::le;
  EXPECT_TRUE(holds(e, 5));
  EXPECT_FALSE(holds(e, 5.001));
  e.op = Comparison::gt;
  EXPECT_TRUE(holds(e, 5.001));
  EXPECT_FALSE(holds(e, 5));
  e.op = Comparison::ge;
  EXPECT_TRUE(holds(e, 5));
  EXPECT_FALSE(holds(e, 4.999));
  e.op = Comparison::eq;
  EXPECT_TRUE(holds(e, 5));
  EXPECT_FALSE(holds(e, 5.001));
}

// The margin is positive inside the bound and negative outside it, for every operator.
TEST(ThresholdHoldsTest, MarginIsTheDistanceInsideTheBound) {
  ThresholdExpression e;
  e.value = 5;
  e.op = Comparison::lt;
  EXPECT_DOUBLE_EQ(margin(e, 3), 2);
  EXPECT_DOUBLE_EQ(margin(e, 7), -2);
  e.op = Comparison::le;
  EXPECT_DOUBLE_EQ(margin(e, 5), 0);
  e.op = Comparison::gt;
  EXPECT_DOUBLE_EQ(margin(e, 7), 2);
  EXPECT_DOUBLE_EQ(margin(e, 3), -2);
  e.op = Comparison::ge;
  EXPECT_DOUBLE_EQ(margin(e, 5.5), 0.5);
  e.op = Comparison::eq;
  EXPECT_DOUBLE_EQ(margin(e, 5), 0);
  EXPECT_DOUBLE_EQ(margin(e, 4), -1);
  EXPECT_DOUBLE_EQ(margin(e, 6), -1);
}

TEST(ThresholdHoldsTest, WrittenTimeUnitIsTheExpressionsLast) {
  EXPECT_EQ(written_time_unit("p(95)<20s").name, "s");
  EXPECT_DOUBLE_EQ(written_time_unit("p(95)<20s").ms, 1000);
  EXPECT_EQ(written_time_unit("p(99)<1m30s").name, "s");
  EXPECT_EQ(written_time_unit("avg<=250ms").name, "ms");
  EXPECT_EQ(written_time_unit("max<2h").name, "h");
  EXPECT_DOUBLE_EQ(written_time_unit("max<2h").ms, 3.6e6);
  EXPECT_EQ(written_time_unit("min>5m").name, "m");
  EXPECT_DOUBLE_EQ(written_time_unit("p(50)<900us").ms, 1e-3);
  EXPECT_DOUBLE_EQ(written_time_unit("p(50)<900ns").ms, 1e-6);
  EXPECT_EQ(written_time_unit("rate>=0.9").name, "ms");  // no unit: milliseconds
}

TEST(ThresholdHoldsTest, NamesAreCanonical) {
  EXPECT_EQ(aggregation_name(parsed("task_latency", "p( 99 )<1ms").parsed), "p(99)");
  EXPECT_EQ(aggregation_name(parsed("task_latency", "p(99.9)<1ms").parsed), "p(99.9)");
  EXPECT_EQ(aggregation_name(parsed("cost_usd", "sum<1").parsed), "sum");
  EXPECT_EQ(to_string(Comparison::ge), ">=");
  EXPECT_EQ(to_string(Comparison::eq), "==");
}

}  // namespace
}  // namespace squall

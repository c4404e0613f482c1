#include "reports/text_summary.hpp"

#include <gtest/gtest.h>

#include "sample_run.hpp"

namespace squall {
namespace {

Report sample_report() {
  Recorder r;
  test_support::feed_sample_run(r);
  const std::vector<Threshold> ts{std::get<Threshold>(parse_threshold("task_success", "rate>=0.5")),
                                  std::get<Threshold>(parse_threshold("task_latency", "p(99)<10s"))};
  return build_report(r, RunInfo{"sample", 7, 30 * kSecond}, ts);
}

TEST(TextSummaryTest, RendersTheSampleRun) {
  Report rep = sample_report();
  rep.fingerprint = 0x0123456789abcdefULL;  // pinned so that the expected text is readable
  const std::string expected =
      "  scenario: sample  seed: 7  simulated: 30.0 s  fingerprint: 0123456789abcdef\n"
      "\n"
      "  tasks ..................: 4 total, 1 succeeded, 1 degraded, 0 safe_failed, 2 failed\n"
      "  task success ...........: 50.00% (clean or degraded)\n"
      "    degraded by reason ...: simplified_query=1\n"
      "    failed by reason .....: circuit_open=1 timeout=1\n"
      "  task latency (ms) ......: p50=1000.000 p90=10300.000 p99=10300.000 max=10300.000 mean=3700.000\n"
      "  provider llm ...........: 2 calls  success=1 timeout=1\n"
      "    latency (ms) .........: p50=2000.000 p90=10000.000 p99=10000.000 max=10000.000 mean=6000.000\n"
      "  provider web_search ....: 5 calls  success=3 empty=1 rate_limited=1\n"
      "    latency (ms) .........: p50=200.000 p90=1000.000 p99=1000.000 max=1000.000 mean=360.000\n"
      "  retry amplification ....: 1.167 overall  llm=0.667  web_search=1.667\n"
      "  tokens .................: input=2400 output=500 burned_by_failed_attempts=1300\n"
      "  cost (USD) .............: total=0.008800 burned_by_failed_attempts=0.003200 per_task=0.002200\n"
      "    tokens per task ......: p50=0 p99=1600 max=1600\n"
      "    USD per task .........: p50=0.000000 p99=0.005600 max=0.005600\n"
      "  breaker transitions ....: 1\n"
      "    openings by cause ....: consecutive_failures=1\n"
      "  escalations ............: none\n"
      "  injected faults ........: llm/timeout=1 web_search/rate_limited=1\n"
      "\n"
      "  thresholds\n"
      "  ✓ task_success .........: rate>=0.5  observed 0.5\n"
      "  ✗ task_latency .........: p(99)<10s  observed 10.3 s\n";
  EXPECT_EQ(text_summary(rep, false), expected);
}

TEST(TextSummaryTest, EscalationsByLevelWithTheirReasons) {
  Recorder r;
  test_support::feed_sample_run(r);
  r.on_escalation(EscalationEvent{1, "research", EscalationLevel::human_review, EscalationCondition::safe_failed, 0});
  r.on_escalation(EscalationEvent{2, "research", EscalationLevel::critical_failure, EscalationCondition::failed, 0});
  r.on_escalation(EscalationEvent{3, "lookup", EscalationLevel::human_review, EscalationCondition::cost_usd, 0});
  r.on_escalation(EscalationEvent{4, "lookup", EscalationLevel::human_review, EscalationCondition::safe_failed, 0});
  const std::string text = text_summary(build_report(r, RunInfo{"sample", 7, 30 * kSecond}, {}), false);
  EXPECT_NE(text.find(".: human_review=3 (cost_usd=1 safe_failed=2) critical_failure=1 (failed=1)\n"),
            std::string::npos)
      << text;
}

TEST(TextSummaryTest, BreakerOpeningsByCauseFollowTheTransitionsNonZeroOnly) {
  Report rep = sample_report();
  rep.breaker_openings[static_cast<std::size_t>(BreakerCause::failure_rate)] = 3;
  rep.breaker_openings[static_cast<std::size_t>(BreakerCause::probe_failed)] = 2;
  const std::string text = text_summary(rep, false);
  EXPECT_NE(text.find("  breaker transitions ....: 1\n"
                      "    openings by cause ....: consecutive_failures=1 failure_rate=3 probe_failed=2\n"
                      "  escalations"),
            std::string::npos)
      << text;
  EXPECT_EQ(format_breaker_openings(rep), "consecutive_failures=1 failure_rate=3 probe_failed=2");
  // No opening, no line.
  rep.breaker_openings = {};
  EXPECT_EQ(text_summary(rep, false).find("openings by cause"), std::string::npos);
  EXPECT_EQ(format_breaker_openings(rep), "");
}

TEST(TextSummaryTest, ColourOnlyWhenAsked) {
  const Report rep = sample_report();
  EXPECT_EQ(text_summary(rep, false).find('\x1b'), std::string::npos);
  const std::string coloured = text_summary(rep, true);
  EXPECT_NE(coloured.find("\x1b[32m✓"), std::string::npos);
  EXPECT_NE(coloured.find("\x1b[31m✗"), std::string::npos);
}

TEST(TextSummaryTest, EmptyRunSaysSo) {
  const std::string text = text_summary(build_report(Recorder(), RunInfo{"empty", 1, 0}, {}), false);
  // Label widths follow the longest label, so only the values are checked.
  EXPECT_NE(text.find("task latency (ms) ....."), std::string::npos) << text;
  EXPECT_NE(text.find(".: no samples\n"), std::string::npos) << text;
  EXPECT_NE(text.find("per_task=-\n"), std::string::npos) << text;
  EXPECT_NE(text.find(".: none\n"), std::string::npos) << text;
  EXPECT_NE(text.find("thresholds: none"), std::string::npos) << text;
}

}  // namespace
}  // namespace squall

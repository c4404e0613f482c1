#include "reports/writers/markdown_writer.hpp"

#include <gtest/gtest.h>

#include "reports/writers/markdown_text.hpp"
#include "writer_support.hpp"

namespace squall {
namespace {

TEST(MarkdownWriterTest, RendersTheSampleRun) {
  const std::string expected =
      "### ✗ squall: sample (1 of 2 thresholds failed)\n"
      "\n"
      "seed `7` · simulated 30.0 s · fingerprint `0123456789abcdef` · squall 0.1.0\n"
      "\n"
      "| outcome | tasks | share |\n"
      "|:--|--:|--:|\n"
      "| succeeded | 1 | 25.00% |\n"
      "| degraded | 1 | 25.00% |\n"
      "| safe_failed | 0 | 0.00% |\n"
      "| failed | 2 | 50.00% |\n"
      "| wrong_answer | 0 | 0.00% |\n"
      "| **total** | **4** | |\n"
      "\n"
      "#### Thresholds\n"
      "\n"
      "| | metric | threshold | observed |\n"
      "|:-:|:--|:--|--:|\n"
      "| ✓ | `task_success` | `rate>=0.5` | 0.5 |\n"
      "| ✗ | `task_latency` | `p(99)<10s` | 10.3 s |\n"
      "\n"
      "#### Top failure reasons\n"
      "\n"
      "| status | reason | tasks |\n"
      "|:--|:--|--:|\n"
      "| failed | circuit\\_open | 1 |\n"
      "| failed | timeout | 1 |\n"
      "\n"
      "#### Latency and spend\n"
      "\n"
      "| figure | value |\n"
      "|:--|:--|\n"
      "| task latency (ms) | p50 1000.000 · p99 10300.000 · max 10300.000 |\n"
      "| retry amplification | 1.167 |\n"
      "| cost (USD) | 0.008800 total · 0.003200 burned by failed attempts |\n"
      "| tokens per task | p50 0 · p99 1600 · max 1600 |\n"
      "| cost per task (USD) | p50 0.000000 · p99 0.005600 · max 0.005600 |\n"
      "\n"
      "#### Breaker openings\n"
      "\n"
      "| cause | openings |\n"
      "|:--|--:|\n"
      "| `consecutive_failures` | 1 |\n"
      "\n"
      "**Repro:** `squall run scenarios/sample.json --seed 7`\n";
  EXPECT_EQ(markdown_summary(test_support::writer_sample_report()), expected);
}

// The sample report with faults counted by phase and one provider behind a capacity
// layer that never recovered from its drop.
Report with_phases_and_capacity() {
  Report rep = test_support::writer_sample_report();
  rep.injected_fault_phases = {{"llm", "abort", 1},        {"llm", "delay", 0},        {"llm", "transform", 0},
                               {"web_search", "abort", 1}, {"web_search", "delay", 2}, {"web_search", "transform", 0}};
  rep.injected_faults_cut_short = {{"llm", "timeout", 1}};
  CapacityReport c;
  c.provider = "llm";
  c.arrivals = 120;
  c.goodput = 80;
  c.rate_limited_requests = 5;
  c.rate_limited_tokens = 3;
  c.queue_full = 10;
  c.queue_timeouts = 2;
  c.abandoned = 20;
  c.wasted_requests = 15;
  c.max_queue = 64;
  c.max_in_flight = 8;
  c.recovery = CapacityRecovery{95 * kSecond, false};
  rep.capacity.push_back(c);
  return rep;
}

TEST(MarkdownWriterTest, InjectedFaultsByPhaseAndCapacityTotalsFollowTheFigures) {
  // Injected: llm 1 (timeout: an abort, cut short by the deadline), web_search 1
  // (rate_limited, an abort) plus 2 in the delay phase as the phases say.
  const std::string md = markdown_summary(with_phases_and_capacity());
  const std::string expected =
      "#### Injected faults\n"
      "\n"
      "| provider | injected | delay | abort | transform | cut short |\n"
      "|:--|--:|--:|--:|--:|--:|\n"
      "| `llm` | 1 | 0 | 1 | 0 | 1 |\n"
      "| `web_search` | 1 | 2 | 1 | 0 | 0 |\n"
      "\n"
      "#### Capacity\n"
      "\n"
      "| provider | offered | goodput | rate limited | rejected | abandoned | wasted | max queue | max in flight | "
      "recovery |\n"
      "|:--|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n"
      "| `llm` | 120 | 80 | 8 | 12 | 20 | 15 | 64 | 8 | not recovered (95.0 s) |\n"
      "\n"
      "**Repro:**";
  const std::size_t at = md.find("#### Injected faults");
  ASSERT_NE(at, std::string::npos) << md;
  EXPECT_EQ(md.substr(at, expected.size()), expected);
  EXPECT_LT(md.find("#### Latency and spend"), at);
}

TEST(MarkdownWriterTest, ARecoveredProviderShowsItsRecoveryTime) {
  Report rep = with_phases_and_capacity();
  rep.capacity[0].recovery = CapacityRecovery{12500 * kMillisecond, true};
  EXPECT_NE(markdown_summary(rep).find("| 64 | 8 | 12.5 s |\n"), std::string::npos);
  rep.capacity[0].recovery.reset();
  EXPECT_NE(markdown_summary(rep).find("| 64 | 8 | - |\n"), std::string::npos);
}

TEST(MarkdownWriterTest, BreakerOpeningsByCauseNonZeroOnlyAndNoSectionWithoutAny) {
  Report rep = test_support::writer_sample_report();
  rep.breaker_openings[static_cast<std::size_t>(BreakerCause::slow_call_rate)] = 4;
  const std::string md = markdown_summary(rep);
  const std::string expected =
      "#### Breaker openings\n"
      "\n"
      "| cause | openings |\n"
      "|:--|--:|\n"
      "| `consecutive_failures` | 1 |\n"
      "| `slow_call_rate` | 4 |\n"
      "\n";
  const std::size_t at = md.find("#### Breaker openings");
  ASSERT_NE(at, std::string::npos) << md;
  EXPECT_EQ(md.substr(at, expected.size()), expected);
  EXPECT_LT(md.find("#### Latency and spend"), at);
  rep.breaker_openings = {};
  EXPECT_EQ(markdown_summary(rep).find("Breaker openings"), std::string::npos);
}

TEST(MarkdownWriterTest, PassingRunSaysSoAndHasNoFailureReasons) {
  Report rep = test_support::writer_sample_report();
  rep.thresholds.pop_back();
  rep.tasks.by_reason.clear();
  const std::string md = markdown_summary(rep);
  EXPECT_EQ(md.substr(0, md.find('\n')), "### ✓ squall: sample (1 thresholds passed)");
  EXPECT_EQ(md.find("Top failure reasons"), std::string::npos);
}

TEST(MarkdownWriterTest, TopFailureReasonsAreTheFiveLargest) {
  Report rep = test_support::writer_sample_report();
  rep.tasks.by_reason = {{TaskStatus::degraded, "fallback_provider", 100},
                         {TaskStatus::safe_failed, "no_records_found", 2},
                         {TaskStatus::failed, "a", 1},
                         {TaskStatus::failed, "b", 5},
                         {TaskStatus::failed, "c", 3},
                         {TaskStatus::failed, "d", 3},
                         {TaskStatus::failed, "e", 9}};
  const std::string md = markdown_summary(rep);
  EXPECT_NE(md.find("| failed | e | 9 |\n| failed | b | 5 |\n| failed | c | 3 |\n| failed | d | 3 |\n"
                    "| safe_failed | no\\_records\\_found | 2 |\n\n"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("| failed | a | 1 |"), std::string::npos);
  EXPECT_EQ(md.find("fallback"), std::string::npos);  // degraded is not a failure
}

TEST(MarkdownWriterTest, WrongAnswersAreFailureReasons) {
  // A success from irrelevant documents only is not a success (engine/task_result.hpp).
  Report rep = test_support::writer_sample_report();
  rep.tasks.by_reason = {{TaskStatus::degraded, "relaxed_threshold", 50},
                         {TaskStatus::wrong_answer, "relaxed_threshold", 7}};
  const std::string md = markdown_summary(rep);
  EXPECT_NE(md.find("| wrong_answer | relaxed\\_threshold | 7 |\n"), std::string::npos) << md;
}

TEST(MarkdownWriterTest, HostileNamesStayInTheirCells) {
  Report rep = test_support::writer_sample_report();
  rep.scenario = "a|b *c* <script>\nd";
  rep.thresholds[0].metric = "provider_calls{provider:x|y`z}";
  rep.produced_by.repro = "squall run 'a`b|c.json'";
  const std::string md = markdown_summary(rep);
  EXPECT_NE(md.find("### ✗ squall: a\\|b \\*c\\* \\<script\\> d (1 of 2 thresholds failed)\n"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| ✓ | ``provider_calls{provider:x\\|y`z}`` | `rate>=0.5` | 0.5 |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("**Repro:** ``squall run 'a`b\\|c.json'``\n"), std::string::npos) << md;
}

TEST(MarkdownTextTest, EscapesMarkupAndFlattensLineBreaks) {
  EXPECT_EQ(markdown_text("plain text 1.5 - ok (yes)!"), "plain text 1.5 - ok (yes)!");
  EXPECT_EQ(markdown_text("a|b"), "a\\|b");
  EXPECT_EQ(markdown_text("*x* _y_ `z` [l](u) <b> #h ~s~ &amp; \\"),
            "\\*x\\* \\_y\\_ \\`z\\` \\[l\\](u) \\<b\\> \\#h \\~s\\~ \\&amp; \\\\");
  EXPECT_EQ(markdown_text("line\nbreak\r\ttab\x01"), "line break  tab ");
}

TEST(MarkdownTextTest, CodeSpansFenceAroundBackticks) {
  EXPECT_EQ(markdown_code("rate>=0.5"), "`rate>=0.5`");
  EXPECT_EQ(markdown_code("a`b"), "``a`b``");
  EXPECT_EQ(markdown_code("``x"), "``` ``x ```");
  EXPECT_EQ(markdown_code("x`"), "`` x` ``");
  EXPECT_EQ(markdown_code("a|b\nc"), "`a\\|b c`");
  EXPECT_EQ(markdown_code(""), "``");
}

}  // namespace
}  // namespace squall

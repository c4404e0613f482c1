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
      "| ✗ | `task_latency` | `p(99)<10s` | 10300 ms |\n"
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
      "**Repro:** `squall run scenarios/sample.json --seed 7`\n";
  EXPECT_EQ(markdown_summary(test_support::writer_sample_report()), expected);
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
  rep.tasks.by_reason = {{TaskStatus::degraded, "fallback_provider", 100}, {TaskStatus::safe_failed, "no_records_found", 2},
                         {TaskStatus::failed, "a", 1},  {TaskStatus::failed, "b", 5},
                         {TaskStatus::failed, "c", 3},  {TaskStatus::failed, "d", 3},
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
  rep.tasks.by_reason = {{TaskStatus::degraded, "relaxed_threshold", 50}, {TaskStatus::wrong_answer, "relaxed_threshold", 7}};
  const std::string md = markdown_summary(rep);
  EXPECT_NE(md.find("| wrong_answer | relaxed\\_threshold | 7 |\n"), std::string::npos) << md;
}

TEST(MarkdownWriterTest, HostileNamesStayInTheirCells) {
  Report rep = test_support::writer_sample_report();
  rep.scenario = "a|b *c* <script>\nd";
  rep.thresholds[0].metric = "provider_calls{provider:x|y`z}";
  rep.produced_by.repro = "squall run 'a`b|c.json'";
  const std::string md = markdown_summary(rep);
  EXPECT_NE(md.find("### ✗ squall: a\\|b \\*c\\* \\<script\\> d (1 of 2 thresholds failed)\n"), std::string::npos) << md;
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

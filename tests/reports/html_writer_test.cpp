#include "reports/writers/html_writer.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "reports/writers/html_assets.hpp"
#include "writer_support.hpp"

namespace squall {
namespace {

std::size_t occurrences(const std::string& text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The body of the page's <script type="application/json" id="squall-data"> element.
std::string data_text(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"squall-data\">";
  const std::size_t from = page.find(open);
  if (from == std::string::npos) return {};
  const std::size_t begin = from + open.size();
  return page.substr(begin, page.find("</script>", begin) - begin);
}

TEST(HtmlWriterTest, IsOneSelfContainedDocument) {
  const std::string page = html_page(test_support::writer_sample_report());
  EXPECT_EQ(
      page.rfind("<!DOCTYPE html>\n<html lang=\"en\" data-squall-report=\"1\">\n<head>\n<meta charset=\"utf-8\">\n", 0),
      0U);
  EXPECT_TRUE(page.ends_with("</main>\n</body>\n</html>\n"));
  // Three scripts (uPlot, the data, the page's own), all inline: nothing is fetched.
  EXPECT_EQ(occurrences(page, "<script"), 3U);
  EXPECT_EQ(occurrences(page, "</script>"), 3U);
  EXPECT_EQ(occurrences(page, " src="), 0U);
  EXPECT_EQ(occurrences(page, "<link"), 0U);
  EXPECT_EQ(occurrences(page, "@import"), 0U);
  EXPECT_NE(page.find(uplot_js()), std::string::npos);
  EXPECT_NE(page.find(uplot_css()), std::string::npos);
  EXPECT_NE(page.find(html_page_js()), std::string::npos);
  EXPECT_NE(page.find("<meta name=\"generator\" content=\"squall 0.1.0 with uPlot 1.6.32\">"), std::string::npos);
}

TEST(HtmlWriterTest, ShowsTheSummaryAndEveryThreshold) {
  const std::string page = html_page(test_support::writer_sample_report());
  EXPECT_NE(page.find("<title>squall: sample ✗</title>"), std::string::npos);
  EXPECT_NE(page.find("<h1 class=\"fail\">✗ squall: sample</h1>\n<p class=\"verdict\">1 of 2 thresholds failed</p>"),
            std::string::npos);
  EXPECT_NE(page.find("<dt>fingerprint</dt><dd><code>0123456789abcdef</code></dd>"), std::string::npos);
  EXPECT_NE(page.find("<code class=\"repro\">squall run scenarios/sample.json --seed 7</code>"), std::string::npos);
  // Task 1 succeeded, task 4 degraded, tasks 2 and 3 failed (sample_run.hpp).
  EXPECT_NE(page.find("<tr><td>succeeded</td><td class=\"n\">1</td><td class=\"n\">25.00%</td></tr>"),
            std::string::npos);
  EXPECT_NE(page.find("<tr><td>failed</td><td class=\"n\">2</td><td class=\"n\">50.00%</td></tr>"), std::string::npos);
  // Two of four tasks succeeded (rate 0.5 passes); the p99 latency is task 2's 10.3 s.
  EXPECT_NE(
      page.find("<tr class=\"pass\"><td>✓</td><td><code>task_success</code></td><td><code>rate&gt;=0.5</code></td>"
                "<td class=\"n\">0.5</td></tr>"),
      std::string::npos);
  EXPECT_NE(
      page.find("<tr class=\"fail\"><td>✗</td><td><code>task_latency</code></td><td><code>p(99)&lt;10s</code></td>"
                "<td class=\"n\">10.3 s</td></tr>"),
      std::string::npos);
  EXPECT_NE(page.find("<tr><td>web_search</td><td class=\"n\">5</td><td>success=3 empty=1 rate_limited=1</td>"),
            std::string::npos);
  EXPECT_NE(page.find("<tr><td>llm</td><td>timeout</td><td class=\"n\">1</td></tr>"), std::string::npos);
}

TEST(HtmlWriterTest, BreakerOpeningsByCauseFollowTheTransitions) {
  Report rep = test_support::writer_sample_report();
  EXPECT_NE(html_page(rep).find("<tr><th>breaker transitions</th><td>1</td></tr>\n"
                                "<tr><th>breaker openings by cause</th><td>consecutive_failures=1</td></tr>\n"),
            std::string::npos);
  rep.breaker_openings[static_cast<std::size_t>(BreakerCause::failure_rate)] = 2;
  EXPECT_NE(
      html_page(rep).find("<tr><th>breaker openings by cause</th><td>consecutive_failures=1 failure_rate=2</td></tr>"),
      std::string::npos);
  rep.breaker_openings = {};
  EXPECT_NE(html_page(rep).find("<tr><th>breaker openings by cause</th><td>none</td></tr>"), std::string::npos);
}

TEST(HtmlWriterTest, InjectedFaultsAreAlsoShownByPhase) {
  Report rep = test_support::writer_sample_report();
  rep.injected_fault_phases = {{"llm", "abort", 1}, {"llm", "delay", 0}, {"web_search", "delay", 2}};
  const std::string page = html_page(rep);
  EXPECT_NE(page.find("<th>provider</th><th>phase</th><th class=\"n\">injected</th>"), std::string::npos);
  EXPECT_NE(page.find("<tr><td>llm</td><td>abort</td><td class=\"n\">1</td></tr>"), std::string::npos);
  EXPECT_NE(page.find("<tr><td>web_search</td><td>delay</td><td class=\"n\">2</td></tr>"), std::string::npos);
  EXPECT_EQ(page.find("<td>llm</td><td>delay</td>"), std::string::npos);  // zeros are left out
}

TEST(HtmlWriterTest, EmbedsTheTimeSeriesAsData) {
  const std::string page = html_page(test_support::writer_sample_report());
  nlohmann::json data = nlohmann::json::parse(data_text(page));
  // Every outcome kind, in declaration order: the page's colours key on them.
  nlohmann::json kinds = nlohmann::json::array();
  for (const OutcomeKind k : all_outcome_kinds()) kinds.push_back(std::string(to_string(k)));
  EXPECT_EQ(data.at("outcome_kinds"), kinds);
  data.erase("outcome_kinds");
  // Windows of 10 s over the 30 s run (sample_run.hpp has every count). Latency: task 1
  // took 3.5 s; none finished in 10-20 s; tasks 3, 4 and 2 took 0, 1 and 10.3 s, so the
  // nearest-rank p50 is the 2nd of 3 (1 s) and p99 the 3rd. Success: 1 of 1, then 1
  // (degraded) of 3. In flight at each window's end: none at 10 s, task 2 (12-22.3 s) at
  // 20 s, none at 30 s. Histogram: 10.3 s in buckets of 500 ms (the smallest 1, 2, 5 x 10^k
  // with at most 40), so 21 buckets, the tasks in buckets 0, 2, 7 and 20. Faults by window
  // of their decision: the 429 at 0, the LLM's hang at 12.3 s. The thresholds bound the
  // success rate and the latency.
  const nlohmann::json expected = nlohmann::json::parse(R"({
    "window_s": 10.0,
    "end_s": 30.0,
    "t": [0.0, 10.0, 20.0],
    "tasks": { "succeeded": [1, 0, 0], "degraded": [0, 0, 1], "safe_failed": [0, 0, 0],
               "failed": [0, 0, 2], "wrong_answer": [0, 0, 0] },
    "task_success": [1.0, null, 0.333333],
    "tasks_in_flight": [0, 1, 0],
    "task_latency_ms": { "p50": [3500.0, null, 1000.0], "p99": [3500.0, null, 10300.0],
                         "max": [3500.0, null, 10300.0] },
    "latency_histogram": { "bucket_ms": 500.0,
                           "counts": [1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] },
    "providers": [
      { "name": "llm", "attempts": [1, 0, 1], "outcomes": { "success": [1, 0, 0], "timeout": [0, 0, 1] },
        "tokens": [1600, 0, 1300], "cost_usd": [0.0056, 0.0, 0.0032] },
      { "name": "web_search", "attempts": [2, 2, 1],
        "outcomes": { "success": [1, 1, 1], "empty": [0, 1, 0], "rate_limited": [1, 0, 0] },
        "tokens": [0, 0, 0], "cost_usd": [0.0, 0.0, 0.0] } ],
    "injected_faults": [
      { "provider": "llm", "kind": "timeout", "counts": [0, 1, 0] },
      { "provider": "web_search", "kind": "rate_limited", "counts": [1, 0, 0] } ],
    "breakers": { "t": [0.0, 22.3, 30.0], "series": [ { "label": "llm -> llm", "state": [0, 2, 2] } ] },
    "breaker_transitions_shown": 1,
    "breaker_transitions_total": 1,
    "limiters": [],
    "schedule": { "faults": [], "bursts": [] },
    "thresholds": [
      { "chart": "task_success", "label": "task_success rate>=0.5", "value": 0.5, "passed": true },
      { "chart": "task_latency", "label": "task_latency p(99)<10s", "value": 10000.0, "passed": false } ]
  })");
  EXPECT_EQ(data, expected) << data.dump(2);
}

TEST(HtmlWriterTest, TheScheduleIsInSecondsAndEndsWithTheRun) {
  Report rep = test_support::writer_sample_report();
  rep.schedule.faults = {{"llm", "rate_limited", "", 5 * kSecond, 12'500 * kMillisecond, 0.5, false},
                         {"web_search", "timeout", "us-east", 20 * kSecond, kNever, 1.0, true}};
  rep.schedule.bursts = {{2 * kSecond, 40 * kSecond, 6.0}};
  const nlohmann::json data = nlohmann::json::parse(data_text(html_page(rep)));
  EXPECT_EQ(data.at("schedule"), nlohmann::json::parse(R"({
    "faults": [
      { "provider": "llm", "kind": "rate_limited", "outage": "", "from": 5.0, "to": 12.5, "probability": 0.5,
        "flapping": false },
      { "provider": "web_search", "kind": "timeout", "outage": "us-east", "from": 20.0, "to": 30.0,
        "probability": 1.0, "flapping": true } ],
    "bursts": [ { "from": 2.0, "to": 30.0, "rate_per_s": 6.0 } ]
  })"))
      << data.at("schedule").dump(2);
}

TEST(HtmlWriterTest, OnlyTheThresholdsAChartBoundsAreDrawn) {
  Report rep = test_support::writer_sample_report();
  rep.thresholds = {{"cost_usd", "sum<5", 0.0088, true, 4.99, ""},
                    {"cost_usd", "avg<1", 0.0022, true, 0.99, ""},
                    {"task_latency{template:lookup}", "p(99)<1s", 1000.0, true, 0.0, ""},
                    {"provider_calls", "count<100", 8.0, true, 92.0, ""}};
  const nlohmann::json data = nlohmann::json::parse(data_text(html_page(rep)));
  EXPECT_EQ(data.at("thresholds"), nlohmann::json::parse(R"([
    { "chart": "cost_usd", "label": "cost_usd sum<5", "value": 5.0, "passed": true } ])"));
}

TEST(HtmlWriterTest, WithoutBreakerTransitionsTheBreakerSeriesIsEmpty) {
  Report rep = test_support::writer_sample_report();
  rep.breaker_transitions.clear();
  rep.breaker_transitions_total = 0;
  const nlohmann::json data = nlohmann::json::parse(data_text(html_page(rep)));
  EXPECT_EQ(data.at("breakers"), nlohmann::json::parse(R"({"t": [0.0, 30.0], "series": []})"));
}

TEST(HtmlWriterTest, NamesCannotBreakOutOfTheirElements) {
  Report rep = test_support::writer_sample_report();
  const std::string hostile = "</script><script>alert(1)</script><!--\xE2\x80\xA8\"'&";
  rep.scenario = hostile;
  rep.providers[0].name = hostile;
  rep.thresholds[0].metric = hostile;
  rep.produced_by.repro = hostile;
  const std::string page = html_page(rep);
  EXPECT_EQ(occurrences(page, "<script"), 3U);
  EXPECT_EQ(occurrences(page, "</script>"), 3U);
  EXPECT_EQ(occurrences(page, "<!--"), 0U);
  // U+2028 is harmless in text, but not raw in the data.
  EXPECT_EQ(occurrences(data_text(page), "\xE2\x80\xA8"), 0U);
  EXPECT_NE(
      page.find(
          "<title>squall: &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--\xE2\x80\xA8&quot;&#39;&amp; ✗"),
      std::string::npos);
  // The data still gives back the name as it was.
  const nlohmann::json data = nlohmann::json::parse(data_text(page));
  EXPECT_EQ(data.at("providers").at(0).at("name"), hostile);
}

TEST(HtmlWriterTest, BrokenUtf8InANameStillGivesValidData) {
  Report rep = test_support::writer_sample_report();
  rep.providers[0].name = "bad\xff";
  const nlohmann::json data = nlohmann::json::parse(data_text(html_page(rep)));
  EXPECT_EQ(data.at("providers").at(0).at("name"), "bad\xEF\xBF\xBD");
}

}  // namespace
}  // namespace squall

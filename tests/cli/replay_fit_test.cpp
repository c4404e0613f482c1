// Round trip of the fits: a shipped incident run with the OTLP export, replayed, gives
// back its fault windows (edges within one window width, probabilities within 4 standard
// errors) and the Retry-After it sent.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "cli_support.hpp"
#include "engine/runtime/duration.hpp"

namespace squall::test_support {
namespace {

struct PrintedRule {
  std::string provider;
  double from_s = 0;
  double to_s = 0;
  std::string kind;
  double probability = 0;
  double standard_error = 0;
  std::string retry_after;  // empty when none printed
};

double seconds_of(const std::string& text) {
  const auto parsed = parse_duration(text);
  EXPECT_TRUE(std::holds_alternative<Nanos>(parsed)) << text;
  return std::holds_alternative<Nanos>(parsed) ? static_cast<double>(std::get<Nanos>(parsed)) / 1e9 : -1;
}

// The rules of the "fault windows" section, each with its window.
std::vector<PrintedRule> printed_rules(const std::string& out) {
  const std::regex window(R"(^  (\S+) \[(\S+), (\S+)\): \d+ attempts.*$)");
  const std::regex rule(R"(^    (\S+) probability ([0-9.]+) \(\d+/\d+, SE ([0-9.]+)\)(, retry_after (\S+) .*)?$)");
  std::vector<PrintedRule> rules;
  PrintedRule current;
  std::istringstream lines(out.substr(out.find("fault windows (")));
  std::smatch m;
  for (std::string line; std::getline(lines, line) && line.rfind("latency (", 0) != 0;) {
    if (std::regex_match(line, m, window)) {
      current = PrintedRule{m[1], seconds_of(m[2]), seconds_of(m[3]), "", 0, 0, ""};
    } else if (std::regex_match(line, m, rule)) {
      PrintedRule r = current;
      r.kind = m[1];
      r.probability = std::stod(m[2]);
      r.standard_error = std::stod(m[3]);
      r.retry_after = m[5];
      rules.push_back(r);
    }
  }
  return rules;
}

TEST(ReplayFitTest, ALaunchSurgeRoundTripsItsFaultWindows) {
  const fs::path otlp = temp_path("surge.otlp.json");
  const fs::path report = temp_path("surge.json");
  ASSERT_EQ(squall("run scenarios/incidents/launch-surge-429-storm.json -q --out " + report.string() +
                   " --report otlp=" + otlp.string())
                .exit_code,
            0);
  const Result r = squall("replay " + otlp.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_NE(r.out.find("fault windows (PELT, multinomial cost, BIC penalty K ln N"), std::string::npos) << r.out;
  const std::vector<PrintedRule> rules = printed_rules(r.out);
  // The LLM's storm: every call refused in [4m, 270s) with Retry-After 20 s (width 30 s).
  int storms = 0;
  for (const PrintedRule& p : rules) {
    if (p.provider != "llm" || p.kind != "rate_limited") continue;
    ++storms;
    EXPECT_NEAR(p.from_s, 240, 30);
    EXPECT_NEAR(p.to_s, 270, 30);
    EXPECT_NEAR(p.probability, 1.0, 4 * p.standard_error + 1e-9);
    EXPECT_EQ(p.retry_after, "20s");
  }
  EXPECT_EQ(storms, 1) << r.out;
  // The search API's 429s: 0.2 in [2m, 6m), 0.9 in its peak [180s, 195s) (width 15 s).
  std::vector<PrintedRule> search;
  for (const PrintedRule& p : rules) {
    if (p.provider == "web_search" && p.kind == "rate_limited") search.push_back(p);
  }
  ASSERT_EQ(search.size(), 3u) << r.out;
  EXPECT_NEAR(search[0].from_s, 120, 15);
  EXPECT_NEAR(search[0].probability, 0.2, 4 * search[0].standard_error);
  EXPECT_NEAR(search[1].from_s, 180, 15);
  EXPECT_NEAR(search[1].to_s, 195, 15);
  EXPECT_NEAR(search[1].probability, 0.9, 4 * search[1].standard_error);
  EXPECT_NEAR(search[2].to_s, 360, 15);
  EXPECT_NEAR(search[2].probability, 0.2, 4 * search[2].standard_error);
  EXPECT_EQ(search[2].retry_after, "");
}

// scenarios/replay/trace.jsonl: the official openai client under the official OpenTelemetry
// instrumentation against `squall serve scenarios/replay/served.json` (a 429 storm of 60%
// with Retry-After 1 s in [20 s, 40 s), 2% 500s), in real time. Replay reads what the server
// counted (scenarios/replay/served-report.json), finds the storm, and calibrates.
TEST(ReplayFitTest, TheShippedOpenTelemetryTraceGivesBackTheWorldItWasRecordedIn) {
  const fs::path dir = temp_path("replay-example");
  const Result r = squall("replay scenarios/replay/trace.jsonl --out-dir " + dir.string() +
                          " --policy scenarios/replay/max-retries-5.yaml");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;  // the calibration passes
  EXPECT_NE(r.out.find("read: 298 attempts, 0 agent spans, 298 HTTP requests under them"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("grouped: 120 tasks (0 without attempts), 232 logical calls (0 with a fallback, 0 hedged), 298 "
                       "attempts (66 in a span with others, 0 joined by timing"),
            std::string::npos)
      << r.out;
  // The server's counts: 298 calls, 215 answered, 76 rate_limited, 7 server_error.
  EXPECT_NE(r.out.find("openai: rate_limited 76, server_error 7, success 172, truncated 43"), std::string::npos)
      << r.out;
  const std::vector<PrintedRule> rules = printed_rules(r.out);
  int storms = 0;
  for (const PrintedRule& p : rules) {
    if (p.kind != "rate_limited" || p.probability < 0.2) continue;
    ++storms;
    EXPECT_NEAR(p.from_s, 20, 3);  // scenario time starts at the first task, within a second of the server's
    EXPECT_NEAR(p.to_s, 40, 3);
    EXPECT_NEAR(p.probability, 0.6, 4 * p.standard_error);
    EXPECT_EQ(p.retry_after, "1s");
  }
  EXPECT_EQ(storms, 1) << r.out;
  // The client's policy: its default 2 retries, Retry-After honoured.
  const std::string policy = read_file(dir / "as-deployed.yaml");
  EXPECT_NE(policy.find("max_attempts: 3 "), std::string::npos) << policy;
  EXPECT_NE(policy.find("honour_retry_after: true "), std::string::npos) << policy;
  EXPECT_NE(policy.find("jitter_range: [0.75, 1] "), std::string::npos) << policy;  // 1 - 0.25 u
  // No deadline in the trace: the loader's default, flagged, not the longest task.
  EXPECT_NE(read_file(dir / "scenario.yaml").find("deadline: 1m  # PRIOR (not in the trace)"), std::string::npos);
  // The counterfactual: 6 attempts ride out the storm more often.
  const std::regex success(R"(task_success\s+0\.8583\s+([0-9.]+) ± [0-9.]+\s+([0-9.]+) ± )");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, success)) << r.out;
  EXPECT_GT(std::stod(m[2]), std::stod(m[1]) + 0.05);
}

TEST(ReplayFitTest, SameTraceSameBytes) {
  const fs::path otlp = temp_path("storm.otlp.json");
  ASSERT_EQ(squall("run scenarios/incidents/internal-api-retry-storm.json -q --out " + temp_path("s.json").string() +
                   " --report otlp=" + otlp.string())
                .exit_code,
            0);
  const Result a = squall("replay " + otlp.string());
  const Result b = squall("replay " + otlp.string());
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_NE(a.out.find("arrivals (Bayesian Blocks, p0 0.05, ncp_prior "), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("latency (lognormal by maximum likelihood on answered attempts):"), std::string::npos);
  EXPECT_EQ(a.out, b.out);
}

}  // namespace
}  // namespace squall::test_support

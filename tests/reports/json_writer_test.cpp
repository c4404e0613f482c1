#include "reports/json_writer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sample_run.hpp"

namespace squall {
namespace {

Report sample_report() {
  Recorder r;
  test_support::feed_sample_run(r);
  const std::vector<Threshold> ts{std::get<Threshold>(parse_threshold("task_success", "rate>=0.5")),
                                  std::get<Threshold>(parse_threshold("call_latency{outcome:overloaded}", "p(99)<1s"))};
  return build_report(r, RunInfo{"sample", 7, 30 * kSecond}, ts);
}

std::vector<std::string> keys(const nlohmann::ordered_json& j) {
  std::vector<std::string> out;
  for (const auto& item : j.items()) out.push_back(item.key());
  return out;
}

TEST(JsonWriterTest, TopLevelKeysAreInTheirFixedOrder) {
  const std::vector<std::string> expected{"squall_report_version",
                                          "produced_by",
                                          "scenario",
                                          "seed",
                                          "duration_ms",
                                          "fingerprint",
                                          "tasks",
                                          "latency_ms",
                                          "providers",
                                          "logical_calls",
                                          "retry_amplification",
                                          "tokens",
                                          "cost_usd",
                                          "task_spend",
                                          "breaker_transitions",
                                          "breaker_transitions_total",
                                          "breaker_openings",
                                          "fallbacks",
                                          "caches",
                                          "hedges",
                                          "ladder",
                                          "escalations",
                                          "escalation_reasons",
                                          "answers",
                                          "injected_faults",
                                          "injected_faults_cut_short",
                                          "injected_fault_phases",
                                          "thresholds",
                                          "thresholds_passed",
                                          "time_series"};
  EXPECT_EQ(keys(to_json(sample_report())), expected);
}

TEST(JsonWriterTest, NestedKeysAreInTheirFixedOrder) {
  const nlohmann::ordered_json j = to_json(sample_report());
  EXPECT_EQ(keys(j["tasks"]), (std::vector<std::string>{"total", "succeeded", "degraded", "safe_failed", "failed",
                                                        "wrong_answer", "by_reason", "by_template"}));
  EXPECT_EQ(keys(j["latency_ms"]), (std::vector<std::string>{"count", "p50", "p90", "p99", "max", "mean"}));
  EXPECT_EQ(keys(j["providers"]), (std::vector<std::string>{"llm", "web_search"}));
  EXPECT_EQ(keys(j["providers"]["llm"]),
            (std::vector<std::string>{"calls", "by_outcome", "latency_ms", "tokens", "cost_usd", "retries_refused",
                                      "throttled", "truncated"}));
  EXPECT_EQ(keys(j["tokens"]), (std::vector<std::string>{"input", "output", "burned_by_failed_attempts"}));
  EXPECT_EQ(keys(j["cost_usd"]),
            (std::vector<std::string>{"total", "burned_by_failed_attempts", "per_task", "per_provider"}));
  EXPECT_EQ(keys(j["thresholds"][0]), (std::vector<std::string>{"metric", "expression", "observed", "passed"}));
  EXPECT_EQ(keys(j["breaker_transitions"][0]), (std::vector<std::string>{"tool", "provider", "at_ms", "from", "to"}));
}

TEST(JsonWriterTest, EscalationsListEveryLevelAndNonZeroReasons) {
  const nlohmann::ordered_json none = to_json(sample_report());
  EXPECT_EQ(none["escalations"].dump(),
            R"msg({"auto_retry":0,"model_switch":0,"human_review":0,"urgent_action":0,"critical_failure":0})msg");
  EXPECT_EQ(none["escalation_reasons"], nlohmann::ordered_json::object());

  Recorder r;
  test_support::feed_sample_run(r);
  r.on_escalation(EscalationEvent{1, "research", EscalationLevel::critical_failure, EscalationCondition::failed, 0});
  r.on_escalation(EscalationEvent{2, "research", EscalationLevel::auto_retry, EscalationCondition::failed_attempts, 0});
  r.on_escalation(EscalationEvent{3, "lookup", EscalationLevel::critical_failure, EscalationCondition::tokens, 0});
  const nlohmann::ordered_json j = to_json(build_report(r, RunInfo{"sample", 7, 30 * kSecond}, {}));
  EXPECT_EQ(j["escalations"].dump(),
            R"msg({"auto_retry":1,"model_switch":0,"human_review":0,"urgent_action":0,"critical_failure":2})msg");
  // Levels in order of severity, reasons in condition order (tokens before failed).
  EXPECT_EQ(j["escalation_reasons"].dump(),
            R"msg({"auto_retry":{"failed_attempts":1},"critical_failure":{"tokens":1,"failed":1}})msg");
}

TEST(JsonWriterTest, WritesTheFiguresOfTheRun) {
  const nlohmann::ordered_json j = to_json(sample_report());
  EXPECT_EQ(j["squall_report_version"], 1);
  EXPECT_EQ(j["fingerprint"].get<std::string>().size(), 16U);
  EXPECT_EQ(j["tasks"]["by_reason"]["failed"]["timeout"], 1);
  EXPECT_EQ(j["tasks"]["by_reason"]["safe_failed"], nlohmann::ordered_json::object());
  EXPECT_EQ(
      j["tasks"]["by_template"]["research"].dump(),
      R"msg({"total":2,"succeeded":1,"degraded":0,"safe_failed":0,"failed":1,"wrong_answer":0,"tokens":2900,"cost_usd":0.0088})msg");
  EXPECT_EQ(j["providers"]["web_search"]["by_outcome"]["rate_limited"], 1);
  EXPECT_EQ(j["providers"]["web_search"]["by_outcome"]["cancelled"], 0);  // every kind is listed
  EXPECT_EQ(j["retry_amplification"]["overall"], 1.166667);               // 7 / 6 to 6 decimals
  EXPECT_EQ(j["retry_amplification"]["per_tool"]["web_search"], 1.666667);
  EXPECT_EQ(j["cost_usd"]["total"], 0.0088);
  EXPECT_EQ(j["breaker_transitions"][0]["at_ms"], 22'300.0);
  EXPECT_EQ(j["breaker_transitions"][0]["to"], "open");
  EXPECT_EQ(j["injected_faults"]["llm"]["timeout"], 1);
  EXPECT_EQ(j["thresholds"][0]["observed"], 0.5);
  EXPECT_TRUE(j["thresholds"][0]["passed"].get<bool>());
  EXPECT_TRUE(j["thresholds"][1]["observed"].is_null());
  EXPECT_FALSE(j["thresholds_passed"].get<bool>());
  EXPECT_EQ(j["time_series"]["window_ms"], 10'000.0);
  ASSERT_EQ(j["time_series"]["windows"].size(), 3U);
  EXPECT_EQ(j["time_series"]["windows"][1]["provider_calls"].dump(), R"msg({"web_search":{"success":1,"empty":1}})msg");
  // Injected faults by window of their decision, non-zero only: the 429 at 0, the hang at
  // 12.3 s.
  EXPECT_EQ(j["time_series"]["windows"][0]["injected_faults"].dump(), R"msg({"web_search":{"rate_limited":1}})msg");
  EXPECT_EQ(j["time_series"]["windows"][1]["injected_faults"].dump(), R"msg({"llm":{"timeout":1}})msg");
  EXPECT_EQ(j["time_series"]["windows"][2]["injected_faults"].dump(), "{}");
}

TEST(JsonWriterTest, RoundsMillisecondsToThreeDecimals) {
  Recorder r;
  r.on_task_finished(TaskResult{1, "t", 0, 1'234'567, TaskStatus::succeeded, ""});  // 1.234567 ms
  const nlohmann::ordered_json j = to_json(build_report(r, RunInfo{"x", 1, kSecond}, {}));
  EXPECT_EQ(j["latency_ms"]["p50"].dump(), "1.235");
  EXPECT_TRUE(to_json(build_report(Recorder(), RunInfo{"x", 1, 0}, {}))["latency_ms"]["p50"].is_null());
}

TEST(JsonWriterTest, SameEventsGiveByteIdenticalText) {
  const std::string a = to_json_text(sample_report());
  const std::string b = to_json_text(sample_report());
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.back(), '\n');
}

TEST(JsonWriterTest, ProvidersSeenInAnotherOrderGiveTheSameSections) {
  // Names are sorted, so only the fingerprint (the trace order) differs.
  Recorder a;
  a.on_attempt(AttemptEvent{1, "b", "b", 1, 0, 5, OutcomeKind::success, 200, 0, 0, 0});
  a.on_attempt(AttemptEvent{1, "a", "a", 1, 0, 5, OutcomeKind::success, 200, 0, 0, 0});
  Recorder b;
  b.on_attempt(AttemptEvent{1, "a", "a", 1, 0, 5, OutcomeKind::success, 200, 0, 0, 0});
  b.on_attempt(AttemptEvent{1, "b", "b", 1, 0, 5, OutcomeKind::success, 200, 0, 0, 0});
  nlohmann::ordered_json ja = to_json(build_report(a, RunInfo{"x", 1, kSecond}, {}));
  nlohmann::ordered_json jb = to_json(build_report(b, RunInfo{"x", 1, kSecond}, {}));
  EXPECT_NE(ja["fingerprint"], jb["fingerprint"]);
  ja.erase("fingerprint");
  jb.erase("fingerprint");
  EXPECT_EQ(ja.dump(), jb.dump());
}

class JsonFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("squall_json_writer_" + std::to_string(::getpid()) + "_" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(JsonFileTest, WritesTheSameTextToDisk) {
  const Report rep = sample_report();
  write_json_atomic(rep, dir_ / "report.json");
  std::ifstream in(dir_ / "report.json", std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  EXPECT_EQ(content.str(), to_json_text(rep));
}

}  // namespace
}  // namespace squall

#include "reports/writers/trace_writer.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "writer_support.hpp"

namespace squall {
namespace {

const TraceHeader kHeader{"sample", 7, "0.1.0"};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The sample run traced: the recorder's events, fed to a trace writer.
std::string traced_sample_run() {
  std::string out;
  TraceWriter trace([&out](std::string_view piece) { out += piece; }, kHeader);
  test_support::feed_sample_events(trace);
  trace.finish(test_support::writer_sample_report());
  return out;
}

TEST(TraceWriterTest, WritesHeaderEveryEventInOrderAndTrailer) {
  const std::vector<std::string> lines = lines_of(traced_sample_run());
  ASSERT_EQ(lines.size(), 22U);
  EXPECT_EQ(
      lines[0],
      R"({"seq":0,"event":"trace_start","squall_trace_version":1,"scenario":"sample","seed":7,"squall_version":"0.1.0"})");
  EXPECT_EQ(
      lines[1],
      R"({"seq":1,"event":"attempt","at_ns":200000000,"task":1,"tool":"web_search","provider":"web_search",)"
      R"("attempt":1,"started_ns":0,"outcome":"rate_limited","status":429,"input_tokens":0,"output_tokens":0,"cost_usd":0.0})");
  EXPECT_EQ(lines[2], R"({"seq":2,"event":"backoff","at_ns":200000000,"task":1,"tool":"web_search","after_attempt":1,)"
                      R"("delay_ns":1000000000,"from_retry_after":false})");
  EXPECT_EQ(lines[4],
            R"({"seq":4,"event":"logical_call","at_ns":0,"task":0,"tool":"web_search","provider":"web_search",)"
            R"("attempts":2,"outcome":"success"})");
  EXPECT_EQ(
      lines[5],
      R"({"seq":5,"event":"attempt","at_ns":3500000000,"task":1,"tool":"llm","provider":"llm","attempt":1,)"
      R"("started_ns":1500000000,"outcome":"success","status":200,"input_tokens":1200,"output_tokens":400,"cost_usd":0.0056})");
  EXPECT_EQ(lines[7],
            R"({"seq":7,"event":"task_finished","at_ns":3500000000,"task":1,"template":"research","started_ns":0,)"
            R"("status":"succeeded","reason":"","tokens":1600,"cost_usd":0.0056})");
  EXPECT_EQ(
      lines[9],
      R"({"seq":9,"event":"query_change","at_ns":12100000000,"task":2,"tool":"web_search","strategy":"simplify_query",)"
      R"("step":"drop_quotes","from":"\"acme\" 2024","to":"acme 2024"})");
  EXPECT_EQ(
      lines[15],
      R"({"seq":15,"event":"breaker_transition","at_ns":22300000000,"tool":"llm","provider":"llm","from":"closed","to":"open","cause":"consecutive_failures"})");
  EXPECT_EQ(
      lines[21],
      R"({"seq":21,"event":"run_finished","at_ns":30000000000,"fingerprint":"0123456789abcdef","tasks":4,"thresholds_passed":false})");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto j = nlohmann::json::parse(lines[i]);
    EXPECT_EQ(j.at("seq"), i);
  }
}

TEST(TraceWriterTest, EveryEventTypeHasARecord) {
  std::string out;
  TraceWriter trace([&out](std::string_view piece) { out += piece; }, kHeader);
  EventSink& sink = trace;
  sink.on_give_up(GiveUpEvent{3, "llm", "retry", "max_attempts", 5, OutcomeKind::timeout});
  sink.on_budget_exhausted(BudgetExhaustedEvent{3, "llm", 6, "max_tokens", 900, 1400, 1000});
  sink.on_fallback(
      FallbackEvent{3, "answer", FallbackAction::switched, "gpt-4o", "claude", OutcomeKind::server_error, 7});
  sink.on_reflection(
      ReflectionEvent{3, "crm", "gpt-4o", 1, 8, 9, OutcomeKind::bad_request, OutcomeKind::success, 10, 20, 0.5});
  sink.on_escalation(
      EscalationEvent{3, "support", EscalationLevel::human_review, EscalationCondition::safe_failed, 10});
  trace.finish(test_support::writer_sample_report());
  const std::vector<std::string> lines = lines_of(out);
  ASSERT_EQ(lines.size(), 7U);
  EXPECT_EQ(lines[1], R"({"seq":1,"event":"give_up","at_ns":5,"task":3,"tool":"llm","strategy":"retry",)"
                      R"("reason":"max_attempts","last_outcome":"timeout"})");
  EXPECT_EQ(lines[2], R"({"seq":2,"event":"budget_exhausted","at_ns":6,"task":3,"tool":"llm","limit":"max_tokens",)"
                      R"("spent":900.0,"projected":1400.0,"maximum":1000.0})");
  EXPECT_EQ(lines[3], R"({"seq":3,"event":"fallback","at_ns":7,"task":3,"tool":"answer","action":"switched",)"
                      R"("from":"gpt-4o","to":"claude","trigger":"server_error"})");
  EXPECT_EQ(
      lines[4],
      R"({"seq":4,"event":"reflection","at_ns":9,"task":3,"tool":"crm","provider":"gpt-4o","reflection":1,)"
      R"("started_ns":8,"trigger":"bad_request","outcome":"success","input_tokens":10,"output_tokens":20,"cost_usd":0.5})");
  EXPECT_EQ(lines[5],
            R"({"seq":5,"event":"escalation","at_ns":10,"task":3,"template":"support","level":"human_review",)"
            R"("reason":"safe_failed"})");
}

TEST(TraceWriterTest, HostileStringsAreEscapedAndEachRecordStaysOneLine) {
  std::string out;
  TraceWriter trace([&out](std::string_view piece) { out += piece; }, TraceHeader{"a\"b\nc", 1, "v"});
  const std::string from = std::string("say \"hi\",\n\t\x01 \\ \xFF", 16);
  trace.on_query_change(QueryChangeEvent{1, "web,search", "simplify_query", "drop_quotes", 0, from, "</script>"});
  trace.finish(test_support::writer_sample_report());
  const std::vector<std::string> lines = lines_of(out);
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_EQ(nlohmann::json::parse(lines[0]).at("scenario"), "a\"b\nc");
  EXPECT_EQ(lines[1],
            R"({"seq":1,"event":"query_change","at_ns":0,"task":1,"tool":"web,search","strategy":"simplify_query",)"
            R"("step":"drop_quotes","from":"say \"hi\",\n\t\u0001 \\ )"
            "\xEF\xBF\xBD"
            R"(","to":"</script>"})");
}

TEST(TraceWriterTest, LargeTracesReachTheOutputInBoundedPieces) {
  std::vector<std::size_t> pieces;
  std::string out;
  TraceWriter trace(
      [&](std::string_view piece) {
        pieces.push_back(piece.size());
        out += piece;
      },
      kHeader);
  for (int i = 0; i < 5000; ++i) test_support::feed_sample_events(trace);
  EXPECT_GT(pieces.size(), 10U);  // handed over as it goes, not held to the end
  for (std::size_t n : pieces) EXPECT_LT(n, TraceWriter::kBufferBytes + 1024);
  trace.finish(test_support::writer_sample_report());
  EXPECT_EQ(lines_of(out).size(), trace.records());
  EXPECT_EQ(trace.records(), 5000U * 20U + 2U);
}

TEST(TraceWriterTest, AnOutputErrorStopsWritingAndIsRethrownByFinish) {
  int calls = 0;
  TraceWriter trace(
      [&](std::string_view) {
        ++calls;
        throw std::runtime_error("disk full");
      },
      kHeader);
  for (int i = 0; i < 2000; ++i) test_support::feed_sample_events(trace);  // no throw into the engine
  EXPECT_EQ(calls, 1);
  EXPECT_THROW(
      {
        try {
          trace.finish(test_support::writer_sample_report());
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "disk full");
          throw;
        }
      },
      std::runtime_error);
}

}  // namespace
}  // namespace squall

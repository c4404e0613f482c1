#include "reports/writers/csv_writer.hpp"

#include <gtest/gtest.h>

#include "writer_support.hpp"

namespace squall {
namespace {

// The columns of one provider: its total, then every outcome kind in declaration order.
std::string provider_columns(const std::string& p) {
  std::string h = "calls:" + p;
  for (OutcomeKind kind : all_outcome_kinds()) h += ",calls:" + p + ":" + std::string(to_string(kind));
  return h;
}

TEST(CsvWriterTest, RendersTheSampleRun) {
  // Outcome columns: success, empty, timeout, rate_limited, quota_exhausted, overloaded, server_error,
  // auth_error, bad_request, context_length, content_filter, invalid_output, truncated, circuit_open,
  // budget_exhausted, cancelled, throttled, bulkhead_full, rate_limiter_rejected.
  const std::string expected =
      "window_start_ms,window_end_ms,tasks_succeeded,tasks_degraded,tasks_safe_failed,tasks_failed,"
      "tasks_wrong_answer," +
      provider_columns("llm") + "," + provider_columns("web_search") +
      ",faults:llm:timeout,faults:web_search:rate_limited"
      "\r\n"
      // 0-10 s: task 1 succeeded; llm 1 success; web_search rate_limited then success; the
      // 429 injected.
      "0,10000,1,0,0,0,0,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,1,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1\r\n"
      // 10-20 s: web_search empty then success; nothing finished on llm; its hang injected.
      "10000,20000,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0\r\n"
      // 20-30 s: tasks 2 and 3 failed, 4 degraded; llm timeout; web_search success.
      "20000,30000,0,1,0,2,0,1,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\r\n";
  EXPECT_EQ(csv_time_series(test_support::writer_sample_report()), expected);
}

TEST(CsvWriterTest, CapacitySeriesFollowTheFaultColumns) {
  // llm has a capacity layer whose windows cover 0-20 s only: the 20-30 s row is zeros.
  Report rep = test_support::writer_sample_report();
  CapacityReport c;
  c.provider = "llm";
  c.windows.push_back(CapacityWindowRow{12, 9, 2, 1, 0.25, 3, 1.5, 4});
  c.windows.push_back(CapacityWindowRow{7, 7, 0, 0, 0, 0, 2.0 / 3.0, 2});
  rep.capacity.push_back(c);
  const std::string csv = csv_time_series(rep);
  const std::string columns =
      "capacity:llm:offered,capacity:llm:goodput,capacity:llm:rate_limited,capacity:llm:rejected,"
      "capacity:llm:queue_mean,capacity:llm:queue_max,capacity:llm:in_flight_mean,capacity:llm:in_flight_max\r\n";
  std::vector<std::string> lines;
  for (std::size_t from = 0; from < csv.size();) {
    const std::size_t end = csv.find("\r\n", from);
    lines.push_back(csv.substr(from, end + 2 - from));
    from = end + 2;
  }
  ASSERT_EQ(lines.size(), 4U);
  EXPECT_TRUE(lines[0].ends_with("faults:web_search:rate_limited," + columns)) << lines[0];
  EXPECT_TRUE(lines[1].ends_with(",12,9,2,1,0.25,3,1.5,4\r\n")) << lines[1];
  EXPECT_TRUE(lines[2].ends_with(",7,7,0,0,0,0,0.666667,2\r\n")) << lines[2];
  EXPECT_TRUE(lines[3].ends_with(",0,0,0,0,0,0,0,0\r\n")) << lines[3];
}

TEST(CsvWriterTest, ProviderNamesAreQuotedInTheHeader) {
  Report rep = test_support::writer_sample_report();
  rep.providers[0].name = "gpt,\"4\"";
  const std::string csv = csv_time_series(rep);
  EXPECT_NE(csv.find(",tasks_wrong_answer,\"calls:gpt,\"\"4\"\"\",\"calls:gpt,\"\"4\"\":success\","), std::string::npos)
      << csv;
}

TEST(CsvFieldTest, QuotesOnlyWhatRfc4180Requires) {
  EXPECT_EQ(csv_field("plain text; ok"), "plain text; ok");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("cr\r"), "\"cr\r\"");
  EXPECT_EQ(csv_field("tab\tand\x01"), "tab\tand\x01");  // RFC 4180 quotes neither
}

}  // namespace
}  // namespace squall

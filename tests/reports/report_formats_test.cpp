#include "reports/writers/report_formats.hpp"

#include <gtest/gtest.h>

#include "reports/json_writer.hpp"
#include "writer_support.hpp"

namespace squall {
namespace {

TEST(ReportFormatsTest, ListsEveryFormatOnce) {
  EXPECT_EQ(report_format_names(), "json, junit, markdown, csv, jsonl, html, otlp");
  for (const ReportFormat& f : report_formats()) {
    EXPECT_EQ(find_report_format(f.name), &f);
    EXPECT_FALSE(f.description.empty()) << f.name;
  }
  EXPECT_EQ(find_report_format("xml"), nullptr);
  EXPECT_EQ(find_report_format("JSON"), nullptr);
}

TEST(ReportFormatsTest, OnlyTheTracesAreStreamed) {
  for (const ReportFormat& f : report_formats())
    EXPECT_EQ(f.streamed(), f.name == "jsonl" || f.name == "otlp") << f.name;
}

TEST(ReportFormatsTest, JsonIsTheReportAsOutWritesIt) {
  const Report rep = test_support::writer_sample_report();
  EXPECT_EQ(find_report_format("json")->render(rep), to_json_text(rep));
}

TEST(ReportFormatsTest, RenderedFormatsAreDeterministic) {
  for (const ReportFormat& f : report_formats()) {
    if (f.streamed()) continue;
    const std::string a = f.render(test_support::writer_sample_report());
    EXPECT_FALSE(a.empty()) << f.name;
    EXPECT_EQ(a, f.render(test_support::writer_sample_report())) << f.name;
  }
}

}  // namespace
}  // namespace squall

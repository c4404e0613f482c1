#include "reports/writers/report_formats.hpp"

#include <array>

#include "reports/json_writer.hpp"
#include "reports/writers/csv_writer.hpp"
#include "reports/writers/html_writer.hpp"
#include "reports/writers/junit_writer.hpp"
#include "reports/writers/markdown_writer.hpp"

namespace squall {
namespace {

const std::array<ReportFormat, 7> kFormats{{
    {"json", "the full report (squall_report_version 1), as --out writes it", to_json_text},
    {"junit", "JUnit XML: a test suite for the scenario, a test case per threshold", junit_xml},
    {"markdown", "a Markdown job summary; also appended to $GITHUB_STEP_SUMMARY when that is set", markdown_summary},
    {"csv", "the per-window time series, one row per window (RFC 4180)", csv_time_series},
    {"jsonl", "a trace of every engine event, one JSON object a line", nullptr},
    {"html", "a self-contained page with the summary, thresholds and charts over virtual time", html_page},
    {"otlp", "an OTLP JSON trace export: a span per task, a GenAI client span per attempt under it", nullptr},
}};

}  // namespace

std::span<const ReportFormat> report_formats() { return kFormats; }

const ReportFormat* find_report_format(std::string_view name) {
  for (const ReportFormat& f : kFormats) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string report_format_names() {
  std::string names;
  for (const ReportFormat& f : kFormats) {
    if (!names.empty()) names += ", ";
    names += f.name;
  }
  return names;
}

}  // namespace squall

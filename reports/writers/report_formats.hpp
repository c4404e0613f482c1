// The report formats a run can write (`squall run --report FORMAT=PATH`), in one list.
// A format either renders the finished Report into a document (json, junit, markdown,
// csv) or is streamed while the run goes (jsonl, the event trace, which the CLI builds
// from reports/writers/trace_writer.hpp, and otlp, reports/writers/otlp_writer.hpp; both
// are handed to the simulator as observers).
//
// Adding a format: a writer file pair in reports/writers/ with a
// function `std::string NAME(const Report&)`, one row in report_formats.cpp, its section
// in docs/ci.md, and tests in tests/reports/. The CLI, its checks and its help follow
// from the list.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "reports/report.hpp"

namespace squall {

struct ReportFormat {
  std::string_view name;         // as given on the command line: "junit"
  std::string_view description;  // for --help and error messages
  // Renders a finished report; null for a streamed format.
  std::string (*render)(const Report&) = nullptr;

  bool streamed() const { return render == nullptr; }
};

// Every format, in the order --help lists them.
std::span<const ReportFormat> report_formats();
// The format called `name`, or nullptr.
const ReportFormat* find_report_format(std::string_view name);
// The names, comma-separated, for messages: "json, junit, markdown, csv, jsonl, html, otlp".
std::string report_format_names();

}  // namespace squall

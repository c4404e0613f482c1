// `squall run --report FORMAT=PATH` (repeatable) and `--out PATH` (the same as
// `--report json=PATH`): which writers run and where their files go, all checked before
// the run starts, so that a bad request is a usage error (exit 2) and nothing is written.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "reports/writers/report_formats.hpp"

namespace squall::cli {

struct ReportRequest {
  const ReportFormat* format = nullptr;  // from report_formats()
  std::filesystem::path path;            // as given
};

struct ReportRequests {
  std::vector<ReportRequest> requests;  // --out first, then --report in the given order
  std::optional<std::string> error;     // set when the requests are refused; then empty
};

// Parses `specs` ("FORMAT=PATH"; the path is everything after the first '='), adds `out`
// as a json request, and checks every path as output_problem() does (cli/output_path.hpp)
// against the run's `inputs`. Refused, with a message naming the offending request:
//   a spec without '=':       --report expects FORMAT=PATH, got "junit"
//   an unknown format:        unknown report format "xml" in --report xml=a.xml; formats: json, junit, ...
//   a bad path:               cannot write the junit report "a/b.xml": directory "a" does not exist
//   two requests, one file:   --report csv=a.txt and --report junit=a.txt write the same file "a.txt"
ReportRequests parse_report_requests(const std::vector<std::string>& specs,
                                     const std::optional<std::filesystem::path>& out,
                                     const std::vector<std::filesystem::path>& inputs);

// Why the Markdown summary cannot be appended to `step_summary` ($GITHUB_STEP_SUMMARY), or
// nullopt: the file is refused as output_problem() refuses a report (an input of the run,
// the scenario's corpora included, is never appended to), or another format's report of
// `requests` goes there (the summary appended to it would corrupt it; a markdown report
// there is the summary itself, written once):
//   cannot append the markdown summary to $GITHUB_STEP_SUMMARY: "crm.jsonl" is an input of this run (...); ...
//   $GITHUB_STEP_SUMMARY (out.xml) is the junit report's file: the markdown summary appended to it would corrupt the
//   report
std::optional<std::string> step_summary_problem(const std::filesystem::path& step_summary,
                                                const std::vector<ReportRequest>& requests,
                                                const std::vector<std::filesystem::path>& inputs);

}  // namespace squall::cli

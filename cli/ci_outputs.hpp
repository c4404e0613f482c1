// What `squall ci` writes besides its lines, for one run per scenario (cli/ci_command.cpp)
// and many seeds per scenario (cli/ci_seeds.cpp): the --report requests (junit, markdown,
// json-dir, html-dir), $GITHUB_STEP_SUMMARY and the --baseline gates, all checked before anything
// runs, then written atomically.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/report_requests.hpp"
#include "reports/compare_gate.hpp"
#include "reports/writers/suite_outcome.hpp"
#include "sim/scenario/validation_error.hpp"

namespace squall::cli {

struct CiOutputs {
  ReportRequests requests;
  std::optional<std::filesystem::path> step_summary;  // $GITHUB_STEP_SUMMARY, when a markdown summary is asked for
  std::optional<std::filesystem::path> json_dir;      // --report json-dir=DIR
  std::optional<std::filesystem::path> html_dir;      // --report html-dir=DIR
  std::vector<FailOn> gates;                          // --fail-on, with --baseline
};

// The --report requests, $GITHUB_STEP_SUMMARY (when a markdown summary is asked for),
// json-dir, html-dir and the baseline's gates, checked as `run` checks its own against every file
// each scenario reads (cli/run_inputs.hpp), and the --policy file read once: nullopt,
// after saying why on stderr ("squall ci: ..."), when one is refused.
std::optional<CiOutputs> checked_outputs(const CiOptions& options, const std::vector<std::filesystem::path>& files);

// Writes the requested files, every one before any is published: json-dir gets each
// outcome's report (with seeds, the first seed's with its `seeds` section); html-dir each
// outcome's page (reports/writers/html_writer.hpp; with seeds, the first seed's) and
// index.html linking them with their verdicts (reports/writers/ci_html_index.hpp); junit
// and markdown are the outcomes' (reports/writers/junit_writer.hpp, markdown_writer.hpp).
// Returns the lines saying so. Throws std::runtime_error.
std::vector<std::string> write_outputs(const CiOutputs& outputs, std::span<const std::filesystem::path> files,
                                       std::span<const SuiteOutcome> outcomes);

// The last line of `ci`'s output, e.g.
//   squall ci: 13 scenarios, 12 passed, 1 failed, 0 not run; exit 1
// ("1 scenario" for one); the scenarios neither passed nor failed were not run.
std::string ci_verdict(std::size_t scenarios, std::size_t passed, std::size_t failed, int exit_code);

// Each error's text, one a line.
std::string error_lines(const std::vector<ValidationError>& errors);

}  // namespace squall::cli

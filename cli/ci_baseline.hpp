// `squall ci --report json-dir=DIR` (each scenario's JSON report in one directory) and
// `ci --baseline DIR --fail-on METRIC:MARGIN` (each scenario's report gated against the
// report of the same name in DIR, e.g. one that `ci --report json-dir=DIR` wrote on the
// main branch; reports/compare_gate.hpp).
//
// A scenario's report name is its file's name with the extension replaced by .json:
// scenarios/ci/llm-budget-guard.yaml -> llm-budget-guard.json. Two scenarios of one run
// with the same name would overwrite each other's report: json-dir refuses them.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reports/compare_gate.hpp"
#include "reports/report.hpp"

namespace squall::cli {

// A report `ci` writes into a directory, one file per scenario: `--report json-dir=DIR`
// (the JSON reports) or `--report html-dir=DIR` (the HTML pages, and DIR/index.html linking
// them, `reserved`, which no scenario's page may take).
struct ReportDir {
  std::string_view name;       // "json-dir"
  std::string_view extension;  // ".json"
  std::string_view reserved;   // a file of DIR besides the scenarios', or empty
};
inline constexpr ReportDir kJsonDir{"json-dir", ".json", ""};
inline constexpr ReportDir kHtmlDir{"html-dir", ".html", "index.html"};

// The scenario's file name with its extension replaced: "llm-budget-guard.json".
std::filesystem::path ci_report_name(const std::filesystem::path& scenario_file, std::string_view extension = ".json");

// Takes the KIND=DIR requests out of `reports` (ci's --report specs). Sets `dir` and
// returns nullopt, or returns why not: `--report json-dir=a and --report json-dir=b: give one json-dir`.
std::optional<std::string> take_report_dir(std::vector<std::string>& reports, const ReportDir& kind,
                                           std::optional<std::filesystem::path>& dir);

// Why the reports of `files` cannot be written into `dir`, or nullopt: `dir` is not an
// existing directory, two files have one report name (or one takes the reserved name), or
// a report's path is refused as output_problem() refuses one (an input of the run, a
// read-only file), e.g.
//   --report json-dir=out: "out" is not an existing directory
//   --report json-dir=out: scenarios/a/x.json and scenarios/b/x.json would both write out/x.json
//   --report html-dir=out: scenarios/index.yaml would write out/index.html, the index
std::optional<std::string> report_dir_problem(const ReportDir& kind, const std::filesystem::path& dir,
                                              const std::vector<std::filesystem::path>& files,
                                              const std::vector<std::filesystem::path>& inputs);

// Why --baseline and --fail-on cannot be used as given, or nullopt: each needs the other,
// the directory must exist, and every expression must parse (parse_fail_ons). Sets `gates`.
std::optional<std::string> baseline_problem(const std::optional<std::filesystem::path>& baseline,
                                            const std::vector<std::string>& fail_on, std::vector<FailOn>& gates);

// One scenario's report against its baseline: the lines to print and the exit code for
// the scenario (0, 1 when a gate fails, 2 when the baseline is not a squall report).
struct BaselineResult {
  int exit_code = 0;
  bool compared = false;  // false: no baseline of that name (a note, not a failure)
  std::string text;
};
BaselineResult check_against_baseline(const std::filesystem::path& baseline_dir,
                                      const std::filesystem::path& scenario_file, const Report& report,
                                      const std::vector<FailOn>& gates);

}  // namespace squall::cli

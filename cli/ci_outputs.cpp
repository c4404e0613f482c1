#include "cli/ci_outputs.hpp"

#include <fmt/core.h>

#include "cli/ci_baseline.hpp"
#include "cli/output_path.hpp"
#include "cli/run_inputs.hpp"
#include "cli/step_summary.hpp"
#include "cli/terminal.hpp"
#include "engine/text.hpp"
#include "reports/atomic_file.hpp"
#include "reports/json_writer.hpp"
#include "reports/seed_summary.hpp"
#include "reports/writers/ci_html_index.hpp"
#include "reports/writers/html_writer.hpp"
#include "reports/writers/junit_writer.hpp"
#include "reports/writers/markdown_writer.hpp"
#include "sim/scenario_loader.hpp"

namespace squall::cli {
namespace {

namespace fs = std::filesystem;

// Checks the --report requests: only junit and markdown make sense for many scenarios
// (the others are one run's files: `squall run` writes them).
std::optional<std::string> check_ci_requests(const ReportRequests& requests) {
  if (requests.error) return requests.error;
  for (const ReportRequest& r : requests.requests) {
    if (r.format->name == "html") {
      return std::string(
          "ci writes a page per scenario and an index with --report html-dir=DIR; html=PATH is one run's report: use "
          "`squall run SCENARIO --report html=PATH`");
    }
    if (r.format->name != "junit" && r.format->name != "markdown") {
      return fmt::format(
          "ci writes junit and markdown reports; {} is one run's report: use `squall run SCENARIO --report {}=PATH`",
          r.format->name, r.format->name);
    }
  }
  return std::nullopt;
}

// The problem with the requests, json-dir, the step summary or the baseline; nullopt when none.
std::optional<std::string> outputs_problem(const CiOptions& options, const std::vector<fs::path>& files,
                                           CiOutputs& out) {
  std::vector<fs::path> inputs;
  // Loading every scenario once more to learn its corpora is wasted without a report.
  for (std::size_t i = 0; i < files.size() && !options.reports.empty(); ++i) {
    for (fs::path& input : run_inputs(files[i])) inputs.push_back(std::move(input));
  }
  if (options.policy) inputs.push_back(*options.policy);
  std::vector<std::string> specs = options.reports;
  std::optional<std::string> problem = take_report_dir(specs, kJsonDir, out.json_dir);
  if (!problem) problem = take_report_dir(specs, kHtmlDir, out.html_dir);
  if (!problem) {
    out.requests = parse_report_requests(specs, std::nullopt, inputs);
    problem = check_ci_requests(out.requests);
  }
  for (const ReportRequest& r : out.requests.requests) {
    if (r.format->name == "markdown") out.step_summary = step_summary_file();
  }
  if (!problem && out.step_summary) problem = step_summary_problem(*out.step_summary, out.requests.requests, inputs);
  if (!problem && out.json_dir) problem = report_dir_problem(kJsonDir, *out.json_dir, files, inputs);
  if (!problem && out.html_dir) problem = report_dir_problem(kHtmlDir, *out.html_dir, files, inputs);
  if (!problem) problem = baseline_problem(options.baseline, options.fail_on, out.gates);
  return problem;
}

// Each outcome's JSON report into `dir`; the line saying so.
std::string add_json_dir(const fs::path& dir, std::span<const fs::path> files, std::span<const SuiteOutcome> outcomes,
                         AtomicFileBatch& batch) {
  std::size_t written = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const SuiteOutcome& o = outcomes[i];
    if (o.report == nullptr) continue;
    batch.add(resolve_output(dir / ci_report_name(files[i])), o.seeds.summary != nullptr
                                                                  ? seeds_report_json_text(*o.report, *o.seeds.summary)
                                                                  : to_json_text(*o.report));
    ++written;
  }
  return fmt::format("json reports of {} written to {}", counted(written, "scenario"), escape_controls(dir.string()));
}

// Each outcome's page into `dir`, and the index; the line saying so.
std::string add_html_dir(const fs::path& dir, std::span<const fs::path> files, std::span<const SuiteOutcome> outcomes,
                         AtomicFileBatch& batch) {
  std::vector<std::string> pages;
  std::size_t written = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    pages.push_back(ci_report_name(files[i], kHtmlDir.extension).string());
    if (outcomes[i].report == nullptr) continue;
    batch.add(resolve_output(dir / pages.back()), html_page(*outcomes[i].report));
    ++written;
  }
  batch.add(resolve_output(dir / kHtmlDir.reserved), ci_html_index(outcomes, pages));
  return fmt::format("html pages of {} and index.html written to {}", counted(written, "scenario"),
                     escape_controls(dir.string()));
}

// Whether `policy` may name a tool of one of the scenario files: it names one of a file
// that loads, or some file does not load (its errors are reported when it runs, and what
// it holds is unknown until then).
bool shares_a_tool_of_any(const PolicyConfig& policy, const std::vector<fs::path>& files) {
  for (const fs::path& file : files) {
    try {
      const LoadResult loaded = load_scenario(file);
      if (!loaded.errors.empty() || shares_a_tool(*loaded.scenario, policy)) return true;
    } catch (const std::exception&) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::string error_lines(const std::vector<ValidationError>& errors) {
  std::string text;
  for (const ValidationError& e : errors) {
    if (!text.empty()) text += '\n';
    text += to_string(e);
  }
  return text;
}

std::string ci_verdict(std::size_t scenarios, std::size_t passed, std::size_t failed, int exit_code) {
  return fmt::format("squall ci: {}, {} passed, {} failed, {} not run; exit {}\n", counted(scenarios, "scenario"),
                     passed, failed, scenarios - passed - failed, exit_code);
}

std::optional<CiOutputs> checked_outputs(const CiOptions& options, const std::vector<fs::path>& files) {
  CiOutputs out;
  std::optional<std::string> problem = outputs_problem(options, files, out);
  // A policy file that cannot be read is one problem, not one per scenario; so is one
  // that names no tool of any scenario (it was meant for others). A scenario it shares no
  // tool with runs its own policy, with a note (sim/scenario_loader.hpp merge_policy).
  if (!problem && options.policy) {
    const PolicyLoadResult policy = load_policy_file(*options.policy);
    if (!policy.ok()) {
      problem = error_lines(policy.errors);
    } else if (!shares_a_tool_of_any(*policy.policy, files)) {
      problem = fmt::format("{}: names no tool of any scenario given", options.policy->string());
    }
  }
  if (problem) {
    fmt::print(stderr, "squall ci: {}\n", escape_controls(*problem));
    return std::nullopt;
  }
  return out;
}

std::vector<std::string> write_outputs(const CiOutputs& outputs, std::span<const fs::path> files,
                                       std::span<const SuiteOutcome> outcomes) {
  const std::vector<ReportRequest>& requests = outputs.requests.requests;
  const std::optional<fs::path>& step_summary = outputs.step_summary;
  std::vector<std::string> lines;
  AtomicFileBatch batch;
  if (outputs.json_dir) lines.push_back(add_json_dir(*outputs.json_dir, files, outcomes, batch));
  if (outputs.html_dir) lines.push_back(add_html_dir(*outputs.html_dir, files, outcomes, batch));
  for (const ReportRequest& r : requests) {
    const bool is_markdown = r.format->name == "markdown";
    if (is_markdown && step_summary && output_identity(r.path) == output_identity(*step_summary)) continue;
    batch.add(resolve_output(r.path), is_markdown ? markdown_summary(outcomes) : junit_xml(outcomes));
    lines.push_back(fmt::format("{} report written to {}", r.format->name, escape_controls(r.path.string())));
  }
  batch.commit();
  if (step_summary) {
    append_to_file(*step_summary, markdown_summary(outcomes));
    lines.push_back(
        fmt::format("markdown summary appended to {} ($GITHUB_STEP_SUMMARY)", escape_controls(step_summary->string())));
  }
  return lines;
}

}  // namespace squall::cli

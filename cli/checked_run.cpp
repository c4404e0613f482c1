#include "cli/checked_run.hpp"

#include <fmt/core.h>

#include "cli/run_inputs.hpp"
#include "cli/step_summary.hpp"
#include "cli/terminal.hpp"
#include "sim/scenario_loader.hpp"

namespace squall::cli {
namespace {

bool wants_markdown(const std::vector<ReportRequest>& requests) {
  for (const ReportRequest& r : requests) {
    if (r.format->name == "markdown") return true;
  }
  return false;
}

}  // namespace

void print_errors(const std::vector<ValidationError>& errors) {
  for (const ValidationError& error : errors) fmt::print(stderr, "{}\n", to_string(error));
}

std::optional<CheckedRun> check_run(const RunOptions& options) {
  LoadResult loaded = load_scenario(options.scenario);
  if (!loaded.errors.empty()) {
    print_errors(loaded.errors);
    return std::nullopt;
  }
  CheckedRun run{std::move(*loaded.scenario), {}, std::nullopt, {}};
  if (options.policy) {
    // The same checks as `squall validate SCENARIO --policy FILE`.
    if (const auto errors = apply_policy_file(run.scenario, *options.policy, &run.policy_notes); !errors.empty()) {
      print_errors(errors);
      return std::nullopt;
    }
    for (const std::string& note : run.policy_notes) fmt::print(stderr, "squall: note: {}\n", escape_controls(note));
  }
  const std::vector<std::filesystem::path> inputs = run_inputs(options.scenario, options.policy, run.scenario);
  run.reports = parse_report_requests(options.reports, options.out, inputs);
  if (run.reports.error) {
    fmt::print(stderr, "squall: {}\n", escape_controls(*run.reports.error));
    return std::nullopt;
  }
  if (wants_markdown(run.reports.requests)) run.step_summary = step_summary_file();
  if (run.step_summary) {
    if (const auto problem = step_summary_problem(*run.step_summary, run.reports.requests, inputs)) {
      fmt::print(stderr, "squall: {}\n", escape_controls(*problem));
      return std::nullopt;
    }
  }
  return run;
}

}  // namespace squall::cli

#include "cli/ci_baseline.hpp"

#include <fmt/core.h>

#include <map>
#include <variant>

#include "cli/commands.hpp"
#include "cli/output_file.hpp"
#include "cli/output_path.hpp"
#include "engine/text.hpp"
#include "reports/compare.hpp"
#include "reports/json_writer.hpp"

namespace squall::cli {

namespace fs = std::filesystem;

fs::path ci_report_name(const fs::path& scenario_file) {
  return fs::path(scenario_file.filename()).replace_extension(".json");
}

std::optional<std::string> take_json_dir(std::vector<std::string>& reports, std::optional<fs::path>& dir) {
  constexpr std::string_view kPrefix = "json-dir=";
  std::vector<std::string> rest;
  for (std::string& spec : reports) {
    if (!spec.starts_with(kPrefix)) {
      rest.push_back(std::move(spec));
      continue;
    }
    if (dir) return fmt::format("--report json-dir={} and --report {}: give one json-dir", dir->string(), spec);
    if (spec.size() == kPrefix.size()) return std::string("--report json-dir= names no directory");
    dir = fs::path(spec.substr(kPrefix.size()));
  }
  reports = std::move(rest);
  return std::nullopt;
}

std::optional<std::string> json_dir_problem(const fs::path& dir, const std::vector<fs::path>& files,
                                            const std::vector<fs::path>& inputs) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return fmt::format("--report json-dir={}: \"{}\" is not an existing directory", dir.string(), dir.string());
  }
  std::map<fs::path, const fs::path*> by_name;
  for (const fs::path& file : files) {
    const fs::path target = dir / ci_report_name(file);
    const auto [it, added] = by_name.emplace(ci_report_name(file), &file);
    if (!added) {
      return fmt::format("--report json-dir={}: {} and {} would both write {}", dir.string(), it->second->string(),
                         file.string(), target.string());
    }
    if (const auto problem = output_problem(target, inputs)) {
      return fmt::format("--report json-dir={}: cannot write the report of {}: {}", dir.string(), file.string(),
                         *problem);
    }
  }
  return std::nullopt;
}

std::optional<std::string> baseline_problem(const std::optional<fs::path>& baseline,
                                            const std::vector<std::string>& fail_on, std::vector<FailOn>& gates) {
  if (baseline && fail_on.empty()) {
    return std::string("--baseline needs at least one --fail-on METRIC:MARGIN (e.g. --fail-on task_success:-0.01)");
  }
  if (!baseline && !fail_on.empty()) return std::string("--fail-on needs --baseline DIR (the reports to compare with)");
  if (!baseline) return std::nullopt;
  std::error_code ec;
  if (!fs::is_directory(*baseline, ec)) {
    return fmt::format("--baseline {}: \"{}\" is not an existing directory", baseline->string(), baseline->string());
  }
  auto parsed = parse_fail_ons(fail_on);
  if (auto* error = std::get_if<std::string>(&parsed)) return std::move(*error);
  gates = std::get<std::vector<FailOn>>(std::move(parsed));
  return std::nullopt;
}

BaselineResult check_against_baseline(const fs::path& baseline_dir, const fs::path& scenario_file, const Report& report,
                                      const std::vector<FailOn>& gates) {
  BaselineResult r;
  const fs::path file = baseline_dir / ci_report_name(scenario_file);
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    r.text = fmt::format("baseline: {}: no {}, not compared\n", escape_controls(scenario_file.string()),
                         escape_controls(file.string()));
    return r;
  }
  auto parsed = read_output_file(file, FileKind::report);
  std::optional<std::string> problem;
  nlohmann::json baseline;
  if (const auto* error = std::get_if<std::string>(&parsed)) {
    problem = *error;
  } else {
    baseline = std::get<Json>(std::move(parsed));
    if (const auto p = report_problem(baseline)) problem = fmt::format("{}: {}", file.string(), *p);
  }
  if (problem) {
    r.exit_code = kExitBadInput;
    r.text = fmt::format("baseline: {}: {}\n", escape_controls(scenario_file.string()), escape_controls(*problem));
    return r;
  }
  r.compared = true;
  const std::vector<GateResult> results = check_gates(gates, compare_reports(baseline, to_json(report)));
  r.exit_code = failed_gates(results) == 0 ? kExitOk : kExitThresholdFailed;
  r.text = fmt::format("baseline: {} against {}\n", escape_controls(scenario_file.string()),
                       escape_controls(file.string())) +
           gates_text(results);
  return r;
}

}  // namespace squall::cli

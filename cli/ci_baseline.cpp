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

fs::path ci_report_name(const fs::path& scenario_file, std::string_view extension) {
  return fs::path(scenario_file.filename()).replace_extension(extension);
}

std::optional<std::string> take_report_dir(std::vector<std::string>& reports, const ReportDir& kind,
                                           std::optional<fs::path>& dir) {
  const std::string prefix = fmt::format("{}=", kind.name);
  std::vector<std::string> rest;
  for (std::string& spec : reports) {
    if (!spec.starts_with(prefix)) {
      rest.push_back(std::move(spec));
      continue;
    }
    if (dir) return fmt::format("--report {}{} and --report {}: give one {}", prefix, dir->string(), spec, kind.name);
    if (spec.size() == prefix.size()) return fmt::format("--report {} names no directory", prefix);
    dir = fs::path(spec.substr(prefix.size()));
  }
  reports = std::move(rest);
  return std::nullopt;
}

std::optional<std::string> report_dir_problem(const ReportDir& kind, const fs::path& dir,
                                              const std::vector<fs::path>& files, const std::vector<fs::path>& inputs) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return fmt::format("--report {}={}: \"{}\" is not an existing directory", kind.name, dir.string(), dir.string());
  }
  std::map<fs::path, const fs::path*> by_name;
  if (!kind.reserved.empty()) {
    if (const auto problem = output_problem(dir / kind.reserved, inputs)) {
      return fmt::format("--report {}={}: cannot write {}: {}", kind.name, dir.string(), kind.reserved, *problem);
    }
  }
  for (const fs::path& file : files) {
    const fs::path name = ci_report_name(file, kind.extension);
    const fs::path target = dir / name;
    if (!kind.reserved.empty() && name == kind.reserved) {
      return fmt::format("--report {}={}: {} would write {}, the index", kind.name, dir.string(), file.string(),
                         target.string());
    }
    const auto [it, added] = by_name.emplace(name, &file);
    if (!added) {
      return fmt::format("--report {}={}: {} and {} would both write {}", kind.name, dir.string(), it->second->string(),
                         file.string(), target.string());
    }
    if (const auto problem = output_problem(target, inputs)) {
      return fmt::format("--report {}={}: cannot write the report of {}: {}", kind.name, dir.string(), file.string(),
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

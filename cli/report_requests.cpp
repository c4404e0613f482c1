#include "cli/report_requests.hpp"

#include <fmt/core.h>

#include "cli/output_path.hpp"

namespace squall::cli {
namespace {

namespace fs = std::filesystem;

// How the request was written, for messages.
std::string spelled(const ReportRequest& r, bool from_out) {
  if (from_out) return fmt::format("--out {}", r.path.string());
  return fmt::format("--report {}={}", r.format->name, r.path.string());
}

ReportRequests refused(std::string message) {
  ReportRequests r;
  r.error = std::move(message);
  return r;
}

}  // namespace

ReportRequests parse_report_requests(const std::vector<std::string>& specs, const std::optional<fs::path>& out,
                                     const std::vector<fs::path>& inputs) {
  ReportRequests result;
  if (out) result.requests.push_back({find_report_format("json"), *out});
  for (const std::string& spec : specs) {
    const std::size_t eq = spec.find('=');
    if (eq == std::string::npos) return refused(fmt::format("--report expects FORMAT=PATH, got \"{}\"", spec));
    const std::string name = spec.substr(0, eq);
    const ReportFormat* format = find_report_format(name);
    if (format == nullptr) {
      return refused(
          fmt::format("unknown report format \"{}\" in --report {}; formats: {}", name, spec, report_format_names()));
    }
    result.requests.push_back({format, fs::path(spec.substr(eq + 1))});
  }
  std::vector<fs::path> seen;
  for (std::size_t i = 0; i < result.requests.size(); ++i) {
    const ReportRequest& r = result.requests[i];
    const bool from_out = out && i == 0;
    if (const auto problem = output_problem(r.path, inputs)) {
      return refused(
          fmt::format("cannot write the {} report ({}): {}", r.format->name, spelled(r, from_out), *problem));
    }
    seen.push_back(output_identity(r.path));
    for (std::size_t j = 0; j < i; ++j) {
      if (seen[j] == seen[i]) {
        return refused(fmt::format("{} and {} write the same file \"{}\"", spelled(result.requests[j], out && j == 0),
                                   spelled(r, from_out), r.path.string()));
      }
    }
  }
  return result;
}

std::optional<std::string> step_summary_problem(const fs::path& step_summary,
                                                const std::vector<ReportRequest>& requests,
                                                const std::vector<fs::path>& inputs) {
  if (const auto problem = output_problem(step_summary, inputs)) {
    return fmt::format("cannot append the markdown summary to $GITHUB_STEP_SUMMARY: {}", *problem);
  }
  for (const ReportRequest& r : requests) {
    if (r.format->name != "markdown" && output_identity(r.path) == output_identity(step_summary)) {
      return fmt::format(
          "$GITHUB_STEP_SUMMARY ({}) is the {} report's file: the markdown summary appended to it would corrupt the "
          "report",
          step_summary.string(), r.format->name);
    }
  }
  return std::nullopt;
}

}  // namespace squall::cli

#include "reports/writers/sweep_robustness_text.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "reports/sweep_robustness.hpp"
#include "reports/writers/markdown_text.hpp"

namespace squall {
namespace {

std::string num(double x) { return fmt::format("{:.6g}", x + 0.0); }

std::string cell_text(const Interval& i) {
  if (i.n == 0) return "-";
  if (!i.half_width) return num(i.mean);
  return fmt::format("{} [{}, {}]", num(i.mean), num(i.low()), num(i.high()));
}

}  // namespace

std::string_view robustness_title() { return "Robustness: each policy's mean [95% CI] over the scenario settings"; }

std::string robustness_heading(const std::string& metric) {
  const auto d = better_direction(metric);
  if (!d) return metric;
  return metric + (*d == Goal::max ? " (higher is better)" : " (lower is better)");
}

std::vector<std::vector<std::string>> robustness_cells(const RobustnessGrid& g, const SweepAnalysis& a, std::size_t m) {
  std::vector<std::vector<std::string>> rows;
  rows.emplace_back(1, "policy");
  rows.front().insert(rows.front().end(), g.columns.begin(), g.columns.end());
  for (std::size_t p = 0; p < g.rows.size(); ++p) {
    std::vector<std::string> row{g.rows[p]};
    for (const auto& v : g.variant[p]) row.push_back(v ? cell_text(a.variants[*v][m].value) : "-");
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string text_grid(const std::vector<std::vector<std::string>>& rows) {
  if (rows.empty()) return "";
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line = " ";
    for (std::size_t c = 0; c < row.size(); ++c) line += fmt::format(" {:<{}} ", row[c], widths[c]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string markdown_grid(const std::vector<std::vector<std::string>>& rows, std::string_view align) {
  std::string out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out += "|";
    for (const std::string& cell : rows[i]) out += fmt::format(" {} |", markdown_text(cell));
    out += "\n";
    if (i == 0) {
      out += "|---|";
      for (std::size_t c = 1; c < rows[i].size(); ++c) out += fmt::format("{}|", align);
      out += "\n";
    }
  }
  return out;
}

std::string robustness_table(const SweepResult& r, const SweepAnalysis& a) {
  const auto grid = robustness_grid(r);
  if (!grid) return "";
  std::string out = fmt::format("\n{}\n", robustness_title());
  for (std::size_t m = 0; m < r.metrics.size(); ++m) {
    out += fmt::format("\n{}\n{}", robustness_heading(r.metrics[m]), text_grid(robustness_cells(*grid, a, m)));
  }
  return out;
}

std::string robustness_markdown(const SweepResult& r, const SweepAnalysis& a) {
  const auto grid = robustness_grid(r);
  if (!grid) return "";
  std::string out = fmt::format("\n### {}\n", markdown_text(robustness_title()));
  for (std::size_t m = 0; m < r.metrics.size(); ++m) {
    out += fmt::format("\n#### {}\n\n{}", markdown_text(robustness_heading(r.metrics[m])),
                       markdown_grid(robustness_cells(*grid, a, m), "---"));
  }
  return out;
}

std::string comparison_scope_line(const SweepResult& r, const SweepAnalysis& a) {
  if (std::all_of(a.comparable.begin(), a.comparable.end(), [](bool c) { return c; })) return "";
  const std::string setting = scenario_setting_label(r.variants[r.baseline].params);
  return fmt::format(
      "compared with the baseline, on the Pareto front and recommended: only the variants on the baseline's "
      "scenario settings ({}); the others are in the robustness tables",
      setting.empty() ? "the scenario as written" : setting);
}

}  // namespace squall

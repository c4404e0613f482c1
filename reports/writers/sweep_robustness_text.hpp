// A sweep's robustness curves as text (docs/sweeps.md, "Scenario axes"): for a sweep with
// "/scenario/..." grid axes, one table per metric, rows the policies, columns the scenario
// settings, each cell the mean and its 95% interval ("0.97 [0.95, 0.99]"; "-" where no
// variant ran that policy on that setting). Empty for a sweep without scenario axes.
//   Robustness: each policy's mean [95% CI] over the scenario settings
//
//   task_success (higher is better)
//     policy  probability=0.1              probability=0.3
//     own     0.993363 [0.986281, 1.00044]  0.969697 [0.947232, 0.992161]
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "reports/sweep_result.hpp"
#include "reports/sweep_robustness.hpp"
#include "reports/sweep_stats.hpp"

namespace squall {

// A header row and rows as text: each cell padded to its column's width, two spaces
// apart, indented by two, no trailing spaces; and as a Markdown table whose columns after
// the first are aligned by `align` ("---" or "---:").
std::string text_grid(const std::vector<std::vector<std::string>>& rows);
std::string markdown_grid(const std::vector<std::vector<std::string>>& rows, std::string_view align);

// The pieces every format shares: the section's title; a metric's heading (the metric and
// which way is better, when one is); one metric's cells, the header row (policy, then the
// settings) first, then one row per policy.
std::string_view robustness_title();
std::string robustness_heading(const std::string& metric);
std::vector<std::vector<std::string>> robustness_cells(const RobustnessGrid& grid, const SweepAnalysis& analysis,
                                                       std::size_t metric);

std::string robustness_table(const SweepResult& result, const SweepAnalysis& analysis);
std::string robustness_markdown(const SweepResult& result, const SweepAnalysis& analysis);

// The line that says which variants are compared with the baseline, when some run other
// scenario settings than the baseline's; empty otherwise.
std::string comparison_scope_line(const SweepResult& result, const SweepAnalysis& analysis);

}  // namespace squall

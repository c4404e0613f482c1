// `squall compare --report FORMAT=PATH`: the comparison (reports/compare.hpp) as a file,
// for CI: JSON for scripts and Markdown for a job summary. Both carry the same rows as the
// terminal table, and the same bytes for the same two reports.
//
// JSON (squall_comparison_version 1), two-space indentation, a final newline, keys in
// this order:
//   squall_comparison_version   1
//   a, b        each run's identity: {label, scenario, seed, scenario_file, policy_file}
//               (label as the table's column heads say it: a report's file name, or the
//               policy file's, or "scenario policy"; policy_file null without one)
//   warnings    [sentence]: comparison_warnings(), e.g. the reports are of different seeds
//   metrics     [{metric, a, b, difference, relative_difference}] in the table's order:
//               a and b as the reports have them (null when a report has none; whole
//               numbers written as integers),
//               difference = b - a rounded to 6 decimals, relative_difference =
//               (b - a) / |a| as a ratio rounded to 6 decimals (null when a is 0 or a
//               value is missing; the table prints it in percent)
//
// Markdown (GitHub-flavoured), e.g.
//   ### squall compare: launch-surge-429-storm, seed 7
//
//   A: `scenario policy` · B: `naive-retry.json`
//
//   > ⚠ the reports are of different seeds: 7 and 8        (one line per warning)
//
//   | metric | A | B | B − A | (B − A) / A |
//   |:--|--:|--:|--:|--:|
//   | `tasks.total` | 2800 | 2800 | +0 | +0.00% |
// with "-" for what is missing, and the scenario and seed of A in the heading ("A vs B"
// names both when they differ). Names are escaped (reports/writers/markdown_text.hpp).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/compare.hpp"

namespace squall {

inline constexpr int kComparisonVersion = 1;

// One side of a comparison: the label of its column and its JSON report.
struct ComparedRun {
  std::string label;
  const nlohmann::json* report = nullptr;  // a valid report (report_problem() is nullopt)
};

std::string comparison_json(const ComparedRun& a, const ComparedRun& b, const std::vector<MetricComparison>& rows,
                            const std::vector<std::string>& warnings);
std::string comparison_markdown(const ComparedRun& a, const ComparedRun& b, const std::vector<MetricComparison>& rows,
                                const std::vector<std::string>& warnings);

}  // namespace squall

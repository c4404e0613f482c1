// A sweep's result as text (docs/sweeps.md, "Outputs"): the terminal table `squall sweep`
// and `squall merge` print, Markdown (for a CI job summary or a pull request), and CSV.
//
// The terminal table, one block per metric, variants in expansion order:
//   task_success (higher is better)
//     variant       n   mean       95% CI                  vs baseline (paired)                  verdict
//     scenario     10   0.866857   [0.862101, 0.871613]    baseline
//     naive-retry  10   0.351232   [0.346, 0.356]          -0.515625 [-0.52, -0.51]              worse
// then the Pareto front over the objectives. Numbers with 6 significant digits ({:.6g}).
//
// CSV (RFC 4180, CRLF): one row per variant and metric:
//   variant,metric,n,mean,sd,ci95_low,ci95_high,diff_mean,diff_ci95_low,diff_ci95_high,verdict,pareto
// empty fields where a value does not exist (the baseline's difference, an interval of one run).
#pragma once

#include <string>
#include <vector>

#include "reports/sweep_result.hpp"
#include "reports/sweep_stats.hpp"

namespace squall {

std::string sweep_table(const SweepResult& result, const SweepAnalysis& analysis);
std::string sweep_markdown(const SweepResult& result, const SweepAnalysis& analysis);
std::string sweep_csv(const SweepResult& result, const SweepAnalysis& analysis);

// The decision's threshold table, shared by every form (docs/sweeps.md, "Decision"): a
// header row (variant, each threshold, feasible), then per variant how many of its seeds
// passed each threshold ("8/10") and "yes"/"no"; no rows when the scenario has no thresholds.
std::vector<std::vector<std::string>> feasibility_rows(const SweepResult& result, const SweepAnalysis& analysis);
std::string feasibility_title(const SweepResult& result);  // names the feasible pass rate

}  // namespace squall

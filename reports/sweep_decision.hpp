// What a sweep decides (docs/sweeps.md, "Decision"), from its runs and statistics:
//   - feasibility: per variant, the share of its seeds on which each of the scenario's
//     thresholds passed; feasible when every share is at least
//     SweepDecision::feasible_pass_rate (a scenario without thresholds: every variant);
//   - the recommendation: the feasible variant with the best mean of the decision's
//     objective (the first in expansion order on a tie; none when no feasible variant has
//     a value), stated with its 95% interval;
//   - warnings about variants that cannot tell anything apart: two with the same policy
//     document (digest), and two whose every run gave the same values on the same seeds
//     (the settings that tell them apart change nothing in this scenario);
//   - the gate of `squall sweep --fail-on worse|infeasible`, for one candidate variant.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "reports/sweep_result.hpp"

namespace squall {

struct SweepAnalysis;  // reports/sweep_stats.hpp

struct Feasibility {
  std::vector<double> pass_rates;  // per SweepResult::thresholds, over the variant's runs
  std::size_t runs = 0;
  bool feasible = true;
};

std::vector<Feasibility> feasibility(const SweepResult& result);

// The recommended variant; `analysis` must hold feasibility and statistics.
std::optional<std::size_t> recommend(const SweepResult& result, const SweepAnalysis& analysis);

// "recommendation: NAME: task_success 0.93 (95% CI 0.92 to 0.94), every threshold on at
// least 90% of 10 seeds", or "recommendation: no variant is feasible: NAME: THRESHOLD
// passes on 3 of 10 seeds; ..." (each variant's first blocking threshold).
std::string recommendation_line(const SweepResult& result, const SweepAnalysis& analysis);

// One line each, without the "warning: " prefix: variants with the same policy or the same
// runs on the same scenario settings, in variant order; then scenario settings (grid
// columns, reports/sweep_robustness.hpp) on which every policy gave the same runs.
std::vector<std::string> sweep_warnings(const SweepResult& result);

struct SweepGate {
  bool worse = false;       // fail when the candidate is worse than the baseline on a metric
  bool infeasible = false;  // fail when the candidate is not feasible
};

// Why `candidate` fails `gate` (empty: it passes), one line each.
std::vector<std::string> gate_failures(const SweepResult& result, const SweepAnalysis& analysis, std::size_t candidate,
                                       SweepGate gate);

}  // namespace squall

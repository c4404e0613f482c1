// The statistics of a policy sweep (docs/sweeps.md, "Statistics"): per variant and metric
// the mean and its 95% confidence interval; against the baseline variant the paired
// differences (common random numbers: both variants ran the same seed) with their 95%
// interval and a verdict only where that interval excludes zero; the Pareto front over
// the objectives.
//
// Intervals are Student's t intervals, mean ± t(0.975, n - 1) · s / √n with s the sample
// standard deviation (divisor n - 1): NIST/SEMATECH e-Handbook of Statistical Methods,
// 7.2.2.1 ("Confidence limits for the mean"). Paired differences use the same interval on
// the per-seed differences d = variant - baseline (the paired t interval, e-Handbook
// 7.3.1), which common random numbers make far narrower than the difference of two
// independent intervals (Law, "Simulation Modeling and Analysis", 5th ed., section 11.2).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "reports/sweep_decision.hpp"
#include "reports/sweep_result.hpp"

namespace squall {

// The 0.975 quantile of Student's t distribution with `df` degrees of freedom (df >= 1;
// 0 gives infinity). df 1..30: the exact values to 6 decimals (e-Handbook table 1.3.6.7.2,
// Abramowitz & Stegun table 26.10). Beyond 30: the Cornish-Fisher expansion of Abramowitz
// & Stegun 26.7.5 around z = 1.959963985 to the fourth power of 1/df, whose error there is
// below 1e-6 (t(40) = 2.021075, t(60) = 2.000298, t(120) = 1.979930).
double t_quantile_975(std::size_t df);

// A sample's mean and 95% interval. half_width is absent when n < 2 (no interval).
struct Interval {
  std::size_t n = 0;
  double mean = 0;
  double sd = 0;  // sample standard deviation (n - 1); 0 when n < 2
  std::optional<double> half_width;
  double low() const { return mean - half_width.value_or(0); }
  double high() const { return mean + half_width.value_or(0); }
};
Interval interval_of(std::span<const double> values);

// Which way a headline metric is better: max for task_success, tasks.succeeded and
// thresholds_passed; none for tasks.total and tasks.degraded (neither is good or bad in
// itself); min for the rest (failures, latency, amplification, tokens, cost, breaker
// transitions and openings by cause).
std::optional<Goal> better_direction(std::string_view metric);

// A paired difference's verdict, with e the metric's min_effect (below): same when its
// interval lies within [-e, e]; else none when it includes zero, its mean is below e, or
// there is no interval; else better/worse by better_direction, higher/lower for a metric
// without one. (An equivalence test beside the difference test: Lakens, "Equivalence
// Tests", Social Psychological and Personality Science 8(4), 2017.)
enum class Verdict : std::uint8_t { none, better, worse, higher, lower, same };
std::string_view to_string(Verdict verdict);  // "-", "better", "worse", "higher", "lower", "same"

// The smallest difference of `metric` that matters: its MinEffect (relative ones times
// |baseline_mean|), else kDefaultMinEffectRelative times |baseline_mean|.
double min_effect(const SweepDecision& decision, std::string_view metric, double baseline_mean);

struct MetricSummary {
  Interval value;                      // over the variant's runs that have the metric
  std::optional<Interval> difference;  // variant - baseline over the seeds both have; absent for the baseline
  Verdict verdict = Verdict::none;
};

struct SweepAnalysis {
  std::vector<std::vector<MetricSummary>> variants;  // [variant][metric], as SweepResult orders them
  // Per variant: it runs the baseline's scenario settings (reports/sweep_names.hpp). Only
  // those have a difference and a verdict, are on the Pareto front or recommended.
  std::vector<bool> comparable;
  std::vector<bool> pareto;                // per variant: on the front of the objectives
  std::vector<Feasibility> feasibility;    // per variant (reports/sweep_decision.hpp)
  std::optional<std::size_t> recommended;  // the feasible variant with the best objective
};

// `result.metrics` must name every objective's metric (a sweep measures them:
// complete_metrics, sim/sweep/sweep_spec.cpp).
SweepAnalysis analyse(const SweepResult& result);

// Which points are not dominated: point a dominates b when a is at least as good in every
// objective and better in one (on each objective's goal). Points with a missing value are
// not on the front.
std::vector<bool> pareto_front(const std::vector<std::vector<std::optional<double>>>& points,
                               std::span<const Goal> goals);

}  // namespace squall

#include "reports/sweep_decision.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "reports/sweep_names.hpp"
#include "reports/sweep_robustness.hpp"
#include "reports/sweep_stats.hpp"

namespace squall {
namespace {

std::string num(double x) { return fmt::format("{:.6g}", x + 0.0); }

std::size_t metric_index(const SweepResult& r, const std::string& metric) {
  return static_cast<std::size_t>(std::find(r.metrics.begin(), r.metrics.end(), metric) - r.metrics.begin());
}

// "THRESHOLD passes on P of N seeds", for the variant's first threshold below the rate.
std::string first_blocking(const SweepResult& r, const Feasibility& f) {
  for (std::size_t t = 0; t < r.thresholds.size(); ++t) {
    if (f.pass_rates[t] >= r.decision.feasible_pass_rate) continue;
    const auto passed = static_cast<std::size_t>(std::llround(f.pass_rates[t] * static_cast<double>(f.runs)));
    return fmt::format("{} passes on {} of {} seeds", r.thresholds[t], passed, f.runs);
  }
  return f.runs == 0 ? "no runs" : "";
}

std::string percent(double share) { return fmt::format("{:g}%", share * 100); }

}  // namespace

std::vector<Feasibility> feasibility(const SweepResult& r) {
  std::vector<Feasibility> out(r.variants.size());
  std::vector<std::vector<std::size_t>> passed(r.variants.size(), std::vector<std::size_t>(r.thresholds.size()));
  for (const SweepRun& run : r.runs) {
    ++out[run.variant].runs;
    for (std::size_t t = 0; t < r.thresholds.size() && t < run.passed.size(); ++t) {
      if (run.passed[t]) ++passed[run.variant][t];
    }
  }
  for (std::size_t v = 0; v < out.size(); ++v) {
    Feasibility& f = out[v];
    for (std::size_t t = 0; t < r.thresholds.size(); ++t) {
      const double rate = f.runs == 0 ? 0 : static_cast<double>(passed[v][t]) / static_cast<double>(f.runs);
      f.pass_rates.push_back(rate);
      if (rate < r.decision.feasible_pass_rate) f.feasible = false;
    }
    if (f.runs == 0) f.feasible = false;
  }
  return out;
}

std::optional<std::size_t> recommend(const SweepResult& r, const SweepAnalysis& a) {
  const std::size_t m = metric_index(r, r.decision.objective.metric);
  if (m == r.metrics.size()) return std::nullopt;
  std::optional<std::size_t> best;
  for (std::size_t v = 0; v < r.variants.size(); ++v) {
    const Interval& value = a.variants[v][m].value;
    if (!a.comparable[v] || !a.feasibility[v].feasible || value.n == 0) continue;
    if (!best) {
      best = v;
      continue;
    }
    const double current = a.variants[*best][m].value.mean;
    if (r.decision.objective.goal == Goal::max ? value.mean > current : value.mean < current) best = v;
  }
  return best;
}

std::string recommendation_line(const SweepResult& r, const SweepAnalysis& a) {
  const SweepObjective& objective = r.decision.objective;
  if (a.recommended) {
    const std::size_t v = *a.recommended;
    const Interval& value = a.variants[v][metric_index(r, objective.metric)].value;
    const std::string interval =
        value.half_width ? fmt::format(" (95% CI {} to {})", num(value.low()), num(value.high())) : "";
    const std::string constraints = r.thresholds.empty()
                                        ? "the scenario has no thresholds"
                                        : fmt::format("every threshold on at least {} of {} seeds",
                                                      percent(r.decision.feasible_pass_rate), a.feasibility[v].runs);
    return fmt::format("recommendation: {}: {} {} {}{}, {}", r.variants[v].name, objective.metric,
                       to_string(objective.goal), num(value.mean), interval, constraints);
  }
  std::string blocked;
  for (std::size_t v = 0; v < r.variants.size(); ++v) {
    const std::string why = a.comparable[v] ? first_blocking(r, a.feasibility[v]) : std::string();
    if (why.empty()) continue;
    blocked += fmt::format("{}{}: {}", blocked.empty() ? "" : "; ", r.variants[v].name, why);
  }
  if (blocked.empty()) return fmt::format("recommendation: none: no variant has a value of {}", objective.metric);
  return fmt::format("recommendation: no variant is feasible (every threshold on at least {} of seeds): {}",
                     percent(r.decision.feasible_pass_rate), blocked);
}

namespace {

using RunsBySeed = std::map<std::uint64_t, const SweepRun*>;

// Two variants' runs gave the same values and verdicts on every seed.
bool same_runs(const RunsBySeed& a, const RunsBySeed& b) {
  return !a.empty() && a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
           return x.first == y.first && x.second->values == y.second->values && x.second->passed == y.second->passed;
         });
}

// A scenario setting that changes nothing: two columns of the robustness grid on which
// every policy that ran both gave the same runs. One line per such column.
void scenario_axis_warnings(const SweepResult& r, const std::vector<RunsBySeed>& runs, std::vector<std::string>& out) {
  const auto g = robustness_grid(r);
  if (!g) return;
  for (std::size_t c = 1; c < g->columns.size(); ++c) {
    for (std::size_t d = 0; d < c; ++d) {
      std::size_t both = 0;
      bool same = true;
      for (const auto& row : g->variant) {
        if (!row[c] || !row[d]) continue;
        ++both;
        same = same && same_runs(runs[*row[c]], runs[*row[d]]);
      }
      if (both == 0 || !same) continue;
      out.push_back(fmt::format(
          "scenario settings {} and {} gave the same values on every seed for every policy: what tells them apart "
          "changes nothing in this scenario",
          g->columns[d], g->columns[c]));
      break;
    }
  }
}

}  // namespace

std::vector<std::string> sweep_warnings(const SweepResult& r) {
  std::vector<std::string> out;
  // Each run's values by (variant, seed), to compare variants seed by seed.
  std::vector<RunsBySeed> runs(r.variants.size());
  for (const SweepRun& run : r.runs) runs[run.variant].emplace(run.seed, &run);
  std::vector<SweepParams> params;
  for (const SweepVariantInfo& v : r.variants) params.push_back(v.params);
  for (std::size_t b = 0; b < r.variants.size(); ++b) {
    // Variants on other scenario settings than b's are not alike by design.
    const std::vector<bool> same_setting = shares_baseline_scenario(params, b);
    for (std::size_t a = 0; a < b; ++a) {
      if (!same_setting[a]) continue;
      const SweepVariantInfo& first = r.variants[a];
      const SweepVariantInfo& second = r.variants[b];
      if (first.policy_digest == second.policy_digest) {
        out.push_back(fmt::format("variants {} and {} have the same policy (digest {}): one of them measures nothing",
                                  first.name, second.name, first.policy_digest));
        break;
      }
      if (same_runs(runs[a], runs[b])) {
        out.push_back(fmt::format(
            "variants {} and {} gave the same values on every seed: what tells their policies apart changes "
            "nothing in this scenario",
            first.name, second.name));
        break;
      }
    }
  }
  scenario_axis_warnings(r, runs, out);
  return out;
}

std::vector<std::string> gate_failures(const SweepResult& r, const SweepAnalysis& a, std::size_t candidate,
                                       SweepGate gate) {
  std::vector<std::string> out;
  const std::string& name = r.variants[candidate].name;
  if (gate.infeasible && !a.feasibility[candidate].feasible) {
    out.push_back(fmt::format("{} is infeasible: {}", name, first_blocking(r, a.feasibility[candidate])));
  }
  if (gate.worse && candidate != r.baseline) {
    for (std::size_t m = 0; m < r.metrics.size(); ++m) {
      const MetricSummary& s = a.variants[candidate][m];
      if (s.verdict != Verdict::worse) continue;
      out.push_back(fmt::format("{} is worse than the baseline {} on {}: {:+.6g} (95% CI {} to {})", name,
                                r.variants[r.baseline].name, r.metrics[m], s.difference->mean + 0.0,
                                num(s.difference->low()), num(s.difference->high())));
    }
  }
  return out;
}

}  // namespace squall

#include "reports/sweep_stats.hpp"

#include <array>
#include <cassert>
#include <cmath>
#include <limits>
#include <map>
#include <string_view>

#include "reports/sweep_names.hpp"

namespace squall {
namespace {

// t(0.975, df) for df = 1..30 (NIST/SEMATECH e-Handbook 1.3.6.7.2).
constexpr std::array<double, 30> kT975{12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
                                       2.262157,  2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905,
                                       2.109816,  2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
                                       2.059539,  2.055529, 2.051831, 2.048407, 2.045230, 2.042272};

constexpr double kZ975 = 1.959963984540054;  // the standard normal's 0.975 quantile

}  // namespace

std::string_view to_string(Goal goal) { return goal == Goal::max ? "max" : "min"; }

double t_quantile_975(std::size_t df) {
  if (df == 0) return std::numeric_limits<double>::infinity();
  if (df <= kT975.size()) return kT975[df - 1];
  // Abramowitz & Stegun 26.7.5: t = z + g1/v + g2/v^2 + g3/v^3 + g4/v^4.
  const double z = kZ975;
  const double z2 = z * z;
  const double v = static_cast<double>(df);
  const double g1 = (z2 + 1) * z / 4;
  const double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
  const double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
  const double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;
  return z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v);
}

Interval interval_of(std::span<const double> values) {
  Interval r;
  r.n = values.size();
  if (r.n == 0) return r;
  double sum = 0;
  for (const double x : values) sum += x;
  r.mean = sum / static_cast<double>(r.n);
  if (r.n < 2) return r;
  // Two passes (the mean, then the squared deviations from it): no cancellation.
  double squares = 0;
  for (const double x : values) squares += (x - r.mean) * (x - r.mean);
  r.sd = std::sqrt(squares / static_cast<double>(r.n - 1));
  r.half_width = t_quantile_975(r.n - 1) * r.sd / std::sqrt(static_cast<double>(r.n));
  return r;
}

std::optional<Goal> better_direction(std::string_view metric) {
  if (metric == "task_success" || metric == "tasks.succeeded" || metric == "thresholds_passed") return Goal::max;
  if (metric == "tasks.total" || metric == "tasks.degraded") return std::nullopt;
  return Goal::min;
}

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::better: return "better";
    case Verdict::worse: return "worse";
    case Verdict::higher: return "higher";
    case Verdict::lower: return "lower";
    case Verdict::same: return "same";
    case Verdict::none: break;
  }
  return "-";
}

std::vector<bool> pareto_front(const std::vector<std::vector<std::optional<double>>>& points,
                               std::span<const Goal> goals) {
  const auto complete = [&](const std::vector<std::optional<double>>& p) {
    for (const auto& v : p) {
      if (!v) return false;
    }
    return true;
  };
  // How much better a is than b on objective k (positive: better).
  const auto gain = [&](std::size_t a, std::size_t b, std::size_t k) {
    const double d = *points[a][k] - *points[b][k];
    return goals[k] == Goal::max ? d : -d;
  };
  std::vector<bool> front(points.size(), false);
  for (std::size_t b = 0; b < points.size(); ++b) {
    if (!complete(points[b])) continue;
    bool dominated = false;
    for (std::size_t a = 0; a < points.size() && !dominated; ++a) {
      if (a == b || !complete(points[a])) continue;
      bool no_worse = true;
      bool better = false;
      for (std::size_t k = 0; k < goals.size(); ++k) {
        const double g = gain(a, b, k);
        if (g < 0) no_worse = false;
        if (g > 0) better = true;
      }
      dominated = no_worse && better;
    }
    front[b] = !dominated;
  }
  return front;
}

namespace {

// The variant's values of metric m, by seed.
std::map<std::uint64_t, double> values_by_seed(const SweepResult& r, std::size_t variant, std::size_t m) {
  std::map<std::uint64_t, double> out;
  for (const SweepRun& run : r.runs) {
    if (run.variant == variant && run.values[m]) out.emplace(run.seed, *run.values[m]);
  }
  return out;
}

// `min_effect` >= 0: the smallest difference that matters (SweepDecision).
Verdict verdict_of(const Interval& d, std::optional<Goal> direction, double min_effect) {
  if (!d.half_width) return Verdict::none;
  if (d.low() >= -min_effect && d.high() <= min_effect) return Verdict::same;
  if ((d.low() <= 0 && d.high() >= 0) || std::abs(d.mean) < min_effect) return Verdict::none;
  const bool higher = d.low() > 0;
  if (!direction) return higher ? Verdict::higher : Verdict::lower;
  return (higher == (*direction == Goal::max)) ? Verdict::better : Verdict::worse;
}

}  // namespace

double min_effect(const SweepDecision& decision, std::string_view metric, double baseline_mean) {
  for (const MinEffect& e : decision.min_effects) {
    if (e.metric == metric) return e.relative ? e.value * std::abs(baseline_mean) : e.value;
  }
  return kDefaultMinEffectRelative * std::abs(baseline_mean);
}

namespace {}  // namespace

SweepAnalysis analyse(const SweepResult& r) {
  SweepAnalysis a;
  a.variants.resize(r.variants.size());
  std::vector<SweepParams> params;
  for (const SweepVariantInfo& v : r.variants) params.push_back(v.params);
  a.comparable = shares_baseline_scenario(params, r.baseline);
  for (std::size_t m = 0; m < r.metrics.size(); ++m) {
    const std::map<std::uint64_t, double> base = values_by_seed(r, r.baseline, m);
    std::vector<double> base_values;
    for (const auto& [seed, x] : base) base_values.push_back(x);
    const double effect = min_effect(r.decision, r.metrics[m], interval_of(base_values).mean);
    for (std::size_t v = 0; v < r.variants.size(); ++v) {
      const std::map<std::uint64_t, double> mine = values_by_seed(r, v, m);
      std::vector<double> values;
      std::vector<double> differences;
      for (const auto& [seed, x] : mine) {
        values.push_back(x);
        if (const auto it = base.find(seed); it != base.end()) differences.push_back(x - it->second);
      }
      MetricSummary s;
      s.value = interval_of(values);
      if (v != r.baseline && a.comparable[v]) {
        s.difference = interval_of(differences);
        s.verdict = verdict_of(*s.difference, better_direction(r.metrics[m]), effect);
      }
      a.variants[v].push_back(s);
    }
  }
  std::vector<std::vector<std::optional<double>>> points(r.variants.size());
  std::vector<Goal> goals;
  for (const SweepObjective& o : r.objectives) {
    std::size_t m = 0;
    while (m < r.metrics.size() && r.metrics[m] != o.metric) ++m;
    assert(m < r.metrics.size() && "an objective's metric is one the sweep measured");
    goals.push_back(o.goal);
    for (std::size_t v = 0; v < r.variants.size(); ++v) {
      const Interval& i = a.variants[v][m].value;
      points[v].push_back(i.n > 0 && a.comparable[v] ? std::optional<double>(i.mean) : std::nullopt);
    }
  }
  a.pareto = pareto_front(points, goals);
  a.feasibility = feasibility(r);
  a.recommended = recommend(r, a);
  return a;
}

}  // namespace squall

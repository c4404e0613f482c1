#include "reports/writers/sweep_tables.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "reports/sweep_decision.hpp"
#include "reports/writers/csv_writer.hpp"
#include "reports/writers/markdown_text.hpp"
#include "reports/writers/sweep_robustness_text.hpp"

namespace squall {
namespace {

std::string num(double x) { return fmt::format("{:.6g}", x + 0.0); }

std::string interval_text(const Interval& i) {
  if (!i.half_width) return "-";
  return fmt::format("[{}, {}]", num(i.low()), num(i.high()));
}

std::string direction_text(const std::string& metric) {
  const auto d = better_direction(metric);
  if (!d) return "";
  return *d == Goal::max ? " (higher is better)" : " (lower is better)";
}

std::string seeds_text(const SweepResult& r) {
  if (r.seeds.empty()) return "no seeds";
  return fmt::format("{} seeds ({}..{})", r.seeds.size(), r.seeds.front(), r.seeds.back());
}

std::string target_text(const SweepResult& r) {
  if (!r.target) return "";
  return fmt::format("target: 95% CI of {} narrower than {} for every variant: {}\n", r.target->metric,
                     num(r.target->width),
                     r.target->reached ? fmt::format("reached with {} seeds", r.seeds.size())
                                       : fmt::format("not reached at max_seeds {}", r.target->max_seeds));
}

std::string front_text(const SweepResult& r, const SweepAnalysis& a) {
  std::string objectives;
  for (const SweepObjective& o : r.objectives) {
    if (!objectives.empty()) objectives += ", ";
    objectives += fmt::format("{} {}", o.metric, to_string(o.goal));
  }
  std::string names;
  for (std::size_t v = 0; v < r.variants.size(); ++v) {
    if (!a.pareto[v]) continue;
    if (!names.empty()) names += ", ";
    names += r.variants[v].name;
  }
  return fmt::format("Pareto front ({}): {}", objectives, names.empty() ? "none" : names);
}

// The end of every text form: thresholds, the recommendation, then the warnings.
std::string decision_text(const SweepResult& r, const SweepAnalysis& a) {
  std::string out;
  const auto rows = feasibility_rows(r, a);
  if (!rows.empty()) out += fmt::format("\n{}\n{}", feasibility_title(r), text_grid(rows));
  out += fmt::format("\n{}\n", recommendation_line(r, a));
  for (const std::string& w : sweep_warnings(r)) out += fmt::format("warning: {}\n", w);
  return out;
}

std::string decision_markdown(const SweepResult& r, const SweepAnalysis& a) {
  std::string out;
  const auto rows = feasibility_rows(r, a);
  if (!rows.empty())
    out += fmt::format("\n### {}\n\n{}", markdown_text(feasibility_title(r)), markdown_grid(rows, "---:"));
  out += fmt::format("\n**{}**\n", markdown_text(recommendation_line(r, a)));
  for (const std::string& w : sweep_warnings(r)) out += fmt::format("\n> warning: {}\n", markdown_text(w));
  return out;
}

struct Row {
  std::string variant, n, mean, ci, diff, verdict;
};

std::vector<Row> rows_of(const SweepResult& r, const SweepAnalysis& a, std::size_t m) {
  std::vector<Row> rows;
  for (std::size_t v = 0; v < r.variants.size(); ++v) {
    const MetricSummary& s = a.variants[v][m];
    Row row{r.variants[v].name,
            fmt::format("{}", s.value.n),
            s.value.n > 0 ? num(s.value.mean) : "-",
            interval_text(s.value),
            "baseline",
            ""};
    if (!a.comparable[v]) row.diff = "other scenario";
    if (s.difference) {
      const Interval& d = *s.difference;
      row.diff = d.n == 0 ? "-" : fmt::format("{:+.6g} {}", d.mean + 0.0, interval_text(d));
      row.verdict = std::string(to_string(s.verdict));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

// Per variant, how many of its seeds passed each threshold ("8/10"), and whether it is
// feasible; the header row first. Empty when the scenario has no thresholds.
std::vector<std::vector<std::string>> feasibility_rows(const SweepResult& r, const SweepAnalysis& a) {
  std::vector<std::vector<std::string>> rows;
  if (r.thresholds.empty()) return rows;
  std::vector<std::string> header{"variant"};
  header.insert(header.end(), r.thresholds.begin(), r.thresholds.end());
  header.emplace_back("feasible");
  rows.push_back(std::move(header));
  for (std::size_t v = 0; v < r.variants.size(); ++v) {
    const Feasibility& f = a.feasibility[v];
    std::vector<std::string> row{r.variants[v].name};
    for (const double rate : f.pass_rates) {
      row.push_back(fmt::format("{}/{}", std::llround(rate * static_cast<double>(f.runs)), f.runs));
    }
    row.emplace_back(f.feasible ? "yes" : "no");
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string feasibility_title(const SweepResult& r) {
  return fmt::format("Thresholds: seeds passed (feasible: every threshold on at least {:g}% of seeds)",
                     r.decision.feasible_pass_rate * 100);
}

std::string sweep_table(const SweepResult& r, const SweepAnalysis& a) {
  std::string out =
      fmt::format("squall sweep {}: scenario {}, {} variants x {}, baseline {}\n", r.name, r.scenario_name,
                  r.variants.size(), seeds_text(r), r.variants.empty() ? "-" : r.variants[r.baseline].name);
  out += target_text(r);
  out += "95% confidence intervals (Student's t); differences paired by seed (common random numbers)\n";
  if (const std::string scope = comparison_scope_line(r, a); !scope.empty()) out += scope + "\n";
  for (std::size_t m = 0; m < r.metrics.size(); ++m) {
    const std::vector<Row> rows = rows_of(r, a, m);
    Row widths{"variant", "n", "mean", "95% CI", "vs baseline (paired)", "verdict"};
    std::size_t w[6] = {widths.variant.size(), widths.n.size(),    widths.mean.size(),
                        widths.ci.size(),      widths.diff.size(), widths.verdict.size()};
    for (const Row& row : rows) {
      w[0] = std::max(w[0], row.variant.size());
      w[1] = std::max(w[1], row.n.size());
      w[2] = std::max(w[2], row.mean.size());
      w[3] = std::max(w[3], row.ci.size());
      w[4] = std::max(w[4], row.diff.size());
    }
    out += fmt::format("\n{}{}\n", r.metrics[m], direction_text(r.metrics[m]));
    const auto line = [&](const Row& row) {
      std::string text = fmt::format("  {:<{}}  {:>{}}  {:>{}}  {:<{}}  {:<{}}  {}", row.variant, w[0], row.n, w[1],
                                     row.mean, w[2], row.ci, w[3], row.diff, w[4], row.verdict);
      while (!text.empty() && text.back() == ' ') text.pop_back();
      text += '\n';
      return text;
    };
    out += line(widths);
    for (const Row& row : rows) out += line(row);
  }
  out += robustness_table(r, a);
  out += fmt::format("\n{}\n", front_text(r, a));
  out += decision_text(r, a);
  return out;
}

std::string sweep_markdown(const SweepResult& r, const SweepAnalysis& a) {
  std::string out =
      fmt::format("## squall sweep {}\n\nScenario {} ({}), {} variants x {}, baseline {}.\n", markdown_text(r.name),
                  markdown_text(r.scenario_name), markdown_code(r.scenario_file), r.variants.size(), seeds_text(r),
                  r.variants.empty() ? "-" : markdown_text(r.variants[r.baseline].name));
  if (r.target) out += fmt::format("\n{}\n", markdown_text(target_text(r).substr(0, target_text(r).size() - 1)));
  out += "95% confidence intervals (Student's t); differences paired by seed (common random numbers).\n";
  if (const std::string scope = comparison_scope_line(r, a); !scope.empty()) {
    out += fmt::format("\n{}.\n", markdown_text(scope));
  }
  for (std::size_t m = 0; m < r.metrics.size(); ++m) {
    out += fmt::format(
        "\n### {}{}\n\n| variant | n | mean | 95% CI | vs baseline (paired) | verdict |\n"
        "|---|---:|---:|---|---|---|\n",
        markdown_text(r.metrics[m]), direction_text(r.metrics[m]));
    for (const Row& row : rows_of(r, a, m)) {
      out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", markdown_text(row.variant), row.n, row.mean, row.ci,
                         row.diff, row.verdict);
    }
  }
  out += robustness_markdown(r, a);
  out += fmt::format("\n{}\n", markdown_text(front_text(r, a)));
  out += decision_markdown(r, a);
  return out;
}

std::string sweep_csv(const SweepResult& r, const SweepAnalysis& a) {
  std::string out =
      "variant,metric,n,mean,sd,ci95_low,ci95_high,diff_mean,diff_ci95_low,diff_ci95_high,verdict,pareto\r\n";
  const auto opt = [](bool has, double x) { return has ? num(x) : std::string(); };
  for (std::size_t v = 0; v < r.variants.size(); ++v) {
    for (std::size_t m = 0; m < r.metrics.size(); ++m) {
      const MetricSummary& s = a.variants[v][m];
      const Interval& i = s.value;
      std::string diff = ",,";
      std::string verdict;
      if (s.difference) {
        const Interval& d = *s.difference;
        diff = fmt::format("{},{},{}", opt(d.n > 0, d.mean), opt(d.half_width.has_value(), d.low()),
                           opt(d.half_width.has_value(), d.high()));
        verdict = s.verdict == Verdict::none ? "" : std::string(to_string(s.verdict));
      }
      out += fmt::format("{},{},{},{},{},{},{},{},{},{}\r\n", csv_field(r.variants[v].name), r.metrics[m], i.n,
                         opt(i.n > 0, i.mean), opt(i.n > 1, i.sd), opt(i.half_width.has_value(), i.low()),
                         opt(i.half_width.has_value(), i.high()), diff, verdict, a.pareto[v] ? "true" : "false");
    }
  }
  return out;
}

}  // namespace squall

#include "cli/replay_counterfactual.hpp"

#include <fmt/core.h>

#include "reports/sweep_stats.hpp"

namespace squall::cli {
namespace {

std::string interval_text(const Interval& i) {
  if (!i.half_width) return fmt::format("{:.4g}", i.mean);
  return fmt::format("{:.4g} ± {:.3g}", i.mean, *i.half_width);
}

std::vector<double> column(const std::vector<SeedFigures>& seeds, std::size_t row) {
  std::vector<double> values;
  for (const SeedFigures& s : seeds) values.push_back(headline_figures(s.whole)[row].second);
  return values;
}

}  // namespace

std::vector<std::pair<std::string, double>> headline_figures(const replay::Figures& whole) {
  std::vector<std::pair<std::string, double>> out;
  for (const char* name : {"tasks_finished", "task_success", "task_latency_p50_ms", "task_latency_p99_ms", "tokens"}) {
    const auto it = whole.find(name);
    out.emplace_back(name, it == whole.end() ? 0 : it->second);
  }
  double attempts = 0;
  for (const auto& [name, value] : whole)
    if (name.rfind("attempts{", 0) == 0) attempts += value;
  out.emplace_back("attempts", attempts);
  return out;
}

std::string counterfactual_table(const replay::Figures& recorded, const std::vector<SeedFigures>& as_deployed,
                                 const std::vector<SeedFigures>& candidate) {
  const auto rows = headline_figures(recorded);
  std::string text = fmt::format("{:<22} {:>12} {:>22} {:>22} {:>30}\n", "figure", "recorded", "as-deployed (95% CI)",
                                 "new policy (95% CI)", "new - as-deployed (paired)");
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::vector<double> base = column(as_deployed, r);
    const std::vector<double> next = column(candidate, r);
    std::vector<double> differences;
    for (std::size_t s = 0; s < base.size() && s < next.size(); ++s) differences.push_back(next[s] - base[s]);
    const Interval d = interval_of(differences);
    const std::string paired = d.half_width ? fmt::format("{:+.4g} [{:+.4g}, {:+.4g}]", d.mean, d.low(), d.high())
                                            : fmt::format("{:+.4g}", d.mean);
    text += fmt::format("{:<22} {:>12.4g} {:>22} {:>22} {:>30}\n", rows[r].first, rows[r].second,
                        interval_text(interval_of(base)), interval_text(interval_of(next)), paired);
  }
  return text;
}

}  // namespace squall::cli

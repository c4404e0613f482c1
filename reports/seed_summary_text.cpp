#include "reports/seed_summary_text.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

#include "reports/pass_rate.hpp"
#include "reports/rounding.hpp"
#include "reports/writers/markdown_text.hpp"

namespace squall {
namespace {

std::string mark(bool passed, bool color) {
  const char* text = passed ? "✓" : "✗";
  if (!color) return text;
  return fmt::format(fmt::fg(passed ? fmt::terminal_color::green : fmt::terminal_color::red), "{}", text);
}

std::string seed_figures(const SeedSummary& summary, const SeedOutcome& s) {
  std::string line = fmt::format("tasks {}", s.tasks);
  if (s.task_success) line += fmt::format("  task_success {}", round_ratio(*s.task_success));
  if (s.latency_p99_ms) line += fmt::format("  p99 {} ms", round_ms(*s.latency_p99_ms));
  line += fmt::format("  cost ${}", round_usd(s.cost_usd));
  for (std::size_t i = 0; i < s.failed.size(); ++i) {
    const ThresholdPassRate& t = summary.thresholds[s.failed[i]];
    line += fmt::format("{}{} {}", i == 0 ? "  failed: " : ", ", t.metric, t.expression);
  }
  return line;
}

std::string seed_list(const std::vector<std::uint64_t>& seeds) { return fmt::format("{}", fmt::join(seeds, ", ")); }

}  // namespace

std::string pass_rate_line(const SeedSummary& summary, std::size_t index) {
  const ThresholdPassRate& t = summary.thresholds[index];
  const std::string required =
      t.required ? fmt::format("required {}", to_string(*t.required)) : "required on every seed";
  return fmt::format("{}/{} seeds ({})", t.passed, summary.seeds.size(), required);
}

std::string pass_k_line(const SeedSummary& summary) {
  std::string line;
  for (std::size_t k = 1; k <= summary.pass_k.size(); ++k) {
    line += fmt::format("{}k={} {}", k == 1 ? "" : "  ", k, round_ratio(summary.pass_k[k - 1]));
  }
  return line;
}

std::string seed_summary_text(const SeedSummary& summary, const std::string& seeds, bool color) {
  const std::size_t n = summary.seeds.size();
  std::string out = fmt::format("  seeds: {} ({} seed{}), {} passed every threshold\n", seeds, n, n == 1 ? "" : "s",
                                summary.seeds_passed);
  std::size_t width = 0;
  for (const SeedOutcome& s : summary.seeds) width = std::max(width, fmt::formatted_size("seed {}", s.seed));
  const bool every = n <= kListedSeeds;
  for (const SeedOutcome& s : summary.seeds) {
    if (!every && s.passed) continue;
    out += fmt::format("  {} {:.<{}}: {}\n", mark(s.passed, color), fmt::format("seed {} ", s.seed), width + 4,
                       seed_figures(summary, s));
  }
  if (!every) out += fmt::format("    {} other seeds passed every threshold\n", summary.seeds_passed);
  out += fmt::format("\n  thresholds over {} seeds\n", n);
  width = 0;
  for (const ThresholdPassRate& t : summary.thresholds) width = std::max(width, t.metric.size() + t.expression.size());
  for (std::size_t i = 0; i < summary.thresholds.size(); ++i) {
    const ThresholdPassRate& t = summary.thresholds[i];
    const std::vector<std::uint64_t> failed = summary.failed_seeds(i);
    out += fmt::format("  {} {:.<{}}: {}", mark(t.met, color), t.metric + " " + t.expression + " ", width + 4,
                       pass_rate_line(summary, i));
    if (!failed.empty()) out += fmt::format(", failed on seed{} {}", failed.size() == 1 ? "" : "s", seed_list(failed));
    out += '\n';
  }
  if (summary.thresholds.empty()) out += "  none\n";
  out += fmt::format("\n  pass^k (all k runs pass): {}\n", pass_k_line(summary));
  return out;
}

std::string seed_summary_markdown(const std::string& scenario, const SeedSummary& summary, const std::string& seeds) {
  const std::size_t n = summary.seeds.size();
  std::string out = fmt::format("### {} squall: {} on {} seeds ({})\n\n", summary.passed ? "✓" : "✗",
                                markdown_text(scenario), n, seeds);
  out += fmt::format("{} of {} seeds passed every threshold; pass^k: {}\n\n", summary.seeds_passed, n,
                     pass_k_line(summary));
  out += "| | threshold | seeds passed | required | failed on seeds |\n|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < summary.thresholds.size(); ++i) {
    const ThresholdPassRate& t = summary.thresholds[i];
    out += fmt::format("| {} | {} | {}/{} | {} | {} |\n", t.met ? "✓" : "✗",
                       markdown_code(t.metric + " " + t.expression), t.passed, n,
                       t.required ? to_string(*t.required) : "every seed", seed_list(summary.failed_seeds(i)));
  }
  return out;
}

}  // namespace squall

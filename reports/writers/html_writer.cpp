#include "reports/writers/html_writer.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "reports/fingerprint.hpp"
#include "reports/rounding.hpp"
#include "reports/text_summary.hpp"
#include "reports/writers/html_assets.hpp"
#include "reports/writers/html_page_data.hpp"
#include "reports/writers/html_text.hpp"

namespace squall {
namespace {

using Json = nlohmann::ordered_json;

double seconds(Nanos t) { return round_ms(t) / 1000.0; }

std::string share(std::uint64_t n, std::uint64_t total) {
  if (total == 0) return "-";
  return fmt::format("{:.2f}%", 100.0 * static_cast<double>(n) / static_cast<double>(total));
}

std::string mark(bool passed) { return passed ? "✓" : "✗"; }

bool all_passed(const Report& r) { return r.all_thresholds_passed(); }

void head(const Report& r, std::string& out) {
  out += "<!DOCTYPE html>\n<html lang=\"en\" data-squall-report=\"1\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += fmt::format("<meta name=\"generator\" content=\"squall {} with uPlot {}\">\n",
                     html_text(r.produced_by.squall_version), uplot_version());
  out += fmt::format("<title>squall: {} {}</title>\n", html_text(r.scenario), mark(all_passed(r)));
  out += fmt::format("<style>\n{}\n</style>\n<style>\n{}</style>\n", uplot_css(), html_page_css());
  out += fmt::format("<script>\n{}\n</script>\n</head>\n", uplot_js());
}

void header(const Report& r, std::string& out) {
  std::size_t failed = 0;
  for (const ThresholdResult& t : r.thresholds) failed += t.passed ? 0 : 1;
  const std::string verdict = failed == 0 ? fmt::format("{} thresholds passed", r.thresholds.size())
                                          : fmt::format("{} of {} thresholds failed", failed, r.thresholds.size());
  out += fmt::format("<header>\n<h1 class=\"{}\">{} squall: {}</h1>\n<p class=\"verdict\">{}</p>\n",
                     failed == 0 ? "pass" : "fail", mark(failed == 0), html_text(r.scenario), verdict);
  out += "<dl class=\"identity\">\n";
  out += fmt::format("<dt>seed</dt><dd><code>{}</code></dd>\n", r.seed);
  out += fmt::format("<dt>simulated</dt><dd>{:.1f} s of virtual time</dd>\n", to_millis(r.duration) / 1000.0);
  out += fmt::format("<dt>fingerprint</dt><dd><code>{}</code></dd>\n", fingerprint_hex(r.fingerprint));
  out += fmt::format("<dt>squall</dt><dd>{}</dd>\n", html_text(r.produced_by.squall_version));
  out += fmt::format("<dt>scenario file</dt><dd><code>{}</code></dd>\n", html_text(r.produced_by.scenario_file));
  if (r.produced_by.policy_file) {
    out += fmt::format("<dt>policy file</dt><dd><code>{}</code></dd>\n", html_text(*r.produced_by.policy_file));
  }
  for (const std::string& note : r.produced_by.policy_notes) {
    out += fmt::format("<dt>policy note</dt><dd>{}</dd>\n", html_text(note));
  }
  out += fmt::format("<dt>repro</dt><dd><code class=\"repro\">{}</code></dd>\n", html_text(r.produced_by.repro));
  out += "</dl>\n</header>\n";
}

void outcomes(const Report& r, std::string& out) {
  out += "<section id=\"outcomes\">\n<h2>Task outcomes</h2>\n<table>\n";
  out += "<thead><tr><th>outcome</th><th class=\"n\">tasks</th><th class=\"n\">share</th></tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < kTaskStatusCount; ++i) {
    const std::uint64_t n = r.tasks.by_status[i];
    out += fmt::format("<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
                       to_string(static_cast<TaskStatus>(i)), n, share(n, r.tasks.total));
  }
  out += fmt::format("<tr class=\"total\"><td>total</td><td class=\"n\">{}</td><td></td></tr>\n", r.tasks.total);
  out += "</tbody>\n</table>\n</section>\n";
}

void thresholds(const Report& r, std::string& out) {
  out += "<section id=\"thresholds\">\n<h2>Thresholds</h2>\n";
  if (r.thresholds.empty()) {
    out += "<p>none</p>\n</section>\n";
    return;
  }
  out +=
      "<table>\n<thead><tr><th></th><th>metric</th><th>threshold</th><th "
      "class=\"n\">observed</th></tr></thead>\n<tbody>\n";
  for (const ThresholdResult& t : r.thresholds) {
    out += fmt::format(
        "<tr class=\"{}\"><td>{}</td><td><code>{}</code></td><td><code>{}</code></td><td class=\"n\">{}</td></tr>\n",
        !t.not_evaluated.empty() ? "skip"
        : t.passed               ? "pass"
                                 : "fail",
        t.not_evaluated.empty() ? mark(t.passed) : "–", html_text(t.metric), html_text(t.expression),
        html_text(t.not_evaluated.empty() ? format_observed(t) : "not evaluated: " + t.not_evaluated));
  }
  out += "</tbody>\n</table>\n</section>\n";
}

std::string spread(std::uint64_t count, double p50, double p99, double max, int decimals) {
  if (count == 0) return "no samples";
  return fmt::format("p50 {:.{}f} · p99 {:.{}f} · max {:.{}f}", p50, decimals, p99, decimals, max, decimals);
}

void figures(const Report& r, std::string& out) {
  out += "<section id=\"figures\">\n<h2>Latency and spend</h2>\n<table>\n<tbody>\n";
  const auto row = [&out](std::string_view name, const std::string& value) {
    out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", name, value);
  };
  const LatencyStats& l = r.latency;
  row("task latency (ms)", spread(l.count, round_ms(l.p50_ms), round_ms(l.p99_ms), round_ms(l.max_ms), 3));
  row("retry amplification",
      r.retry_amplification ? fmt::format("{:.3f}", round_ratio(*r.retry_amplification)) : std::string("-"));
  row("tokens", fmt::format("input {} · output {} · burned by failed attempts {}", r.tokens.input, r.tokens.output,
                            r.tokens.burned_by_failed_attempts));
  row("cost (USD)", fmt::format("{:.6f} total · {:.6f} burned by failed attempts", round_usd(r.cost.total_usd),
                                round_usd(r.cost.burned_by_failed_attempts_usd)));
  const SpendStats& tk = r.task_spend.tokens;
  row("tokens per task", spread(tk.count, tk.p50, tk.p99, tk.max, 0));
  const SpendStats& usd = r.task_spend.cost_usd;
  row("cost per task (USD)", spread(usd.count, round_usd(usd.p50), round_usd(usd.p99), round_usd(usd.max), 6));
  row("breaker transitions", std::to_string(r.breaker_transitions_total));
  const std::string openings = format_breaker_openings(r);
  row("breaker openings by cause", openings.empty() ? std::string("none") : openings);
  out += "</tbody>\n</table>\n</section>\n";
}

void providers(const Report& r, std::string& out) {
  out += "<section id=\"providers\">\n<h2>Providers</h2>\n";
  if (r.providers.empty()) {
    out += "<p>none</p>\n</section>\n";
    return;
  }
  out +=
      "<table>\n<thead><tr><th>provider</th><th class=\"n\">attempts</th><th>by outcome</th>"
      "<th class=\"n\">latency p50 (ms)</th><th class=\"n\">latency p99 (ms)</th>"
      "<th class=\"n\">tokens in / out</th><th class=\"n\">cost (USD)</th></tr></thead>\n<tbody>\n";
  for (const ProviderSummary& p : r.providers) {
    std::string by_outcome;
    for (const OutcomeKind kind : all_outcome_kinds()) {
      const std::uint64_t n = p.by_outcome[static_cast<std::size_t>(kind)];
      if (n == 0) continue;
      if (!by_outcome.empty()) by_outcome += ' ';
      by_outcome += fmt::format("{}={}", to_string(kind), n);
    }
    out += fmt::format(
        "<tr><td>{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{:.3f}</td><td class=\"n\">{:.3f}</td>"
        "<td class=\"n\">{} / {}</td><td class=\"n\">{:.6f}</td></tr>\n",
        html_text(p.name), p.calls, by_outcome, round_ms(p.latency.p50_ms), round_ms(p.latency.p99_ms), p.input_tokens,
        p.output_tokens, round_usd(p.cost_usd));
  }
  out += "</tbody>\n</table>\n</section>\n";
}

void faults(const Report& r, std::string& out) {
  const bool any = std::any_of(r.injected_faults.begin(), r.injected_faults.end(),
                               [](const InjectedFaultRow& f) { return f.count > 0; });
  if (!any) return;
  out += "<section id=\"faults\">\n<h2>Injected faults</h2>\n<table>\n";
  out += "<thead><tr><th>provider</th><th>kind</th><th class=\"n\">injected</th></tr></thead>\n<tbody>\n";
  for (const InjectedFaultRow& f : r.injected_faults) {
    if (f.count == 0) continue;
    out += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td></tr>\n", html_text(f.provider),
                       html_text(f.kind), f.count);
  }
  out += "</tbody>\n</table>\n";
  // The same faults by phase (delay, abort, transform), for the providers that had any.
  out += "<table>\n<thead><tr><th>provider</th><th>phase</th><th class=\"n\">injected</th></tr></thead>\n<tbody>\n";
  for (const InjectedFaultRow& f : r.injected_fault_phases) {
    if (f.count == 0) continue;
    out += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td></tr>\n", html_text(f.provider),
                       html_text(f.kind), f.count);
  }
  out += "</tbody>\n</table>\n</section>\n";
}

void charts(const Report& r, std::string& out) {
  out += "<section id=\"charts\">\n<h2>Over virtual time</h2>\n";
  out +=
      fmt::format("<p>Counts per window of {:.3f} s of virtual time. Drawn with uPlot {}, embedded in this page.</p>\n",
                  seconds(r.time_series.window), uplot_version());
  out += "<noscript><p>The charts need JavaScript; the tables above do not.</p></noscript>\n";
  out += "<div id=\"chart-list\"></div>\n</section>\n";
  // ensure_ascii: every non-ASCII character as \uXXXX; replace: broken UTF-8 in a name
  // becomes U+FFFD rather than an exception.
  const std::string json = html_page_data(r).dump(-1, ' ', true, Json::error_handler_t::replace);
  out += fmt::format("<script type=\"application/json\" id=\"squall-data\">{}</script>\n", script_json(json));
  out += fmt::format("<script>\n{}{}</script>\n", chart_page_js(), html_page_js());
}

}  // namespace

std::string html_page(const Report& r) {
  std::string out;
  head(r, out);
  out += "<body>\n";
  header(r, out);
  out += "<main>\n";
  outcomes(r, out);
  thresholds(r, out);
  figures(r, out);
  providers(r, out);
  faults(r, out);
  charts(r, out);
  out += "</main>\n</body>\n</html>\n";
  return out;
}

}  // namespace squall

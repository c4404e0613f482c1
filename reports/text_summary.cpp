#include "reports/text_summary.hpp"

#include "reports/metric_catalogue.hpp"

#include <algorithm>
#include <vector>

#include <fmt/color.h>
#include <fmt/format.h>

#include "reports/client_text.hpp"
#include "reports/fingerprint.hpp"
#include "reports/rounding.hpp"
#include "reports/threshold.hpp"

namespace squall {
namespace {

// A line "  <mark><label> ....: <value>"; labels are padded to the longest one.
struct Row {
  std::string mark;  // "" or a threshold's "✓ " / "✗ ", printed before the label
  std::string label;
  std::string value;
};

std::string percent(std::uint64_t n, std::uint64_t total) {
  if (total == 0) return "-";
  return fmt::format("{:.2f}%", 100.0 * static_cast<double>(n) / static_cast<double>(total));
}

std::string latency(const LatencyStats& s) {
  if (s.count == 0) return "no samples";
  return fmt::format("p50={:.3f} p90={:.3f} p99={:.3f} max={:.3f} mean={:.3f}", round_ms(s.p50_ms), round_ms(s.p90_ms),
                     round_ms(s.p99_ms), round_ms(s.max_ms), round_ms(s.mean_ms));
}

std::string outcomes(const OutcomeCounts& counts) {
  std::string out;
  for (OutcomeKind kind : all_outcome_kinds()) {
    const std::uint64_t n = counts[index_of(kind)];
    if (n == 0) continue;
    if (!out.empty()) out += ' ';
    out += fmt::format("{}={}", to_string(kind), n);
  }
  return out;
}

std::string optional_ratio(const std::optional<double>& x) {
  return x ? fmt::format("{:.3f}", round_ratio(*x)) : std::string("-");
}

void task_rows(const Report& r, std::vector<Row>& rows) {
  const TaskSummary& t = r.tasks;
  const auto of = [&](TaskStatus s) { return t.by_status[index_of(s)]; };
  std::string statuses = fmt::format("{} total", t.total);
  for (std::size_t k = 0; k < kTaskStatusCount; ++k) {
    const auto status = static_cast<TaskStatus>(k);
    // wrong_answer exists only with ground truth; the line stays as it was without it.
    if (status == TaskStatus::wrong_answer && of(status) == 0) continue;
    statuses += fmt::format(", {} {}", of(status), to_string(status));
  }
  rows.push_back({"", "tasks", statuses});
  rows.push_back(
      {"", "task success",
       fmt::format("{} (clean or degraded)", percent(of(TaskStatus::succeeded) + of(TaskStatus::degraded), t.total))});
  for (std::size_t k = index_of(TaskStatus::degraded); k < kTaskStatusCount; ++k) {
    const auto status = static_cast<TaskStatus>(k);
    std::string reasons;
    for (const ReasonCount& c : t.by_reason) {
      if (c.status != status) continue;
      if (!reasons.empty()) reasons += ' ';
      reasons += fmt::format("{}={}", c.reason, c.count);
    }
    if (!reasons.empty()) rows.push_back({"", fmt::format("  {} by reason", to_string(status)), reasons});
  }
  rows.push_back({"", "task latency (ms)", latency(r.latency)});
  if (r.answers.total() == 0) return;
  const auto verdicts = [](const AnswerCounts& counts) {
    std::string out;
    for (std::size_t v = 0; v < kAnswerVerdictCount; ++v) {
      if (!out.empty()) out += ' ';
      out += fmt::format("{}={}", to_string(static_cast<AnswerVerdict>(v)), counts[v]);
    }
    return out;
  };
  rows.push_back(
      {"", "answers (ground truth)", fmt::format("{} tasks  {}", r.answers.total(), verdicts(r.answers.by_verdict))});
  for (const AnswerRow& row : r.answers.by_path)
    rows.push_back({"", fmt::format("  {}", row.path), verdicts(row.by_verdict)});
}

void provider_rows(const Report& r, std::vector<Row>& rows) {
  for (const ProviderSummary& p : r.providers) {
    rows.push_back(
        {"", fmt::format("provider {}", p.name), fmt::format("{} calls  {}", p.calls, outcomes(p.by_outcome))});
    rows.push_back({"", "  latency (ms)", latency(p.latency)});
    if (p.retries_refused > 0 || p.throttled > 0) {
      rows.push_back(
          {"", "  held back", fmt::format("retries_refused={} throttled={}", p.retries_refused, p.throttled)});
    }
    if (p.truncated > 0) {
      rows.push_back({"", "  truncated", fmt::format("{} answers cut at max_output_tokens", p.truncated)});
    }
  }
  std::string per_tool;
  for (const ToolSummary& t : r.tools) per_tool += fmt::format("  {}={}", t.name, optional_ratio(t.amplification));
  rows.push_back(
      {"", "retry amplification", fmt::format("{} overall{}", optional_ratio(r.retry_amplification), per_tool)});
}

// The strategies with decisions of their own: caches, hedges, limiters.
void strategy_rows(const Report& r, std::vector<Row>& rows) {
  for (const CacheSummary& c : r.caches) {
    std::string actions;
    for (CacheAction action : kCacheActions) {
      actions += fmt::format("{}={} ", to_string(action), c.by_action[static_cast<std::size_t>(action)]);
    }
    rows.push_back({"", fmt::format("cache {}", c.tool), fmt::format("{}calls_saved={}", actions, c.calls_saved)});
    if (c.stale_age.count > 0) rows.push_back({"", "  stale age (ms)", latency(c.stale_age)});
  }
  for (const HedgeSummary& h : r.hedges) {
    std::string actions;
    for (HedgeAction action : kHedgeActions) {
      actions += fmt::format("{}={} ", to_string(action), h.by_action[static_cast<std::size_t>(action)]);
    }
    rows.push_back(
        {"", fmt::format("hedging {}", h.tool), fmt::format("{}loser_cost_usd={:.6f}", actions, h.loser_cost_usd)});
  }
  for (const LimiterSummary& l : r.limiters) {
    const std::uint64_t recovered = static_cast<std::uint64_t>(
        std::count_if(l.dips.begin(), l.dips.end(), [](const LimitDip& d) { return d.recovered; }));
    Nanos slowest = 0;
    for (const LimitDip& d : l.dips) slowest = std::max(slowest, d.recovery);
    rows.push_back({"", fmt::format("limit {}", l.tool),
                    fmt::format("initial={} final={} lowest={} highest={} decreases={} rejected={} dips={} "
                                "recovered={} slowest_recovery_ms={:.3f}",
                                l.initial, l.final, l.lowest, l.highest,
                                l.by_action[static_cast<std::size_t>(LimitAction::decrease)],
                                l.by_action[static_cast<std::size_t>(LimitAction::rejected)], l.dips.size(), recovered,
                                to_millis(slowest))});
  }
}

// Tickets by level, non-zero only, each with its reasons: "human_review=3 (safe_failed=3)".
std::string escalation_text(const Report& r) {
  std::string escalations;
  for (EscalationLevel level : all_escalation_levels()) {
    const std::uint64_t n = r.escalations.by_level[index_of(level)];
    if (n == 0) continue;
    std::string reasons;
    for (EscalationCondition reason : all_escalation_conditions()) {
      const std::uint64_t m = r.escalations.by_level_and_reason[index_of(level)][index_of(reason)];
      if (m == 0) continue;
      if (!reasons.empty()) reasons += ' ';
      reasons += fmt::format("{}={}", to_string(reason), m);
    }
    if (!escalations.empty()) escalations += ' ';
    escalations += fmt::format("{}={} ({})", to_string(level), n, reasons);
  }
  return escalations;
}

// "answer:gpt->claude=3 answer:skipped_cooldown:gpt=5": a move names both providers, any
// other action the one it concerns; rows that read the same (a skip after different
// providers) are summed.
std::string fallback_text(const Report& r) {
  std::vector<std::pair<std::string, std::uint64_t>> counts;
  for (const FallbackRow& f : r.fallbacks) {
    std::string key = f.action == FallbackAction::switched
                          ? fmt::format("{}:{}->{}", f.tool, f.from, f.to)
                          : fmt::format("{}:{}{}{}", f.tool, to_string(f.action),
                                        f.to.empty() && f.from.empty() ? "" : ":", f.to.empty() ? f.from : f.to);
    const auto same = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == key; });
    if (same != counts.end()) {
      same->second += f.count;
    } else {
      counts.emplace_back(std::move(key), f.count);
    }
  }
  std::string out;
  for (const auto& [key, count] : counts) out += fmt::format("{}{}={}", out.empty() ? "" : " ", key, count);
  return out;
}

void cost_rows(const Report& r, std::vector<Row>& rows) {
  rows.push_back({"", "tokens",
                  fmt::format("input={} output={} burned_by_failed_attempts={}", r.tokens.input, r.tokens.output,
                              r.tokens.burned_by_failed_attempts)});
  std::string per_task = r.cost.per_task_usd ? fmt::format("{:.6f}", round_usd(*r.cost.per_task_usd)) : "-";
  rows.push_back({"", "cost (USD)",
                  fmt::format("total={:.6f} burned_by_failed_attempts={:.6f} per_task={}", round_usd(r.cost.total_usd),
                              round_usd(r.cost.burned_by_failed_attempts_usd), per_task)});
  const SpendStats& tokens = r.task_spend.tokens;
  const SpendStats& usd = r.task_spend.cost_usd;
  rows.push_back({"", "  tokens per task",
                  tokens.count == 0 ? std::string("no samples")
                                    : fmt::format("p50={} p99={} max={}", tokens.p50, tokens.p99, tokens.max)});
  rows.push_back({"", "  USD per task",
                  usd.count == 0 ? std::string("no samples")
                                 : fmt::format("p50={:.6f} p99={:.6f} max={:.6f}", round_usd(usd.p50),
                                               round_usd(usd.p99), round_usd(usd.max))});
  rows.push_back({"", "breaker transitions", fmt::format("{}", r.breaker_transitions_total)});
  const std::string openings = format_breaker_openings(r);
  if (!openings.empty()) rows.push_back({"", "  openings by cause", openings});
  const std::string fallbacks = fallback_text(r);
  if (!fallbacks.empty()) rows.push_back({"", "fallbacks", fallbacks});
  strategy_rows(r, rows);
  // "search:relax_threshold:dense 0.75=4 search:rewrite_query:intended=1"
  std::string ladder;
  for (const LadderRow& l : r.ladder) {
    if (!ladder.empty()) ladder += ' ';
    ladder += fmt::format("{}:{}:{}={}", l.tool, l.strategy, l.rung, l.count);
  }
  if (!ladder.empty()) rows.push_back({"", "ladder", ladder});
  const std::string escalations = escalation_text(r);
  rows.push_back({"", "escalations", escalations.empty() ? std::string("none") : escalations});
  std::string faults;
  for (const InjectedFaultRow& f : r.injected_faults) {
    if (f.count == 0) continue;  // the JSON report lists every kind; the summary only what happened
    if (!faults.empty()) faults += ' ';
    faults += fmt::format("{}/{}={}", f.provider, f.kind, f.count);
  }
  rows.push_back({"", "injected faults", faults.empty() ? std::string("none") : faults});
}

void threshold_rows(const Report& r, bool color, std::vector<Row>& rows) {
  for (const ThresholdResult& t : r.thresholds) {
    if (!t.not_evaluated.empty()) {  // skipped: neither held nor failed
      const std::string mark = color ? fmt::format(fmt::fg(fmt::terminal_color::yellow), "-") : "-";
      rows.push_back({mark + " ", t.metric, fmt::format("{}  not evaluated: {}", t.expression, t.not_evaluated)});
      continue;
    }
    std::string mark = t.passed ? "✓" : "✗";
    if (color) {
      mark = fmt::format(fmt::fg(t.passed ? fmt::terminal_color::green : fmt::terminal_color::red), "{}", mark);
    }
    rows.push_back({mark + " ", t.metric, fmt::format("{}  observed {}", t.expression, format_observed(t))});
  }
}

}  // namespace

ThresholdQuantity in_threshold_unit(const ThresholdResult& t, double value) {
  // Time metrics are observed in milliseconds; the bound may be written in seconds.
  const MetricInfo* metric = find_metric(t.metric.substr(0, t.metric.find('{')));
  if (metric == nullptr || !metric->is_time()) return {round_ratio(value), ""};
  const WrittenUnit unit = written_time_unit(t.expression);
  return {round_ratio(value / unit.ms), unit.name};
}

std::string format_observed(const ThresholdResult& t) {
  if (!t.observed) return "no samples";
  const ThresholdQuantity q = in_threshold_unit(t, *t.observed);
  return q.unit.empty() ? fmt::format("{}", q.value) : fmt::format("{} {}", q.value, q.unit);
}

std::string format_breaker_openings(const Report& r) {
  std::string out;
  for (const BreakerCause cause : kBreakerCauses) {
    const std::uint64_t n = r.breaker_openings[static_cast<std::size_t>(cause)];
    if (cause == BreakerCause::none || n == 0) continue;
    if (!out.empty()) out += ' ';
    out += fmt::format("{}={}", to_string(cause), n);
  }
  return out;
}

std::string text_summary(const Report& r, bool color) {
  std::vector<Row> rows;
  task_rows(r, rows);
  provider_rows(r, rows);
  cost_rows(r, rows);
  if (r.clients) {
    for (auto& [label, value] : client_lines(*r.clients)) rows.push_back({"", std::move(label), std::move(value)});
  }
  const std::size_t thresholds_from = rows.size();
  threshold_rows(r, color, rows);

  // Threshold labels follow a two-column mark, so they are padded two columns less.
  // Sub-metric selectors can be long ("provider_calls{provider:...,outcome:...}"): they
  // do not widen the column, they just go without dots.
  std::size_t width = 0;
  for (std::size_t i = 0; i < thresholds_from; ++i) width = std::max(width, rows[i].label.size());
  width += 4;  // at least three dots after the longest label

  std::string out = fmt::format("  scenario: {}  seed: {}  simulated: {:.1f} s  fingerprint: {}\n\n", r.scenario,
                                r.seed, to_millis(r.duration) / 1000.0, fingerprint_hex(r.fingerprint));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i == thresholds_from) out += "\n  thresholds\n";
    const Row& row = rows[i];
    const std::size_t pad = width - (i >= thresholds_from ? 2 : 0);
    out += fmt::format("  {}{:.<{}}: {}\n", row.mark, row.label + " ", pad, row.value);
  }
  if (r.thresholds.empty()) out += "\n  thresholds: none\n";
  return out;
}

}  // namespace squall

#include "reports/writers/markdown_writer.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "reports/client_text.hpp"
#include "reports/fingerprint.hpp"
#include "reports/rounding.hpp"
#include "reports/seed_summary_text.hpp"
#include "reports/text_summary.hpp"
#include "reports/writers/markdown_text.hpp"

namespace squall {
namespace {

constexpr std::size_t kTopReasons = 5;

std::string share(std::uint64_t n, std::uint64_t total) {
  if (total == 0) return "-";
  return fmt::format("{:.2f}%", 100.0 * static_cast<double>(n) / static_cast<double>(total));
}

void heading(const Report& r, std::string& out) {
  std::size_t failed = 0;
  for (const ThresholdResult& t : r.thresholds) failed += t.passed ? 0 : 1;
  const std::string verdict = failed == 0 ? fmt::format("{} thresholds passed", r.thresholds.size())
                                          : fmt::format("{} of {} thresholds failed", failed, r.thresholds.size());
  out += fmt::format("### {} squall: {} ({})\n\n", failed == 0 ? "✓" : "✗", markdown_text(r.scenario), verdict);
  out += fmt::format("seed {} · simulated {:.1f} s · fingerprint {} · squall {}\n\n",
                     markdown_code(std::to_string(r.seed)), to_millis(r.duration) / 1000.0,
                     markdown_code(fingerprint_hex(r.fingerprint)), markdown_text(r.produced_by.squall_version));
}

void outcomes(const Report& r, std::string& out) {
  out += "| outcome | tasks | share |\n|:--|--:|--:|\n";
  for (std::size_t i = 0; i < kTaskStatusCount; ++i) {
    const std::uint64_t n = r.tasks.by_status[i];
    out += fmt::format("| {} | {} | {} |\n", to_string(static_cast<TaskStatus>(i)), n, share(n, r.tasks.total));
  }
  out += fmt::format("| **total** | **{}** | |\n\n", r.tasks.total);
}

void thresholds(const Report& r, std::string& out) {
  out += "#### Thresholds\n\n";
  if (r.thresholds.empty()) {
    out += "none\n\n";
    return;
  }
  out += "| | metric | threshold | observed |\n|:-:|:--|:--|--:|\n";
  for (const ThresholdResult& t : r.thresholds) {
    const bool skipped = !t.not_evaluated.empty();
    out += fmt::format("| {} | {} | {} | {} |\n",
                       skipped    ? "–"
                       : t.passed ? "✓"
                                  : "✗",
                       markdown_code(t.metric), markdown_code(t.expression),
                       markdown_text(skipped ? "not evaluated: " + t.not_evaluated : format_observed(t)));
  }
  out += '\n';
}

// A live run's clients (reports/client_text.hpp).
void clients(const Report& r, std::string& out) {
  if (!r.clients) return;
  out += "#### Clients\n\n| client | |\n|:--|:--|\n";
  for (const auto& [label, value] : client_lines(*r.clients)) {
    out += fmt::format("| {} | {} |\n", markdown_text(label), markdown_text(value));
  }
  out += '\n';
}

void failure_reasons(const Report& r, std::string& out) {
  std::vector<ReasonCount> reasons;
  for (const ReasonCount& c : r.tasks.by_reason) {
    if (c.status == TaskStatus::failed || c.status == TaskStatus::safe_failed || c.status == TaskStatus::wrong_answer) {
      reasons.push_back(c);
    }
  }
  if (reasons.empty()) return;
  // by_reason is sorted by status, then reason: a stable sort by count keeps that order
  // among equal counts.
  std::stable_sort(reasons.begin(), reasons.end(),
                   [](const ReasonCount& a, const ReasonCount& b) { return a.count > b.count; });
  if (reasons.size() > kTopReasons) reasons.resize(kTopReasons);
  out += "#### Top failure reasons\n\n| status | reason | tasks |\n|:--|:--|--:|\n";
  for (const ReasonCount& c : reasons) {
    out += fmt::format("| {} | {} | {} |\n", to_string(c.status), markdown_text(c.reason), c.count);
  }
  out += '\n';
}

std::string spend(const SpendStats& s, double (*round)(double), int decimals) {
  if (s.count == 0) return "no samples";
  return fmt::format("p50 {:.{}f} · p99 {:.{}f} · max {:.{}f}", round(s.p50), decimals, round(s.p99), decimals,
                     round(s.max), decimals);
}

double identity(double x) { return x; }

void figures(const Report& r, std::string& out) {
  double (*ms)(double) = round_ms;
  out += "#### Latency and spend\n\n| figure | value |\n|:--|:--|\n";
  out += fmt::format("| task latency (ms) | {} |\n",
                     spend(SpendStats{r.latency.count, r.latency.p50_ms, r.latency.p90_ms, r.latency.p99_ms,
                                      r.latency.max_ms, r.latency.mean_ms},
                           ms, 3));
  out += fmt::format("| retry amplification | {} |\n",
                     r.retry_amplification ? fmt::format("{:.3f}", round_ratio(*r.retry_amplification)) : "-");
  out += fmt::format("| cost (USD) | {:.6f} total · {:.6f} burned by failed attempts |\n", round_usd(r.cost.total_usd),
                     round_usd(r.cost.burned_by_failed_attempts_usd));
  out += fmt::format("| tokens per task | {} |\n", spend(r.task_spend.tokens, identity, 0));
  out += fmt::format("| cost per task (USD) | {} |\n\n", spend(r.task_spend.cost_usd, round_usd, 6));
}

// Why circuit breakers opened, one row per cause that opened any (BreakerCause order);
// omitted when no breaker opened.
void breaker_openings(const Report& r, std::string& out) {
  std::string rows;
  for (const BreakerCause cause : kBreakerCauses) {
    const std::uint64_t n = r.breaker_openings[static_cast<std::size_t>(cause)];
    if (cause != BreakerCause::none && n > 0) rows += fmt::format("| {} | {} |\n", markdown_code(to_string(cause)), n);
  }
  if (rows.empty()) return;
  out += fmt::format("#### Breaker openings\n\n| cause | openings |\n|:--|--:|\n{}\n", rows);
}

// The count of `provider` in `rows` (sorted by provider), summed over kinds, or of one
// `kind` when given.
std::uint64_t count_of(const std::vector<InjectedFaultRow>& rows, std::string_view provider,
                       std::string_view kind = {}) {
  std::uint64_t n = 0;
  for (const InjectedFaultRow& f : rows) {
    if (f.provider == provider && (kind.empty() || f.kind == kind)) n += f.count;
  }
  return n;
}

// One row per provider with faults injected: how many, by phase, and how many the engine
// saw as a timeout or cancel instead.
void injected_faults(const Report& r, std::string& out) {
  std::vector<std::string_view> providers;
  for (const InjectedFaultRow& f : r.injected_fault_phases) {
    if (providers.empty() || providers.back() != f.provider) providers.push_back(f.provider);
  }
  std::erase_if(providers, [&](std::string_view p) { return count_of(r.injected_faults, p) == 0; });
  if (providers.empty()) return;
  out +=
      "#### Injected faults\n\n| provider | injected | delay | abort | transform | cut short |\n"
      "|:--|--:|--:|--:|--:|--:|\n";
  for (const std::string_view p : providers) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", markdown_code(p), count_of(r.injected_faults, p),
                       count_of(r.injected_fault_phases, p, "delay"), count_of(r.injected_fault_phases, p, "abort"),
                       count_of(r.injected_fault_phases, p, "transform"), count_of(r.injected_faults_cut_short, p));
  }
  out += '\n';
}

std::string recovery(const CapacityReport& c) {
  if (!c.recovery) return "-";
  const double seconds = to_millis(c.recovery->time) / 1000.0;
  return c.recovery->recovered ? fmt::format("{:.1f} s", seconds) : fmt::format("not recovered ({:.1f} s)", seconds);
}

// One row per provider with a capacity block: its totals and its recovery time after drops
// (reports/capacity_recovery.hpp); the per-window series are in the JSON and CSV reports.
void capacity(const Report& r, std::string& out) {
  if (r.capacity.empty()) return;
  out +=
      "#### Capacity\n\n| provider | offered | goodput | rate limited | rejected | abandoned | wasted | max queue "
      "| max in flight | recovery |\n|:--|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n";
  for (const CapacityReport& c : r.capacity) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", markdown_code(c.provider), c.arrivals,
                       c.goodput, c.rate_limited_requests + c.rate_limited_tokens, c.queue_full + c.queue_timeouts,
                       c.abandoned, c.wasted_requests, c.max_queue, c.max_in_flight, recovery(c));
  }
  out += '\n';
}

}  // namespace

std::string markdown_summary(const Report& r) {
  std::string out;
  heading(r, out);
  outcomes(r, out);
  thresholds(r, out);
  failure_reasons(r, out);
  figures(r, out);
  breaker_openings(r, out);
  injected_faults(r, out);
  capacity(r, out);
  clients(r, out);
  for (const std::string& note : r.produced_by.policy_notes)
    out += fmt::format("**Policy note:** {}\n\n", markdown_text(note));
  out += fmt::format("**Repro:** {}\n", markdown_code(r.produced_by.repro));
  return out;
}

namespace {

std::size_t failed_thresholds(const Report& r) {
  std::size_t failed = 0;
  for (const ThresholdResult& t : r.thresholds) failed += t.passed ? 0 : 1;
  return failed;
}

// A fence longer than any run of backticks in `text` (CommonMark 4.5).
std::string fence_for(std::string_view text) {
  std::size_t longest = 0;
  std::size_t run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

// One row of the overview table: with seeds, the seeds that passed every threshold and
// pass^k; else the run's tasks and task success.
std::string overview_row(const SuiteOutcome& o) {
  if (o.report == nullptr) return fmt::format("| ✗ | {} | not run | - | - |\n", markdown_code(o.scenario_file));
  if (o.seeds.summary != nullptr) {
    const SeedSummary& s = *o.seeds.summary;
    std::size_t missed = 0;
    for (const ThresholdPassRate& t : s.thresholds) missed += t.met ? 0 : 1;
    return fmt::format(
        "| {} | {} | {} | {}/{} | {} |\n", missed == 0 ? "✓" : "✗", markdown_code(o.scenario_file),
        missed == 0 ? "passed" : fmt::format("{} of {} thresholds below their pass rate", missed, s.thresholds.size()),
        s.seeds_passed, s.seeds.size(), pass_k_line(s));
  }
  const Report& r = *o.report;
  const std::size_t f = failed_thresholds(r);
  const std::uint64_t succeeded = r.tasks.by_status[static_cast<std::size_t>(TaskStatus::succeeded)] +
                                  r.tasks.by_status[static_cast<std::size_t>(TaskStatus::degraded)];
  return fmt::format("| {} | {} | {} | {} | {} |\n", f == 0 ? "✓" : "✗", markdown_code(o.scenario_file),
                     f == 0 ? "passed" : fmt::format("{} of {} thresholds failed", f, r.thresholds.size()),
                     r.tasks.total, share(succeeded, r.tasks.total));
}

bool outcome_passed(const SuiteOutcome& o) {
  return o.seeds.summary != nullptr ? o.seeds.summary->passed : failed_thresholds(*o.report) == 0;
}

}  // namespace

std::string markdown_summary(std::span<const SuiteOutcome> outcomes) {
  std::size_t passed = 0;
  std::size_t failed = 0;
  std::size_t not_run = 0;
  bool seeds = false;
  for (const SuiteOutcome& o : outcomes) {
    seeds = seeds || o.seeds.summary != nullptr;
    if (o.report == nullptr) {
      ++not_run;
    } else if (outcome_passed(o)) {
      ++passed;
    } else {
      ++failed;
    }
  }
  std::string out = fmt::format("## {} squall ci: {} scenario{} ({} passed, {} failed, {} not run)\n\n",
                                failed + not_run == 0 ? "✓" : "✗", outcomes.size(), outcomes.size() == 1 ? "" : "s",
                                passed, failed, not_run);
  out += seeds ? "| | scenario | result | seeds passed | pass^k |\n|:-:|:--|:--|--:|:--|\n"
               : "| | scenario | result | tasks | task success |\n|:-:|:--|:--|--:|--:|\n";
  for (const SuiteOutcome& o : outcomes) out += overview_row(o);
  for (const SuiteOutcome& o : outcomes) {
    out += '\n';
    if (o.seeds.summary != nullptr && o.report != nullptr) {
      out += seed_summary_markdown(o.report->scenario, *o.seeds.summary, o.seeds.described);
      out += fmt::format("\n**Repro:** {}\n", markdown_code(o.seeds.repro(o.seeds.summary->repro_seed())));
      continue;
    }
    if (o.report != nullptr) {
      out += markdown_summary(*o.report);
      continue;
    }
    const std::string fence = fence_for(o.error);
    out += fmt::format("### ✗ squall: {} (not run)\n\n{}\n{}\n{}\n", markdown_text(o.scenario_file), fence, o.error,
                       fence);
  }
  return out;
}

}  // namespace squall

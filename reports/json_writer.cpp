#include "reports/json_writer.hpp"

#include "reports/atomic_file.hpp"
#include "reports/capacity_json.hpp"
#include "reports/client_json.hpp"
#include "reports/fingerprint.hpp"
#include "reports/json_members.hpp"
#include "reports/limiter_json.hpp"
#include "reports/rounding.hpp"

namespace squall {
namespace {

using nlohmann::ordered_json;

double ms(double x) { return round_ms(x); }
double ms(Nanos d) { return round_ms(d); }
double usd(double x) { return round_usd(x); }
double ratio(double x) { return round_ratio(x); }
ordered_json optional_ratio(const std::optional<double>& x) { return x ? ordered_json(ratio(*x)) : ordered_json(); }

ordered_json status_counts(const StatusCounts& counts) {
  ordered_json j = ordered_json::object();
  std::uint64_t total = 0;
  for (std::uint64_t n : counts) total += n;
  j["total"] = total;
  for (std::size_t k = 0; k < kTaskStatusCount; ++k) j[std::string(to_string(static_cast<TaskStatus>(k)))] = counts[k];
  return j;
}

ordered_json outcome_counts(const OutcomeCounts& counts, bool nonzero_only) {
  ordered_json j = ordered_json::object();
  for (OutcomeKind kind : all_outcome_kinds()) {
    const std::uint64_t n = counts[index_of(kind)];
    if (n > 0 || !nonzero_only) j[std::string(to_string(kind))] = n;
  }
  return j;
}

// {count, p50, p90, p99, max, mean}, each value rounded by `round`; null without samples.
ordered_json trend(const SpendStats& s, double (*round)(double)) {
  const auto value = [&](double x) { return s.count > 0 ? ordered_json(round(x)) : ordered_json(); };
  ordered_json j = ordered_json::object();
  j["count"] = s.count;
  j["p50"] = value(s.p50);
  j["p90"] = value(s.p90);
  j["p99"] = value(s.p99);
  j["max"] = value(s.max);
  j["mean"] = value(s.mean);
  return j;
}

ordered_json latency(const LatencyStats& s) {
  return trend(SpendStats{s.count, s.p50_ms, s.p90_ms, s.p99_ms, s.max_ms, s.mean_ms}, ms);
}

// Token counts are integers except the mean; the mean is rounded as ratios are.
double tokens_value(double x) { return round_ratio(x); }

ordered_json tasks(const TaskSummary& t) {
  ordered_json j = status_counts(t.by_status);
  ordered_json reasons = ordered_json::object();
  for (std::size_t k = index_of(TaskStatus::degraded); k < kTaskStatusCount; ++k) {
    const auto status = static_cast<TaskStatus>(k);
    ordered_json of_status = ordered_json::object();
    for (const ReasonCount& r : t.by_reason) {
      if (r.status == status) of_status[r.reason] = r.count;
    }
    reasons[std::string(to_string(status))] = std::move(of_status);
  }
  j["by_reason"] = std::move(reasons);
  ordered_json templates = ordered_json::object();
  for (const TemplateSummary& s : t.by_template) {
    ordered_json o = status_counts(s.tasks);
    o["tokens"] = s.tokens;
    o["cost_usd"] = usd(s.cost_usd);
    templates[s.name] = std::move(o);
  }
  j["by_template"] = std::move(templates);
  return j;
}

ordered_json providers(const Report& r) {
  ordered_json j = ordered_json::object();
  for (const ProviderSummary& p : r.providers) {
    ordered_json& o = append_member(j, p.name);
    o["calls"] = p.calls;
    o["by_outcome"] = outcome_counts(p.by_outcome, false);
    o["latency_ms"] = latency(p.latency);
    o["tokens"] = {{"input", p.input_tokens}, {"output", p.output_tokens}};
    o["cost_usd"] = usd(p.cost_usd);
    o["retries_refused"] = p.retries_refused;
    o["throttled"] = p.throttled;
    o["truncated"] = p.truncated;
  }
  return j;
}

ordered_json logical_calls(const Report& r) {
  ordered_json j = ordered_json::object();
  for (const ToolSummary& t : r.tools) {
    ordered_json& o = append_member(j, t.name);
    o["total"] = t.logical_calls;
    o["attempts"] = t.attempts;
    o["by_outcome"] = outcome_counts(t.by_final_outcome, false);
    o["backoffs"] = t.backoffs;
    o["backoff_wait_ms"] = ms(t.backoff_wait);
    o["give_ups"] = t.give_ups;
    o["query_changes"] = t.query_changes;
    o["budget_refusals"] = t.budget_refusals;
    o["reflections"] = t.reflections;
  }
  return j;
}

ordered_json retry_amplification(const Report& r) {
  ordered_json per_tool = ordered_json::object();
  for (const ToolSummary& t : r.tools) per_tool[t.name] = optional_ratio(t.amplification);
  ordered_json j = ordered_json::object();
  j["overall"] = optional_ratio(r.retry_amplification);
  j["per_tool"] = std::move(per_tool);
  return j;
}

ordered_json cost(const CostSummary& c) {
  ordered_json per_provider = ordered_json::object();
  for (const auto& [name, value] : c.per_provider_usd) per_provider[name] = usd(value);
  ordered_json j = ordered_json::object();
  j["total"] = usd(c.total_usd);
  j["burned_by_failed_attempts"] = usd(c.burned_by_failed_attempts_usd);
  j["per_task"] = c.per_task_usd ? ordered_json(usd(*c.per_task_usd)) : ordered_json();
  j["per_provider"] = std::move(per_provider);
  return j;
}

// Openings by cause, in BreakerCause order, every cause but none.
ordered_json breaker_openings(const Report& r) {
  ordered_json j = ordered_json::object();
  for (const BreakerCause cause : kBreakerCauses) {
    if (cause != BreakerCause::none)
      j[std::string(to_string(cause))] = r.breaker_openings[static_cast<std::size_t>(cause)];
  }
  return j;
}

ordered_json breaker_transitions(const Report& r) {
  ordered_json j = ordered_json::array();
  for (const BreakerTransitionRow& b : r.breaker_transitions) {
    ordered_json o = ordered_json::object();
    o["tool"] = b.tool;
    o["provider"] = b.provider;
    o["at_ms"] = ms(b.at);
    o["from"] = to_string(b.from);
    o["to"] = to_string(b.to);
    j.push_back(std::move(o));
  }
  return j;
}

ordered_json fallbacks(const Report& r) {
  ordered_json j = ordered_json::array();
  for (const FallbackRow& f : r.fallbacks) {
    ordered_json o = ordered_json::object();
    o["tool"] = f.tool;
    o["action"] = to_string(f.action);
    o["from"] = f.from;
    o["to"] = f.to;
    o["count"] = f.count;
    j.push_back(std::move(o));
  }
  return j;
}

// Every action in declaration order, then calls_saved and the stale answers' ages.
ordered_json caches(const Report& r) {
  ordered_json j = ordered_json::object();
  for (const CacheSummary& c : r.caches) {
    ordered_json& o = j[c.tool];
    for (CacheAction action : kCacheActions)
      o[std::string(to_string(action))] = c.by_action[static_cast<std::size_t>(action)];
    o["calls_saved"] = c.calls_saved;
    o["stale_age_ms"] = latency(c.stale_age);
  }
  return j;
}

// Every action in declaration order, then the hedged fraction (launched / primary; null
// without primaries), what cancelled losers billed, and the hedges launched by provider.
ordered_json hedges(const Report& r) {
  ordered_json j = ordered_json::object();
  for (const HedgeSummary& h : r.hedges) {
    ordered_json& o = append_member(j, h.tool);
    for (HedgeAction action : kHedgeActions)
      o[std::string(to_string(action))] = h.by_action[static_cast<std::size_t>(action)];
    const std::uint64_t primaries = h.by_action[static_cast<std::size_t>(HedgeAction::primary)];
    const std::uint64_t launched = h.by_action[static_cast<std::size_t>(HedgeAction::launched)];
    o["hedged_fraction"] =
        primaries == 0 ? ordered_json() : ordered_json(static_cast<double>(launched) / static_cast<double>(primaries));
    o["loser_cost_usd"] = usd(h.loser_cost_usd);
    o["loser_tokens"] = h.loser_tokens;
    ordered_json to = ordered_json::object();
    for (const auto& [provider, n] : h.launched_to) to[provider] = n;
    o["launched_to"] = std::move(to);
  }
  return j;
}

ordered_json ladder(const Report& r) {
  ordered_json j = ordered_json::array();
  for (const LadderRow& l : r.ladder) {
    ordered_json o = ordered_json::object();
    o["tool"] = l.tool;
    o["strategy"] = l.strategy;
    o["rung"] = l.rung;
    o["count"] = l.count;
    j.push_back(std::move(o));
  }
  return j;
}

// Every level, in order of severity; reasons only where non-zero, in condition order.
ordered_json escalations(const Report& r) {
  ordered_json j = ordered_json::object();
  for (EscalationLevel level : all_escalation_levels()) {
    j[std::string(to_string(level))] = r.escalations.by_level[index_of(level)];
  }
  return j;
}

ordered_json escalation_reasons(const Report& r) {
  ordered_json j = ordered_json::object();
  for (EscalationLevel level : all_escalation_levels()) {
    ordered_json reasons = ordered_json::object();
    for (EscalationCondition reason : all_escalation_conditions()) {
      const std::uint64_t n = r.escalations.by_level_and_reason[index_of(level)][index_of(reason)];
      if (n != 0) reasons[std::string(to_string(reason))] = n;
    }
    if (!reasons.empty()) j[std::string(to_string(level))] = std::move(reasons);
  }
  return j;
}

ordered_json answer_counts(const AnswerCounts& counts) {
  ordered_json j = ordered_json::object();
  for (std::size_t v = 0; v < kAnswerVerdictCount; ++v)
    j[std::string(to_string(static_cast<AnswerVerdict>(v)))] = counts[v];
  return j;
}

ordered_json answers(const Report& r) {
  ordered_json j = answer_counts(r.answers.by_verdict);
  ordered_json by_path = ordered_json::object();
  for (const AnswerRow& row : r.answers.by_path) by_path[row.path] = answer_counts(row.by_verdict);
  j["by_path"] = std::move(by_path);
  return j;
}

ordered_json injected_faults(const std::vector<InjectedFaultRow>& rows) {
  ordered_json j = ordered_json::object();
  for (const InjectedFaultRow& f : rows) append_member(last_or_append_member(j, f.provider), f.kind, f.count);
  return j;
}

ordered_json thresholds(const Report& r) {
  ordered_json j = ordered_json::array();
  for (const ThresholdResult& t : r.thresholds) {
    ordered_json o = ordered_json::object();
    o["metric"] = t.metric;
    o["expression"] = t.expression;
    o["observed"] = optional_ratio(t.observed);
    o["passed"] = t.not_evaluated.empty() ? ordered_json(t.passed) : ordered_json();  // null: not evaluated
    if (!t.not_evaluated.empty()) o["not_evaluated"] = t.not_evaluated;
    j.push_back(std::move(o));
  }
  return j;
}

ordered_json time_series(const Report& r) {
  ordered_json windows = ordered_json::array();
  for (const TimeWindow& w : r.time_series.windows) {
    ordered_json o = ordered_json::object();
    o["start_ms"] = ms(w.start);
    ordered_json tasks_in = ordered_json::object();
    for (std::size_t k = 0; k < kTaskStatusCount; ++k) {
      tasks_in[std::string(to_string(static_cast<TaskStatus>(k)))] = w.tasks[k];
    }
    o["tasks"] = std::move(tasks_in);
    ordered_json calls = ordered_json::object();
    for (std::size_t p = 0; p < w.provider_calls.size(); ++p) {
      ordered_json kinds = outcome_counts(w.provider_calls[p], true);
      if (!kinds.empty()) append_member(calls, r.providers[p].name, std::move(kinds));
    }
    o["provider_calls"] = std::move(calls);
    ordered_json faults = ordered_json::object();
    for (std::size_t f = 0; f < w.injected_faults.size(); ++f) {
      const InjectedFaultRow& row = r.injected_faults[f];
      if (w.injected_faults[f] != 0)
        append_member(last_or_append_member(faults, row.provider), row.kind, w.injected_faults[f]);
    }
    o["injected_faults"] = std::move(faults);
    windows.push_back(std::move(o));
  }
  ordered_json j = ordered_json::object();
  j["window_ms"] = ms(r.time_series.window);
  j["windows"] = std::move(windows);
  return j;
}

}  // namespace

ordered_json to_json(const Report& r) {
  ordered_json j = ordered_json::object();
  j["squall_report_version"] = kReportVersion;
  j["produced_by"] = {
      {"squall_version", r.produced_by.squall_version},
      {"scenario_file", r.produced_by.scenario_file},
      {"policy_file", r.produced_by.policy_file ? ordered_json(*r.produced_by.policy_file) : ordered_json()},
      {"repro", r.produced_by.repro}};
  if (r.produced_by.policy_file) j["produced_by"]["policy_notes"] = r.produced_by.policy_notes;
  j["scenario"] = r.scenario;
  j["seed"] = r.seed;
  j["duration_ms"] = ms(r.duration);
  j["fingerprint"] = fingerprint_hex(r.fingerprint);
  j["tasks"] = tasks(r.tasks);
  j["latency_ms"] = latency(r.latency);
  j["providers"] = providers(r);
  j["logical_calls"] = logical_calls(r);
  j["retry_amplification"] = retry_amplification(r);
  j["tokens"] = {{"input", r.tokens.input},
                 {"output", r.tokens.output},
                 {"burned_by_failed_attempts", r.tokens.burned_by_failed_attempts}};
  j["cost_usd"] = cost(r.cost);
  j["task_spend"] = {{"tokens", trend(r.task_spend.tokens, tokens_value)},
                     {"cost_usd", trend(r.task_spend.cost_usd, usd)}};
  j["breaker_transitions"] = breaker_transitions(r);
  j["breaker_transitions_total"] = r.breaker_transitions_total;
  j["breaker_openings"] = breaker_openings(r);
  j["fallbacks"] = fallbacks(r);
  j["caches"] = caches(r);
  j["hedges"] = hedges(r);
  j["ladder"] = ladder(r);
  j["escalations"] = escalations(r);
  j["escalation_reasons"] = escalation_reasons(r);
  j["answers"] = answers(r);
  j["injected_faults"] = injected_faults(r.injected_faults);
  j["injected_faults_cut_short"] = injected_faults(r.injected_faults_cut_short);
  j["injected_fault_phases"] = injected_faults(r.injected_fault_phases);
  j["thresholds"] = thresholds(r);
  j["thresholds_passed"] = r.all_thresholds_passed();
  j["time_series"] = time_series(r);
  // Only with a capacity block, so that reports of scenarios without one are unchanged.
  if (!r.capacity.empty()) j["capacity"] = capacity_json(r.capacity, r.time_series.window);
  // Only with an adaptive_concurrency limiter, likewise.
  if (!r.limiters.empty()) j["limiters"] = limiters_json(r.limiters);
  if (r.clients) j["clients"] = client_json(*r.clients);  // a live run's only
  return j;
}

std::string to_json_text(const Report& r) {
  // Invalid UTF-8 in a name (from a scenario file) is replaced rather than thrown on, so
  // that a report is always written.
  return to_json(r).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

void write_json_atomic(const Report& r, const std::filesystem::path& path) { write_file_atomic(path, to_json_text(r)); }

}  // namespace squall

#include "reports/report.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "engine/call.hpp"
#include "reports/client_metrics.hpp"
#include "reports/latency_histogram.hpp"
#include "reports/metric_values.hpp"
#include "reports/trend.hpp"

namespace squall {
namespace {

// p50, p90, p99, max and mean of the samples, each divided by `per_unit` (samples per
// unit of the result: kMillisecond for latencies in ms, 1 for counts).
SpendStats trend_stats(std::vector<Trend::Part> samples, double per_unit) {
  const Trend trend(std::move(samples));
  static constexpr double kPercentiles[] = {50, 90, 99};
  const std::vector<std::int64_t> p = trend.percentiles(kPercentiles);
  const auto scaled = [per_unit](std::int64_t x) { return static_cast<double>(x) / per_unit; };
  return SpendStats{trend.size(), scaled(p[0]),        scaled(p[1]),
                    scaled(p[2]), scaled(trend.max()), trend.mean() / per_unit};
}

LatencyStats latency_stats(std::vector<Trend::Part> samples) {
  const SpendStats s = trend_stats(std::move(samples), static_cast<double>(kMillisecond));
  return LatencyStats{s.count, s.p50, s.p90, s.p99, s.max, s.mean};
}

// Percentiles from the window's kept samples (all of them, or its bounded sample);
// count, max and mean exact either way.
LatencyStats window_latency(const WindowSample& sample) {
  if (sample.count() == 0) return LatencyStats{};
  std::vector<std::int64_t> kept = sample.kept();
  static constexpr double kPercentiles[] = {50, 90, 99};
  const std::vector<std::int64_t> p = percentiles_in_place(kept, kPercentiles);
  const double ms = static_cast<double>(kMillisecond);
  const auto scaled = [ms](std::int64_t x) { return static_cast<double>(x) / ms; };
  return LatencyStats{
      sample.count(),       scaled(p[0]),
      scaled(p[1]),         scaled(p[2]),
      scaled(sample.max()), static_cast<double>(sample.sum()) / static_cast<double>(sample.count()) / ms};
}

// The stats of the per-task samples `log` of every template, scaled by per_unit. Logs of
// zeros only (every task of a model without an LLM) are all zero without a pass over them:
// the same figures, as a mean of zeros is exactly 0.
SpendStats per_task_spend(const Recorder& r, SampleLog TemplateStats::*log, double per_unit) {
  std::uint64_t count = 0;
  bool zeros = true;
  std::vector<Trend::Part> parts;
  for (const TemplateStats& s : r.templates()) {
    count += (s.*log).size();
    zeros = zeros && (s.*log).all_zeros();
    (s.*log).append_parts(parts);
  }
  if (zeros) return SpendStats{count, 0, 0, 0, 0, 0};
  return trend_stats(std::move(parts), per_unit);
}

TaskSpend task_spend(const Recorder& r) {
  return TaskSpend{per_task_spend(r, &TemplateStats::task_tokens, 1),
                   per_task_spend(r, &TemplateStats::task_cost_nano_usd, kNanoUsdPerUsd)};
}

// Indices of `table` ordered by name: the tables are in first-sight order.
template <class Stats>
std::vector<std::size_t> by_name(const std::vector<Stats>& table) {
  std::vector<std::size_t> order(table.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return table[a].name < table[b].name; });
  return order;
}

std::optional<double> ratio(std::uint64_t num, std::uint64_t den) {
  if (den == 0) return std::nullopt;
  return static_cast<double>(num) / static_cast<double>(den);
}

TaskSummary task_summary(const Recorder& r) {
  TaskSummary t;
  for (std::size_t i : by_name(r.templates())) {
    const TemplateStats& s = r.templates()[i];
    t.by_template.push_back({s.name, s.tasks, s.tokens, s.cost_usd});
    for (std::size_t k = 0; k < kTaskStatusCount; ++k) t.by_status[k] += s.tasks[k];
  }
  for (std::uint64_t n : t.by_status) t.total += n;
  for (const ReasonStats& s : r.reasons()) {
    for (std::size_t k = 0; k < kTaskStatusCount; ++k) {
      if (s.tasks[k] > 0) t.by_reason.push_back({static_cast<TaskStatus>(k), s.name, s.tasks[k]});
    }
  }
  std::sort(t.by_reason.begin(), t.by_reason.end(), [](const ReasonCount& a, const ReasonCount& b) {
    return std::tie(a.status, a.reason) < std::tie(b.status, b.reason);
  });
  return t;
}

std::vector<Trend::Part> all_task_latency(const Recorder& r) {
  std::vector<Trend::Part> parts;
  for (const TemplateStats& s : r.templates()) s.latency.append_parts(parts);
  return parts;
}

// The end-to-end latency of every task: its percentiles and its histogram.
void set_task_latency(Report& rep, const Recorder& r) {
  const std::vector<Trend::Part> parts = all_task_latency(r);
  rep.latency_histogram = latency_histogram(parts);
  rep.latency = latency_stats(parts);
}

// The windows of each injected-fault row (Report::injected_faults' order), empty where
// the recorder has none.
std::vector<const std::vector<std::uint64_t>*> fault_series(const Recorder& r,
                                                            const std::vector<InjectedFaultRow>& rows) {
  static const std::vector<std::uint64_t> kNone;
  std::vector<const std::vector<std::uint64_t>*> series;
  for (const InjectedFaultRow& row : rows) {
    const std::vector<std::uint64_t>* found = &kNone;
    if (const auto p = r.injected_faults_by_window().find(row.provider); p != r.injected_faults_by_window().end()) {
      if (const auto k = p->second.find(row.kind); k != p->second.end()) found = &k->second;
    }
    series.push_back(found);
  }
  return series;
}

TimeSeries time_series(const Recorder& r, const std::vector<std::size_t>& provider_order, Nanos duration,
                       const std::vector<InjectedFaultRow>& fault_rows) {
  TimeSeries ts;
  ts.window = r.window();
  // Cover the run even where nothing happened, and every window something happened in.
  std::size_t n = static_cast<std::size_t>((std::max<Nanos>(duration, 0) + r.window() - 1) / r.window());
  n = std::max(n, r.tasks_by_window().size());
  for (const ProviderStats& p : r.providers()) n = std::max(n, p.calls_by_window.size());
  const auto faults = fault_series(r, fault_rows);
  for (const auto* f : faults) n = std::max(n, f->size());
  n = std::min(n, kMaxWindows);
  ts.windows.resize(n);
  std::uint64_t in_flight = 0;  // started minus finished, up to the window's end
  for (std::size_t w = 0; w < n; ++w) {
    TimeWindow& win = ts.windows[w];
    win.start = static_cast<TimePoint>(w) * r.window();
    if (w < r.tasks_by_window().size()) win.tasks = r.tasks_by_window()[w];
    if (w < r.tasks_started_by_window().size()) in_flight += r.tasks_started_by_window()[w];
    win.tasks_in_flight = in_flight -= std::accumulate(win.tasks.begin(), win.tasks.end(), std::uint64_t{0});
    if (w < r.task_latency_by_window().size()) win.task_latency = window_latency(r.task_latency_by_window()[w]);
    win.provider_calls.resize(provider_order.size());
    win.provider_spend.resize(provider_order.size());
    for (std::size_t j = 0; j < provider_order.size(); ++j) {
      const ProviderStats& p = r.providers()[provider_order[j]];
      if (w < p.calls_by_window.size()) win.provider_calls[j] = p.calls_by_window[w];
      if (w < p.spend_by_window.size()) win.provider_spend[j] = p.spend_by_window[w];
    }
    win.injected_faults.resize(faults.size());
    for (std::size_t f = 0; f < faults.size(); ++f) {
      if (w < faults[f]->size()) win.injected_faults[f] = (*faults[f])[w];
    }
  }
  return ts;
}

}  // namespace

std::uint64_t AnswerSummary::total() const {
  std::uint64_t n = 0;
  for (std::uint64_t c : by_verdict) n += c;
  return n;
}

bool Report::all_thresholds_passed() const {
  return std::all_of(thresholds.begin(), thresholds.end(), [](const ThresholdResult& t) { return t.passed; });
}

namespace {

// A threshold against what was observed: no samples fail it.
ThresholdResult judged(const Threshold& t, std::optional<double> observed) {
  ThresholdResult result{t.metric, t.expression, observed, false, std::nullopt, {}};
  if (observed) {
    result.passed = holds(t.parsed, *observed);
    result.margin = margin(t.parsed, *observed);
  }
  return result;
}

// A threshold of the run: a client_* metric is measured from a live run's `clients`; a
// simulated run has none, and the threshold is not evaluated (it neither holds nor fails).
ThresholdResult evaluated(const Threshold& t, const Recorder& r, Nanos duration, const ClientReport* clients) {
  const MetricInfo* info = find_metric(t.metric_name);
  if (info == nullptr || !live_only(info->id)) return judged(t, observe(r, t, duration));
  if (clients != nullptr) return judged(t, observe_clients(*clients, t, duration));
  ThresholdResult result{t.metric, t.expression, std::nullopt, true, std::nullopt, {}};
  result.not_evaluated = "not measured (squall serve only)";
  return result;
}

// The sections of the strategies with decisions of their own: caches, hedges, limiters.
void set_strategy_sections(Report& rep, const Recorder& r) {
  for (std::size_t i : by_name(r.caches())) {
    const CacheStats& c = r.caches()[i];
    std::vector<Trend::Part> ages;
    c.stale_age.append_parts(ages);
    rep.caches.push_back({c.name, c.actions, c.calls_saved, latency_stats(std::move(ages))});
  }

  for (std::size_t i : by_name(r.hedges())) {
    const HedgeStats& h = r.hedges()[i];
    rep.hedges.push_back(
        {h.name, h.actions, h.loser_cost_usd, h.loser_tokens, {h.launched_to.begin(), h.launched_to.end()}});
  }
  for (std::size_t i : by_name(r.limiters())) {
    const LimiterStats& l = r.limiters()[i];
    rep.limiters.push_back({l.name, l.initial, l.current, l.lowest, l.highest, l.actions,
                            l.series(rep.time_series.windows.size()), l.recoveries(rep.duration)});
  }
}

// Per provider, sorted by name, and the run's token and cost totals; returns the order.
std::vector<std::size_t> set_providers(Report& rep, const Recorder& r) {
  std::vector<std::size_t> provider_order = by_name(r.providers());
  for (std::size_t i : provider_order) {
    const ProviderStats& s = r.providers()[i];
    ProviderSummary p;
    p.name = s.name;
    p.by_outcome = s.calls;
    p.calls = std::accumulate(s.calls.begin(), s.calls.end(), std::uint64_t{0});
    std::vector<Trend::Part> parts;
    for (const SampleLog& by_kind : s.latency) by_kind.append_parts(parts);
    p.latency = latency_stats(std::move(parts));
    p.input_tokens = s.input_tokens;
    p.output_tokens = s.output_tokens;
    p.cost_usd = s.cost_usd;
    p.retries_refused = s.retries_refused;
    p.truncated = s.truncated;
    p.throttled = s.throttled;
    rep.providers.push_back(std::move(p));
    rep.tokens.input += s.input_tokens;
    rep.tokens.output += s.output_tokens;
    rep.tokens.burned_by_failed_attempts += s.failed_input_tokens + s.failed_output_tokens;
    rep.cost.total_usd += s.cost_usd;
    rep.cost.burned_by_failed_attempts_usd += s.failed_cost_usd;
    rep.cost.per_provider_usd.emplace_back(s.name, s.cost_usd);
  }
  if (rep.tasks.total > 0) rep.cost.per_task_usd = rep.cost.total_usd / static_cast<double>(rep.tasks.total);
  return provider_order;
}

// Per tool with logical calls, sorted by name, and the overall retry amplification.
void set_tools(Report& rep, const Recorder& r) {
  std::uint64_t all_calls = 0;
  std::uint64_t all_attempts = 0;
  for (std::size_t i : by_name(r.tools())) {
    const ToolStats& s = r.tools()[i];
    // A name with no logical call is a provider whose own stack emitted events (a breaker's
    // transitions), or a tool no task reached: nothing to summarise per call.
    if (s.logical_calls == 0) continue;
    ToolSummary t;
    t.name = s.name;
    t.logical_calls = s.logical_calls;
    t.attempts = s.attempts;
    t.amplification = ratio(s.attempts, s.logical_calls);
    t.by_final_outcome = s.final_outcomes;
    t.backoffs = s.backoffs;
    t.backoff_wait = s.backoff_wait;
    t.give_ups = s.give_ups;
    t.query_changes = s.query_changes;
    t.budget_refusals = s.budget_refusals;
    t.reflections = s.reflections;
    rep.tools.push_back(std::move(t));
    all_calls += s.logical_calls;
    all_attempts += s.attempts;
  }
  rep.retry_amplification = ratio(all_attempts, all_calls);
}

// Breaker transitions and openings, and fallback rows.
void set_breakers_and_fallbacks(Report& rep, const Recorder& r) {
  const auto provider_name = [&r](std::size_t i) { return i == kNoIndex ? std::string() : r.providers()[i].name; };
  for (const RecordedBreakerTransition& b : r.breaker_transitions()) {
    rep.breaker_transitions.push_back({r.tools()[b.tool].name, provider_name(b.provider), b.at, b.from, b.to});
  }
  rep.breaker_transitions_total = r.breaker_transitions_total();
  for (const ToolStats& s : r.tools()) {
    for (std::size_t c = 0; c < kBreakerCauseCount; ++c) rep.breaker_openings[c] += s.breaker_openings[c];
  }
  for (const FallbackStats& f : r.fallbacks()) {
    rep.fallbacks.push_back({r.tools()[f.tool].name, f.action, provider_name(f.from), provider_name(f.to), f.count});
  }
  std::sort(rep.fallbacks.begin(), rep.fallbacks.end(), [](const FallbackRow& a, const FallbackRow& b) {
    return std::tie(a.tool, a.action, a.from, a.to) < std::tie(b.tool, b.action, b.from, b.to);
  });
}

// Ladder rungs, escalation tickets, and answers by degradation path.
void set_ladder_escalations_answers(Report& rep, const Recorder& r) {
  std::vector<const LadderStats*> rungs;
  for (const LadderStats& l : r.ladder()) rungs.push_back(&l);
  std::sort(rungs.begin(), rungs.end(), [&r](const LadderStats* a, const LadderStats* b) {
    return std::tie(r.tools()[a->tool].name, a->strategy, a->rung, a->label) <
           std::tie(r.tools()[b->tool].name, b->strategy, b->rung, b->label);
  });
  for (const LadderStats* l : rungs) {
    rep.ladder.push_back({r.tools()[l->tool].name, std::string(l->strategy), l->label, l->count});
  }

  rep.escalations.by_level_and_reason = r.escalations();
  for (std::size_t level = 0; level < kEscalationLevelCount; ++level) {
    for (std::uint64_t n : r.escalations()[level]) rep.escalations.by_level[level] += n;
    rep.escalations.total += rep.escalations.by_level[level];
  }

  for (const auto& [mask, counts] : r.answers_by_path()) {
    const std::string path = degradation_path(mask);
    rep.answers.by_path.push_back({path.empty() ? std::string(kCleanPath) : path, counts});
    for (std::size_t v = 0; v < kAnswerVerdictCount; ++v) rep.answers.by_verdict[v] += counts[v];
  }
  std::sort(rep.answers.by_path.begin(), rep.answers.by_path.end(),
            [](const AnswerRow& a, const AnswerRow& b) { return a.path < b.path; });
}

// Injected faults, by kind, by phase, and those the engine saw cut short.
void set_injected_faults(Report& rep, const Recorder& r) {
  for (const auto& [provider, kinds] : r.injected_faults()) {
    for (const auto& [kind, count] : kinds) rep.injected_faults.push_back({provider, kind, count});
  }
  for (const auto& [provider, phases] : r.injected_fault_phases()) {
    for (const auto& [phase, count] : phases) rep.injected_fault_phases.push_back({provider, phase, count});
  }
  for (const auto& [provider, kinds] : r.injected_faults_cut_short()) {
    for (const auto& [kind, count] : kinds) {
      if (count != 0) rep.injected_faults_cut_short.push_back({provider, kind, count});
    }
  }
}

}  // namespace

Report build_report(const Recorder& r, const RunInfo& run, std::span<const Threshold> thresholds,
                    const ClientReport* clients) {
  Report rep;
  rep.scenario = run.scenario;
  rep.seed = run.seed;
  rep.duration = run.duration;
  rep.fingerprint = r.fingerprint();
  rep.tasks = task_summary(r);
  set_task_latency(rep, r);
  rep.task_spend = task_spend(r);

  const std::vector<std::size_t> provider_order = set_providers(rep, r);
  set_tools(rep, r);
  set_breakers_and_fallbacks(rep, r);
  set_ladder_escalations_answers(rep, r);
  set_injected_faults(rep, r);

  for (const Threshold& t : thresholds) rep.thresholds.push_back(evaluated(t, r, run.duration, clients));

  rep.time_series = time_series(r, provider_order, run.duration, rep.injected_faults);
  set_strategy_sections(rep, r);  // after the time series: the limits line up with its windows
  rep.capacity = r.capacity();
  // The capacity series line up with the report's windows: padded with empty windows where
  // nothing happened, and cut where the run had ended.
  for (CapacityReport& c : rep.capacity) c.windows.resize(rep.time_series.windows.size());
  return rep;
}

}  // namespace squall

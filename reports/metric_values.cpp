#include "reports/metric_values.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "reports/metric_aggregations.hpp"
#include "reports/strategy_metric_values.hpp"
#include "reports/trend.hpp"

namespace squall {
namespace {

std::optional<double> rate_value(std::uint64_t hits, std::uint64_t total) {
  if (total == 0) return std::nullopt;
  return static_cast<double>(hits) / static_cast<double>(total);
}

std::uint64_t finished_tasks(const Recorder& r) {
  std::uint64_t n = 0;
  for (const TemplateStats& s : r.templates()) {
    for (std::uint64_t c : s.tasks) n += c;
  }
  return n;
}

// Tasks of the selected templates whose status is one of `statuses`, over all of them.
std::optional<double> task_rate(const Recorder& r, const Threshold& t, std::initializer_list<TaskStatus> statuses) {
  std::uint64_t hits = 0;
  std::uint64_t total = 0;
  for (const TemplateStats& s : r.templates()) {
    if (!admits(t, "template", s.name)) continue;
    for (std::uint64_t c : s.tasks) total += c;
    for (TaskStatus status : statuses) hits += s.tasks[index_of(status)];
  }
  return rate_value(hits, total);
}

// Tasks of the selected templates with ground truth whose verdict is `verdict`, over all
// tasks of those templates with ground truth.
std::optional<double> answer_rate(const Recorder& r, const Threshold& t, AnswerVerdict verdict) {
  std::uint64_t hits = 0;
  std::uint64_t total = 0;
  for (const TemplateStats& s : r.templates()) {
    if (!admits(t, "template", s.name)) continue;
    for (std::uint64_t c : s.answers) total += c;
    hits += s.answers[index_of(verdict)];
  }
  return rate_value(hits, total);
}

// One sample per finished task of the selected templates, from `log` of each.
std::vector<Trend::Part> per_task(const Recorder& r, const Threshold& t, SampleLog TemplateStats::*log) {
  std::vector<Trend::Part> parts;
  for (const TemplateStats& s : r.templates()) {
    if (admits(t, "template", s.name)) (s.*log).append_parts(parts);
  }
  return parts;
}

std::vector<Trend::Part> call_latency(const Recorder& r, const Threshold& t) {
  std::vector<Trend::Part> parts;
  for (const ProviderStats& s : r.providers()) {
    if (!admits(t, "provider", s.name)) continue;
    for (OutcomeKind kind : all_outcome_kinds()) {
      if (admits(t, "outcome", to_string(kind))) s.latency[index_of(kind)].append_parts(parts);
    }
  }
  return parts;
}

double provider_calls(const Recorder& r, const Threshold& t) {
  std::uint64_t n = 0;
  for (const ProviderStats& s : r.providers()) {
    if (!admits(t, "provider", s.name)) continue;
    for (OutcomeKind kind : all_outcome_kinds()) {
      if (admits(t, "outcome", to_string(kind))) n += s.calls[index_of(kind)];
    }
  }
  return static_cast<double>(n);
}

// Logical calls by their number of attempts (index: attempts), over the admitted tools.
std::vector<std::uint64_t> calls_by_attempts(const Recorder& r, const Threshold& t) {
  std::vector<std::uint64_t> counts;
  for (const ToolStats& s : r.tools()) {
    if (!admits(t, "tool", s.name)) continue;
    if (counts.size() < s.calls_by_attempts.size()) counts.resize(s.calls_by_attempts.size());
    for (std::size_t attempts = 0; attempts < s.calls_by_attempts.size(); ++attempts) {
      counts[attempts] += s.calls_by_attempts[attempts];
    }
  }
  return counts;
}

// Billed tokens, or with `burned` only those of the attempts that did not succeed (empty
// answers included: they cost tokens and gave nothing usable).
double tokens(const Recorder& r, const Threshold& t, bool burned) {
  std::int64_t n = 0;
  for (const ProviderStats& s : r.providers()) {
    if (!admits(t, "provider", s.name)) continue;
    if (admits(t, "kind", "input")) n += burned ? s.failed_input_tokens : s.input_tokens;
    if (admits(t, "kind", "output")) n += burned ? s.failed_output_tokens : s.output_tokens;
  }
  return static_cast<double>(n);
}

double cost_usd(const Recorder& r, const Threshold& t, bool burned) {
  double usd = 0;
  for (const ProviderStats& s : r.providers()) {
    if (admits(t, "provider", s.name)) usd += burned ? s.failed_cost_usd : s.cost_usd;
  }
  return usd;
}

// The sum of a counter over the providers the threshold's `provider` tag admits.
double sum_by_provider(const Recorder& r, const Threshold& t, std::uint64_t ProviderStats::*field) {
  std::uint64_t n = 0;
  for (const ProviderStats& s : r.providers()) {
    if (admits(t, "provider", s.name)) n += s.*field;
  }
  return static_cast<double>(n);
}

double breaker_transitions(const Recorder& r, const Threshold& t) {
  std::uint64_t n = 0;
  for (const ToolStats& s : r.tools()) {
    if (!admits(t, "tool", s.name)) continue;
    for (BreakerState to : kBreakerStates) {
      if (admits(t, "to", to_string(to))) n += s.breaker_transitions_to[static_cast<std::size_t>(to)];
    }
  }
  return static_cast<double>(n);
}

double breaker_openings(const Recorder& r, const Threshold& t) {
  std::uint64_t n = 0;
  for (const ToolStats& s : r.tools()) {
    if (!admits(t, "tool", s.name)) continue;
    for (const BreakerCause cause : kBreakerCauses) {
      if (admits(t, "cause", to_string(cause))) n += s.breaker_openings[static_cast<std::size_t>(cause)];
    }
  }
  return static_cast<double>(n);
}

double injected_faults(const Recorder& r, const Threshold& t) {
  std::uint64_t n = 0;
  for (const auto& [provider, kinds] : r.injected_faults()) {
    if (!admits(t, "provider", provider)) continue;
    for (const auto& [kind, count] : kinds) {
      if (admits(t, "kind", kind)) n += count;
    }
  }
  return static_cast<double>(n);
}

double fallbacks(const Recorder& r, const Threshold& t) {
  std::uint64_t n = 0;
  const auto name = [&r](std::size_t i) {
    return i == kNoIndex ? std::string_view() : std::string_view(r.providers()[i].name);
  };
  for (const FallbackStats& f : r.fallbacks()) {
    if (admits(t, "tool", r.tools()[f.tool].name) && admits(t, "from", name(f.from)) && admits(t, "to", name(f.to)) &&
        admits(t, "action", to_string(f.action))) {
      n += f.count;
    }
  }
  return static_cast<double>(n);
}

double reflections(const Recorder& r, const Threshold& t) {
  return sum_by_tool(r.tools(), t, [](const ToolStats& s) { return s.reflections; });
}

double ladder_rungs(const Recorder& r, const Threshold& t) {
  std::uint64_t n = 0;
  for (const LadderStats& l : r.ladder()) {
    if (admits(t, "tool", r.tools()[l.tool].name) && admits(t, "strategy", l.strategy) && admits(t, "rung", l.label)) {
      n += l.count;
    }
  }
  return static_cast<double>(n);
}

double escalations(const Recorder& r, const Threshold& t) {
  std::uint64_t n = 0;
  for (EscalationLevel level : all_escalation_levels()) {
    if (!admits(t, "level", to_string(level))) continue;
    for (EscalationCondition reason : all_escalation_conditions()) {
      if (admits(t, "reason", to_string(reason))) n += r.escalations()[index_of(level)][index_of(reason)];
    }
  }
  return static_cast<double>(n);
}

// The sum of `field(report)` over the capacity reports whose provider the threshold's
// `provider` tag admits.
template <class Field>
double sum_capacity(const Recorder& r, const Threshold& t, Field field) {
  std::uint64_t n = 0;
  for (const CapacityReport& c : r.capacity()) {
    if (admits(t, "provider", c.provider)) n += field(c);
  }
  return static_cast<double>(n);
}

double logical_calls(const Recorder& r, const Threshold& t) {
  std::uint64_t n = 0;
  for (const ToolStats& s : r.tools()) {
    if (!admits(t, "tool", s.name)) continue;
    for (const OutcomeKind kind : all_outcome_kinds()) {
      if (admits(t, "outcome", to_string(kind))) n += s.final_outcomes[index_of(kind)];
    }
  }
  return static_cast<double>(n);
}

// Per window of every admitted capacity layer, its longest queue.
std::vector<std::int64_t> capacity_queue_maxima(const Recorder& r, const Threshold& t) {
  std::vector<std::int64_t> maxima;
  for (const CapacityReport& c : r.capacity()) {
    if (!admits(t, "provider", c.provider)) continue;
    for (const CapacityWindowRow& w : c.windows) maxima.push_back(w.queue_max);
  }
  return maxima;
}

// The recovery time of every admitted capacity layer that has one.
std::vector<std::int64_t> capacity_recovery_times(const Recorder& r, const Threshold& t) {
  std::vector<std::int64_t> times;
  for (const CapacityReport& c : r.capacity()) {
    if (c.recovery && admits(t, "provider", c.provider)) times.push_back(c.recovery->time);
  }
  return times;
}

// The capacity layers' counters a threshold names, summed over the admitted providers.
double capacity_count(const Recorder& r, const Threshold& t, MetricId id) {
  return sum_capacity(r, t, [id](const CapacityReport& c) -> std::uint64_t {
    switch (id) {
      case MetricId::capacity_offered: return c.arrivals;
      case MetricId::capacity_goodput: return c.goodput;
      case MetricId::capacity_rate_limited: return c.rate_limited_requests + c.rate_limited_tokens;
      case MetricId::capacity_rejected: return c.queue_full + c.queue_timeouts;
      default: return c.wasted_requests;
    }
  });
}

}  // namespace

std::optional<double> observe(const Recorder& r, const Threshold& t, Nanos duration) {
  const MetricInfo* info = find_metric(t.metric_name);
  // parse_threshold admits only catalogue metrics; the client_* ones are reports/client_metrics.hpp's.
  if (info == nullptr || live_only(info->id)) return std::nullopt;
  const ThresholdExpression& e = t.parsed;
  const std::uint64_t tasks = finished_tasks(r);
  if (is_strategy_metric(info->id)) return observe_strategy(r, t, info->id, duration, tasks);
  switch (info->id) {
    case MetricId::task_success: return task_rate(r, t, {TaskStatus::succeeded, TaskStatus::degraded});
    case MetricId::task_degraded: return task_rate(r, t, {TaskStatus::degraded});
    case MetricId::task_safe_fail: return task_rate(r, t, {TaskStatus::safe_failed});
    case MetricId::task_failed: return task_rate(r, t, {TaskStatus::failed});
    case MetricId::answered: return answer_rate(r, t, AnswerVerdict::answered);
    case MetricId::answered_wrongly: return answer_rate(r, t, AnswerVerdict::answered_wrongly);
    case MetricId::task_latency: return trend_value(per_task(r, t, &TemplateStats::latency), e, kMillisecond);
    case MetricId::call_latency: return trend_value(call_latency(r, t), e, kMillisecond);
    case MetricId::provider_calls: return counter_value(provider_calls(r, t), e, duration, tasks);
    case MetricId::retry_amplification: return counted_value(calls_by_attempts(r, t), e);
    case MetricId::tokens: return counter_value(tokens(r, t, false), e, duration, tasks);
    case MetricId::cost_usd: return counter_value(cost_usd(r, t, false), e, duration, tasks);
    case MetricId::breaker_transitions: return counter_value(breaker_transitions(r, t), e, duration, tasks);
    case MetricId::injected_faults: return counter_value(injected_faults(r, t), e, duration, tasks);
    case MetricId::fallbacks: return counter_value(fallbacks(r, t), e, duration, tasks);
    case MetricId::reflections: return counter_value(reflections(r, t), e, duration, tasks);
    case MetricId::ladder_rungs: return counter_value(ladder_rungs(r, t), e, duration, tasks);
    case MetricId::escalations: return counter_value(escalations(r, t), e, duration, tasks);
    case MetricId::task_tokens: return trend_value(per_task(r, t, &TemplateStats::task_tokens), e, 1);
    case MetricId::task_cost_usd:
      return trend_value(per_task(r, t, &TemplateStats::task_cost_nano_usd), e, kNanoUsdPerUsd);
    case MetricId::capacity_offered:
    case MetricId::capacity_goodput:
    case MetricId::capacity_rate_limited:
    case MetricId::capacity_rejected:
    case MetricId::capacity_wasted: return counter_value(capacity_count(r, t, info->id), e, duration, tasks);
    case MetricId::capacity_queue_length: return trend_value({Trend::Part(capacity_queue_maxima(r, t))}, e, 1);
    case MetricId::capacity_recovery_time:
      return trend_value({Trend::Part(capacity_recovery_times(r, t))}, e, kMillisecond);
    case MetricId::retries_refused:
      return counter_value(sum_by_provider(r, t, &ProviderStats::retries_refused), e, duration, tasks);
    case MetricId::throttled_requests:
      return counter_value(sum_by_provider(r, t, &ProviderStats::throttled), e, duration, tasks);
    case MetricId::truncated_answers:
      return counter_value(sum_by_provider(r, t, &ProviderStats::truncated), e, duration, tasks);
    case MetricId::logical_calls: return counter_value(logical_calls(r, t), e, duration, tasks);
    case MetricId::breaker_openings: return counter_value(breaker_openings(r, t), e, duration, tasks);
    case MetricId::burned_tokens: return counter_value(tokens(r, t, true), e, duration, tasks);
    case MetricId::burned_cost_usd: return counter_value(cost_usd(r, t, true), e, duration, tasks);
    default: break;  // the client_* metrics, above
  }
  return std::nullopt;
}

}  // namespace squall

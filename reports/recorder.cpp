#include "reports/recorder.hpp"

#include <cmath>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "engine/runtime/same_text.hpp"

namespace squall {
namespace {

// The first field folded for each event, so that events of different types differ in it.
enum class EventTag : std::uint64_t {
  attempt = 1,
  backoff,
  give_up,
  breaker_transition,
  query_change,
  budget_exhausted,
  task_finished,
  logical_call,
  name,
  fallback,
  reflection,
  escalation,
  cache,
  threshold_relax,
  rewrite,
  retry_refused,
  throttled,
  hedge,
  validation_failed,
  limit,
};

constexpr std::string_view kUnspecifiedReason = "unspecified";

}  // namespace

Recorder::Recorder(RecorderOptions options) : window_(options.window) {
  if (window_ <= 0) throw std::invalid_argument("the time-series window must be positive");
}

// The hint first (recorder.hpp, InternHint): one comparison when the name sits where it
// sat when last interned, as the engine's literals and a scenario's names do. Inlined
// into every event handler; the search is not.
template <class Stats>
[[gnu::always_inline]] inline std::size_t Recorder::intern(std::vector<Stats>& table, std::string_view name) {
  const std::array<InternHint, 2>& set = hints_[hint_set(&table, name.data())];
  const InternHint* hint = &set[0];
  if (hint->data != name.data() || hint->table != &table) hint = &set[1];
  if (hint->data == name.data() && hint->table == &table && same_text(table[hint->index].name, name))
    return hint->index;
  return intern_by_search(table, name);
}

// Linear search: there are a handful of names per table. A new name is folded into the
// fingerprint once, so that later events can fold its index alone.
template <class Stats>
[[gnu::noinline]] std::size_t Recorder::intern_by_search(std::vector<Stats>& table, std::string_view name) {
  std::size_t i = 0;
  while (i < table.size() && !same_text(table[i].name, name)) ++i;
  if (i == table.size()) i = add_name(table, name);
  std::array<InternHint, 2>& set = hints_[hint_set(&table, name.data())];
  set[1] = set[0];
  set[0] = InternHint{name.data(), &table, i};
  return i;
}

// The first sight of a name: out of line, off the hot path.
template <class Stats>
[[gnu::noinline]] std::size_t Recorder::add_name(std::vector<Stats>& table, std::string_view name) {
  fingerprint_.fold(EventTag::name, name);
  table.emplace_back();
  table.back().name = std::string(name);
  return table.size() - 1;
}

std::size_t Recorder::window_of(TimePoint t) {
  if (t >= last_window_start_ && t - last_window_start_ < window_) return last_window_;
  if (t <= 0) return 0;
  const TimePoint w = t / window_;
  if (w >= static_cast<TimePoint>(kMaxWindows - 1)) return kMaxWindows - 1;
  last_window_start_ = w * window_;
  last_window_ = static_cast<std::size_t>(w);
  return last_window_;
}

void Recorder::saw_time(TimePoint t) { last_event_at_ = std::max(last_event_at_, t); }

void Recorder::on_attempt(const AttemptEvent& e) {
  // The tool is not folded: the task's logical-call event names it, and interning it here
  // would search a second table on the hottest event.
  const std::size_t p = intern(providers_, e.provider);
  const std::size_t kind = index_of(e.kind);
  fingerprint_.fold(EventTag::attempt, e.task_id, p, e.attempt, e.started, e.finished, kind, e.status, e.input_tokens,
                    e.output_tokens, e.cost_usd, e.truncated);

  ProviderStats& s = providers_[p];
  ++s.calls[kind];
  s.latency[kind].push_back(e.finished - e.started);
  s.add_billed(e.input_tokens, e.output_tokens, e.cost_usd);
  s.truncated += e.truncated ? 1 : 0;
  if (e.kind != OutcomeKind::success) s.add_failed(e.input_tokens, e.output_tokens, e.cost_usd);
  const std::size_t w = window_of(e.finished);
  if (w >= s.calls_by_window.size()) {  // the two series grow together
    s.calls_by_window.resize(w + 1);
    s.spend_by_window.resize(w + 1);
  }
  ++s.calls_by_window[w][kind];
  s.spend_by_window[w].tokens += e.input_tokens + e.output_tokens;
  s.spend_by_window[w].cost_usd += e.cost_usd;
  saw_time(e.finished);
}

void Recorder::on_backoff(const BackoffEvent& e) {
  const std::size_t t = intern(tools_, e.tool);
  fingerprint_.fold(EventTag::backoff, e.task_id, t, e.after_attempt, e.at, e.delay, e.from_retry_after);

  ++tools_[t].backoffs;
  tools_[t].backoff_wait += e.delay;
  tools_[t].backoff_delays.push_back(e.delay);
  saw_time(e.at);
}

void Recorder::on_give_up(const GiveUpEvent& e) {
  const std::size_t t = intern(tools_, e.tool);
  const std::size_t strategy = intern(labels_, e.strategy);
  const std::size_t reason = intern(labels_, e.reason);
  fingerprint_.fold(EventTag::give_up, e.task_id, t, strategy, reason, e.at, index_of(e.last_kind));

  ++tools_[t].give_ups;
  saw_time(e.at);
}

void Recorder::on_breaker_transition(const BreakerTransitionEvent& e) {
  const std::size_t t = intern(tools_, e.tool);
  const std::size_t p = e.provider.empty() ? kNoIndex : intern(providers_, e.provider);
  fingerprint_.fold(EventTag::breaker_transition, t, p, e.at, e.from, e.to);

  ++tools_[t].breaker_transitions_to[static_cast<std::size_t>(e.to)];
  // The cause is not folded into the fingerprint: it follows from the results already
  // folded (the attempts), so the trace's hash stays what it was before causes existed.
  if (e.to == BreakerState::open) ++tools_[t].breaker_openings[static_cast<std::size_t>(e.cause)];
  ++transitions_total_;
  if (transitions_.size() < kMaxListedBreakerTransitions) transitions_.push_back({t, p, e.at, e.from, e.to});
  saw_time(e.at);
}

void Recorder::on_query_change(const QueryChangeEvent& e) {
  const std::size_t t = intern(tools_, e.tool);
  const std::size_t strategy = intern(labels_, e.strategy);
  const std::size_t step = intern(labels_, e.step);
  fingerprint_.fold(EventTag::query_change, e.task_id, t, strategy, step, e.at, e.from, e.to);

  ++tools_[t].query_changes;
  saw_time(e.at);
}

void Recorder::on_budget_exhausted(const BudgetExhaustedEvent& e) {
  const std::size_t t = intern(tools_, e.tool);
  const std::size_t limit = intern(labels_, e.limit);
  fingerprint_.fold(EventTag::budget_exhausted, e.task_id, t, e.at, limit, e.spent, e.projected, e.maximum);

  ++tools_[t].budget_refusals;
  saw_time(e.at);
}

void Recorder::on_fallback(const FallbackEvent& e) {
  const std::size_t t = intern(tools_, e.tool);
  const std::size_t from = e.from.empty() ? kNoIndex : intern(providers_, e.from);
  const std::size_t to = e.to.empty() ? kNoIndex : intern(providers_, e.to);
  fingerprint_.fold(EventTag::fallback, e.task_id, t, e.action, from, to, index_of(e.trigger), e.at);
  if (e.wait != 0) fingerprint_.fold(EventTag::fallback, e.wait);  // only cooldowns wait

  auto row = std::find_if(fallbacks_.begin(), fallbacks_.end(), [&](const FallbackStats& f) {
    return f.tool == t && f.action == e.action && f.from == from && f.to == to;
  });
  if (row == fallbacks_.end()) row = fallbacks_.insert(row, FallbackStats{t, e.action, from, to, 0});
  ++row->count;
  saw_time(e.at);
}

void Recorder::count_rung(std::size_t tool, std::string_view strategy, std::int32_t rung, std::string_view label) {
  std::size_t i = 0;
  while (i < ladder_.size() && !(ladder_[i].tool == tool && ladder_[i].rung == rung &&
                                 same_text(ladder_[i].strategy, strategy) && same_text(ladder_[i].label, label))) {
    ++i;
  }
  if (i == ladder_.size()) ladder_.push_back(LadderStats{tool, strategy, rung, std::string(label), 0});
  ++ladder_[i].count;
}

void Recorder::on_threshold_relax(const ThresholdRelaxEvent& e) {
  const std::size_t t = intern(tools_, e.tool);
  const std::size_t label = intern(labels_, e.label);
  fingerprint_.fold(EventTag::threshold_relax, e.task_id, t, e.rung, label, e.at, e.min_score,
                    static_cast<std::size_t>(e.mode));

  count_rung(t, "relax_threshold", e.rung, e.label);
  saw_time(e.at);
}

void Recorder::on_rewrite(const RewriteEvent& e) {
  const std::size_t t = intern(tools_, e.tool);
  const std::size_t p = intern(providers_, e.provider);
  fingerprint_.fold(EventTag::rewrite, e.task_id, t, p, e.rewrite, e.started, e.finished, index_of(e.kind),
                    index_of(e.result), e.from, e.to, e.input_tokens, e.output_tokens, e.cost_usd);

  count_rung(t, "rewrite_query", static_cast<std::int32_t>(index_of(e.result)), to_string(e.result));
  saw_time(e.finished);
}

void Recorder::on_reflection(const ReflectionEvent& e) {
  const std::size_t t = intern(tools_, e.tool);
  const std::size_t p = intern(providers_, e.provider);
  fingerprint_.fold(EventTag::reflection, e.task_id, t, p, e.reflection, e.started, e.finished, index_of(e.trigger),
                    index_of(e.kind), e.input_tokens, e.output_tokens, e.cost_usd);

  ++tools_[t].reflections;
  saw_time(e.finished);
}

void Recorder::on_validation_failed(const ValidationFailedEvent& e) {
  // The owner is a label, not a tool: validate may sit in a provider's stack.
  const std::size_t owner = intern(labels_, e.tool);
  const std::size_t check = intern(labels_, e.check);
  const std::size_t p = e.provider.empty() ? kNoIndex : intern(providers_, e.provider);
  fingerprint_.fold(EventTag::validation_failed, e.task_id, owner, p, check, e.at, e.input_tokens, e.output_tokens,
                    e.cost_usd);
  if (p != kNoIndex) providers_[p].add_failed(e.input_tokens, e.output_tokens, e.cost_usd);
  saw_time(e.at);
}

void Recorder::on_cache(const CacheEvent& e) {
  const std::size_t c = intern(caches_, e.tool);
  fingerprint_.fold(EventTag::cache, e.task_id, c, e.action, e.at, e.age, e.calls_saved);

  CacheStats& s = caches_[c];
  ++s.actions[static_cast<std::size_t>(e.action)];
  s.calls_saved += static_cast<std::uint64_t>(std::max(e.calls_saved, 0));
  if (e.action == CacheAction::stale) s.stale_age.push_back(e.age);
  saw_time(e.at);
}

void Recorder::on_retry_refused(const RetryRefusedEvent& e) {
  const std::size_t t = intern(tools_, e.tool);
  const std::size_t p = intern(providers_, e.provider);
  const std::size_t mode = intern(labels_, e.mode);
  fingerprint_.fold(EventTag::retry_refused, e.task_id, t, p, mode, e.at, e.level, e.limit);

  ++providers_[p].retries_refused;
  saw_time(e.at);
}

void Recorder::on_throttled(const ThrottledEvent& e) {
  const std::size_t t = intern(tools_, e.tool);
  const std::size_t p = intern(providers_, e.provider);
  fingerprint_.fold(EventTag::throttled, e.task_id, t, p, e.at, e.requests, e.accepts, e.probability);

  ++providers_[p].throttled;
  saw_time(e.at);
}

void Recorder::on_hedge(const HedgeEvent& e) {
  const std::size_t h = intern(hedges_, e.tool);
  fingerprint_.fold(EventTag::hedge, e.task_id, h, e.action, e.hedge, e.at, e.input_tokens, e.output_tokens,
                    e.cost_usd);

  hedges_[h].fold(e);
  saw_time(e.at);
}

void Recorder::on_limit(const LimitEvent& e) {
  const std::size_t l = intern(limiters_, e.tool);
  fingerprint_.fold(EventTag::limit, e.task_id, l, e.action, e.at, e.limit, e.previous, e.in_flight, e.queued);
  limiters_[l].fold(e, window_of(e.at));
  saw_time(e.at);
}

void Recorder::on_escalation(const EscalationEvent& e) {
  const std::size_t tpl = intern(templates_, e.template_name);
  fingerprint_.fold(EventTag::escalation, e.task_id, tpl, index_of(e.level), index_of(e.reason), e.at);

  ++escalations_[index_of(e.level)][index_of(e.reason)];
  saw_time(e.at);
}

void Recorder::on_task_finished(const TaskResult& r) {
  const std::size_t tpl = intern(templates_, r.template_name);
  const std::size_t status = index_of(r.status);
  // The reason as its interned index + 1, and 0 for a clean success, whose reason is
  // ignored: names are folded once, when first seen (intern).
  std::size_t reason = 0;
  if (r.status != TaskStatus::succeeded) {
    reason = intern(reasons_, r.reason.empty() ? kUnspecifiedReason : r.reason) + 1;
  }
  // kAnswerVerdictCount stands for "no ground truth".
  const std::size_t answer = r.answer ? index_of(*r.answer) : kAnswerVerdictCount;
  fingerprint_.fold(EventTag::task_finished, r.id, tpl, r.started, r.finished, status, reason, r.tokens, r.cost_usd,
                    r.degradations, answer);

  TemplateStats& s = templates_[tpl];
  ++tasks_finished_;
  ++s.tasks[status];
  s.latency.push_back(r.finished - r.started);
  s.tokens += r.tokens;
  s.cost_usd += r.cost_usd;
  s.task_tokens.push_back(r.tokens);
  // A task that billed nothing (every task of a model without an LLM) needs no llround call.
  s.task_cost_nano_usd.push_back(r.cost_usd == 0 ? 0 : std::llround(r.cost_usd * kNanoUsdPerUsd));
  if (reason > 0) ++reasons_[reason - 1].tasks[status];
  if (r.answer) {
    ++s.answers[answer];
    ++answers_by_path_[r.degradations][answer];
  }
  const std::size_t w = window_of(r.finished);
  if (w >= tasks_by_window_.size()) {  // the three series grow together
    const std::uint64_t before = task_latency_by_window_.empty() ? 0 : task_latency_by_window_.back().count();
    tasks_by_window_.resize(w + 1);
    tasks_started_by_window_.resize(w + 1);
    task_latency_by_window_.resize(w + 1);
    task_latency_by_window_[w].reserve(before);
  }
  ++tasks_by_window_[w][status];
  task_latency_by_window_[w].add(r.id, r.finished - r.started);
  ++tasks_started_by_window_[window_of(r.started)];  // started <= finished: in range
  saw_time(r.finished);
}

void Recorder::on_logical_call(const LogicalCallEvent& e) {
  const std::size_t t = intern(tools_, e.tool);
  const std::int32_t attempts = e.attempts;
  const OutcomeKind final_kind = e.kind;
  fingerprint_.fold(EventTag::logical_call, e.task_id, t, attempts, index_of(final_kind), e.at);

  ToolStats& s = tools_[t];
  const auto n = static_cast<std::size_t>(std::max(attempts, 0));
  ++s.logical_calls;
  s.attempts += n;
  if (n >= s.calls_by_attempts.size()) s.calls_by_attempts.resize(n + 1);
  ++s.calls_by_attempts[n];
  ++s.final_outcomes[index_of(final_kind)];
}

namespace {

template <class Table, class Value>
void set_count(Table& counts, std::string_view provider, std::string_view kind, Value count) {
  auto outer = counts.find(provider);
  if (outer == counts.end()) outer = counts.emplace(std::string(provider), typename Table::mapped_type{}).first;
  auto inner = outer->second.find(kind);
  if (inner == outer->second.end()) {
    outer->second.emplace(std::string(kind), std::move(count));
  } else {
    inner->second = std::move(count);
  }
}

}  // namespace

void Recorder::set_injected_faults(std::string_view provider, std::string_view kind, std::uint64_t count,
                                   std::vector<std::uint64_t> by_window) {
  if (std::accumulate(by_window.begin(), by_window.end(), std::uint64_t{0}) != count) {
    throw std::invalid_argument(
        fmt::format("injected faults {}/{}: the windows do not sum to the total {}", provider, kind, count));
  }
  set_count(injected_, provider, kind, count);
  set_count(injected_by_window_, provider, kind, std::move(by_window));
}

void Recorder::set_injected_faults_cut_short(std::string_view provider, std::string_view kind, std::uint64_t count) {
  set_count(cut_short_, provider, kind, count);
}

void Recorder::set_injected_fault_phases(std::string_view provider, std::string_view phase, std::uint64_t count) {
  set_count(phases_, provider, phase, count);
}

}  // namespace squall

namespace squall {

void Recorder::set_capacity(CapacityReport report) {
  const auto at = std::lower_bound(capacity_.begin(), capacity_.end(), report.provider,
                                   [](const CapacityReport& c, const std::string& name) { return c.provider < name; });
  if (at != capacity_.end() && at->provider == report.provider) {
    *at = std::move(report);
  } else {
    capacity_.insert(at, std::move(report));
  }
}

}  // namespace squall

#include "reports/writers/trace_fields.hpp"

#include <string>
#include <string_view>
#include <type_traits>

namespace squall {
namespace {

// A field's JSON value: names (views, and the closed vocabularies' enumerators) as
// strings, numbers and booleans as they are.
template <class T>
TraceRecord value_of(const T& v) {
  if constexpr (std::is_convertible_v<T, std::string_view>) {
    return std::string(std::string_view(v));
  } else if constexpr (std::is_enum_v<T>) {
    return std::string(to_string(v));
  } else {
    return v;
  }
}

// Sets the fields in the order given: put(j, "a", x, "b", y).
template <class T, class... Rest>
void put(TraceRecord& j, const char* key, const T& value, const Rest&... rest) {
  j[key] = value_of(value);
  if constexpr (sizeof...(rest) > 0) put(j, rest...);
}

}  // namespace

void trace_fields(TraceRecord& j, const AttemptEvent& e) {
  put(j, "at_ns", e.finished, "task", e.task_id, "tool", e.tool, "provider", e.provider, "attempt", e.attempt,
      "started_ns", e.started, "outcome", e.kind, "status", e.status, "input_tokens", e.input_tokens, "output_tokens",
      e.output_tokens, "cost_usd", e.cost_usd);
  if (e.truncated) j["truncated"] = true;  // only on cut completions: finish_reason length
}

void trace_fields(TraceRecord& j, const BackoffEvent& e) {
  put(j, "at_ns", e.at, "task", e.task_id, "tool", e.tool, "after_attempt", e.after_attempt, "delay_ns", e.delay,
      "from_retry_after", e.from_retry_after);
}

void trace_fields(TraceRecord& j, const GiveUpEvent& e) {
  put(j, "at_ns", e.at, "task", e.task_id, "tool", e.tool, "strategy", e.strategy, "reason", e.reason, "last_outcome",
      e.last_kind);
}

void trace_fields(TraceRecord& j, const BreakerTransitionEvent& e) {
  put(j, "at_ns", e.at, "tool", e.tool, "provider", e.provider, "from", e.from, "to", e.to, "cause", e.cause);
}

void trace_fields(TraceRecord& j, const QueryChangeEvent& e) {
  put(j, "at_ns", e.at, "task", e.task_id, "tool", e.tool, "strategy", e.strategy, "step", e.step, "from", e.from, "to",
      e.to);
}

void trace_fields(TraceRecord& j, const ThresholdRelaxEvent& e) {
  put(j, "at_ns", e.at, "task", e.task_id, "tool", e.tool, "rung", e.rung, "label", e.label, "min_score", e.min_score,
      "mode", e.mode);
}

void trace_fields(TraceRecord& j, const RewriteEvent& e) {
  put(j, "at_ns", e.finished, "task", e.task_id, "tool", e.tool, "provider", e.provider, "rewrite", e.rewrite,
      "started_ns", e.started, "outcome", e.kind, "result", e.result, "from", e.from, "to", e.to, "input_tokens",
      e.input_tokens, "output_tokens", e.output_tokens, "cost_usd", e.cost_usd);
}

void trace_fields(TraceRecord& j, const BudgetExhaustedEvent& e) {
  put(j, "at_ns", e.at, "task", e.task_id, "tool", e.tool, "limit", e.limit, "spent", e.spent, "projected", e.projected,
      "maximum", e.maximum);
}

void trace_fields(TraceRecord& j, const FallbackEvent& e) {
  put(j, "at_ns", e.at, "task", e.task_id, "tool", e.tool, "action", e.action, "from", e.from, "to", e.to, "trigger",
      e.trigger);
  if (e.action == FallbackAction::cooled || e.action == FallbackAction::waited_cooldown) j["wait_ns"] = e.wait;
}

void trace_fields(TraceRecord& j, const ReflectionEvent& e) {
  put(j, "at_ns", e.finished, "task", e.task_id, "tool", e.tool, "provider", e.provider, "reflection", e.reflection,
      "started_ns", e.started, "trigger", e.trigger, "outcome", e.kind, "input_tokens", e.input_tokens, "output_tokens",
      e.output_tokens, "cost_usd", e.cost_usd);
}

void trace_fields(TraceRecord& j, const ValidationFailedEvent& e) {
  put(j, "at_ns", e.at, "task", e.task_id, "tool", e.tool, "provider", e.provider, "check", e.check, "input_tokens",
      e.input_tokens, "output_tokens", e.output_tokens, "cost_usd", e.cost_usd);
}

void trace_fields(TraceRecord& j, const CacheEvent& e) {
  put(j, "at_ns", e.at, "task", e.task_id, "tool", e.tool, "action", e.action, "age_ns", e.age, "calls_saved",
      e.calls_saved);
}

void trace_fields(TraceRecord& j, const LogicalCallEvent& e) {
  put(j, "at_ns", e.at, "task", e.task_id, "tool", e.tool, "provider", e.provider, "attempts", e.attempts, "outcome",
      e.kind);
}

void trace_fields(TraceRecord& j, const EscalationEvent& e) {
  put(j, "at_ns", e.at, "task", e.task_id, "template", e.template_name, "level", e.level, "reason", e.reason);
}

void trace_fields(TraceRecord& j, const RetryRefusedEvent& e) {
  put(j, "at_ns", e.at, "task", e.task_id, "tool", e.tool, "provider", e.provider, "mode", e.mode, "level", e.level,
      "limit", e.limit);
}

void trace_fields(TraceRecord& j, const ThrottledEvent& e) {
  put(j, "at_ns", e.at, "task", e.task_id, "tool", e.tool, "provider", e.provider, "requests", e.requests, "accepts",
      e.accepts, "probability", e.probability);
}

void trace_fields(TraceRecord& j, const HedgeEvent& e) {
  put(j, "at_ns", e.at, "task", e.task_id, "tool", e.tool, "action", e.action, "hedge", e.hedge, "provider", e.provider,
      "input_tokens", e.input_tokens, "output_tokens", e.output_tokens, "cost_usd", e.cost_usd);
}

void trace_fields(TraceRecord& j, const LimitEvent& e) {
  put(j, "at_ns", e.at, "task", e.task_id, "tool", e.tool, "action", e.action, "limit", e.limit, "previous", e.previous,
      "in_flight", e.in_flight, "queued", e.queued);
}

void trace_fields(TraceRecord& j, const TaskResult& e) {
  put(j, "at_ns", e.finished, "task", e.id, "template", e.template_name, "started_ns", e.started, "status", e.status,
      "reason", e.reason, "tokens", e.tokens, "cost_usd", e.cost_usd);
  // Only for a query with ground truth (engine/task_result.hpp).
  if (e.answer) put(j, "answer", *e.answer);
}

}  // namespace squall

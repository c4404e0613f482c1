// EventSink: every decision the engine makes is an event (DESIGN section 4), so reports
// can explain every number. The recorder (reports/) implements this interface; the engine
// only calls it. Events carry views that are valid for the duration of the call only.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "engine/call.hpp"
#include "engine/outcome.hpp"
#include "engine/runtime/time.hpp"
#include "engine/strategies/escalation.hpp"
#include "engine/task_result.hpp"
#include "engine/vocabulary.hpp"

namespace squall {

// One provider attempt, emitted when it ends.
struct AttemptEvent {
  std::uint64_t task_id = 0;
  std::string_view tool;      // the tool the task's step called
  std::string_view provider;  // the provider the attempt reached
  std::int32_t attempt = 0;   // 1-based within the logical call
  TimePoint started = 0;
  TimePoint finished = 0;
  OutcomeKind kind = OutcomeKind::success;
  int status = 0;
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  double cost_usd = 0;
  bool truncated = false;  // a completion cut at max_output_tokens (finish_reason length)
};

// The retry strategy decided to wait `delay` before the next attempt.
struct BackoffEvent {
  std::uint64_t task_id = 0;
  std::string_view tool;
  std::int32_t after_attempt = 0;  // the attempt that failed
  TimePoint at = 0;
  Nanos delay = 0;
  bool from_retry_after = false;  // the delay is the server's Retry-After, not backoff
};

// A strategy stopped trying; `reason` is a fixed identifier such as "max_attempts",
// "deadline", "retry_after_exceeds_cap", "not_retryable", "should_retry_false".
struct GiveUpEvent {
  std::uint64_t task_id = 0;
  std::string_view tool;
  std::string_view strategy;
  std::string_view reason;
  TimePoint at = 0;
  OutcomeKind last_kind = OutcomeKind::success;
};

#define SQUALL_BREAKER_STATES(X)                \
  X(closed, "calls pass; failures are counted") \
  X(open, "calls fail fast as circuit_open")    \
  X(half_open, "a limited number of probes pass")

enum class BreakerState : std::uint8_t { SQUALL_BREAKER_STATES(SQUALL_ENUMERATOR) };
std::string_view to_string(BreakerState state);

// Why a breaker opened (engine/strategies/circuit_breaker.hpp). X(name, when)
#define SQUALL_BREAKER_CAUSES(X)                                                            \
  X(none, "not an opening: the transition went to closed or half_open")                     \
  X(consecutive_failures, "failure_threshold consecutive failures while closed")            \
  X(failure_rate, "the sliding window's failure rate reached failure_rate_threshold")       \
  X(slow_call_rate, "the sliding window's slow-call rate reached slow_call_rate_threshold") \
  X(probe_failed, "without a sliding window, the half-open probe that decided failed")

enum class BreakerCause : std::uint8_t { SQUALL_BREAKER_CAUSES(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kBreakerCauseCount = 0 SQUALL_BREAKER_CAUSES(SQUALL_COUNT);
inline constexpr auto kBreakerCauses = all_values<BreakerCause, kBreakerCauseCount>();
std::string_view to_string(BreakerCause cause);

struct BreakerTransitionEvent {
  std::string_view tool;      // the tool or provider whose pipeline holds the breaker
  std::string_view provider;  // the provider the breaker judges; empty without a registry
  TimePoint at = 0;
  BreakerState from = BreakerState::closed;
  BreakerState to = BreakerState::closed;
  // Why it opened (to == open); none for every other transition.
  BreakerCause cause = BreakerCause::none;
};

// A strategy replaced the query (simplify_query, rewrite_query).
struct QueryChangeEvent {
  std::uint64_t task_id = 0;
  std::string_view tool;
  std::string_view strategy;
  std::string_view step;  // the ladder rung, e.g. "drop_quotes"
  TimePoint at = 0;
  std::string_view from;
  std::string_view to;
};

// relax_threshold re-issued an empty vector search one rung down its ladder: a lower
// score threshold, or keyword (BM25) mode. Emitted before the rung's attempt.
struct ThresholdRelaxEvent {
  std::uint64_t task_id = 0;
  std::string_view tool;
  std::int32_t rung = 0;   // 1-based position on the ladder (the first search is rung 0)
  std::string_view label;  // the rung's name in reports: "dense 0.75", "keyword"
  TimePoint at = 0;
  double min_score = 0;  // the rung's threshold (Request::min_score; 0 in keyword mode)
  SearchMode mode = SearchMode::dense;
};

// What a query rewrite by an LLM gave (rewrite_query). The agent cannot tell the first
// two apart; the report can, from the workload's PoolQuery. X(name, meaning)
#define SQUALL_REWRITE_RESULTS(X)                                                         \
  X(intended, "the query's intended form (PoolQuery::rewrite), issued")                   \
  X(paraphrase, "a paraphrase that ranks exactly as the query did, issued")               \
  X(repeated, "a query already issued in this call (or the query unchanged), not issued") \
  X(failed, "the rewrite call failed (timeout, 429, 5xx, ...); the ladder ends")

enum class RewriteResult : std::uint8_t { SQUALL_REWRITE_RESULTS(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kRewriteResultCount = 0 SQUALL_REWRITE_RESULTS(SQUALL_COUNT);
std::string_view to_string(RewriteResult result);
constexpr std::size_t index_of(RewriteResult result) { return static_cast<std::size_t>(result); }

// rewrite_query asked an LLM to rewrite an empty search's query; emitted when the LLM
// call ends, before the rewritten query's attempt. The LLM call's own attempts are
// AttemptEvents of `provider` as well.
struct RewriteEvent {
  std::uint64_t task_id = 0;
  std::string_view tool;      // the search tool whose call came back empty
  std::string_view provider;  // the LLM provider that rewrote
  std::int32_t rewrite = 0;   // 1-based within the logical call
  TimePoint started = 0;
  TimePoint finished = 0;
  OutcomeKind kind = OutcomeKind::success;  // the LLM call's own outcome
  RewriteResult result = RewriteResult::paraphrase;
  std::string_view from;  // the query rewritten
  std::string_view to;    // the rewritten query; empty when the call failed
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  double cost_usd = 0;
};

// The budget strategy refused an attempt.
struct BudgetExhaustedEvent {
  std::uint64_t task_id = 0;
  std::string_view tool;
  TimePoint at = 0;
  std::string_view limit;  // "max_tokens", "max_cost_usd" or "max_iterations"
  double spent = 0;        // what the task had spent, in the limit's unit
  double projected = 0;    // spent plus the refused request's worst case
  double maximum = 0;      // the limit
};

// The fallback strategy moved a logical call from one provider to another, passed a
// candidate over without calling it, or cooled one (new actions go last: the run
// fingerprint folds the enumerator's value).
#define SQUALL_FALLBACK_ACTIONS(X)                                                    \
  X(switched, "`to` is called next because `from` ended in `trigger`")                \
  X(skipped_context, "`to` cannot hold the prompt plus the requested output")         \
  X(skipped_capability, "`to` lacks a capability the step requires")                  \
  X(skipped_budget, "`to`'s worst-case cost exceeds what the task's budget has left") \
  X(exhausted, "no candidate is left; the call ends with `trigger`")                  \
  X(skipped_cooldown, "`to` is cooling after a failure (fallback's `cooldown`)")      \
  X(cooled, "`from` cools for `wait` after ending in `trigger`")                      \
  X(waited_cooldown, "every candidate was cooling; the call waited `wait` for `to`")

enum class FallbackAction : std::uint8_t { SQUALL_FALLBACK_ACTIONS(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kFallbackActionCount = 0 SQUALL_FALLBACK_ACTIONS(SQUALL_COUNT);
inline constexpr auto kFallbackActions = all_values<FallbackAction, kFallbackActionCount>();
std::string_view to_string(FallbackAction action);

struct FallbackEvent {
  std::uint64_t task_id = 0;
  std::string_view tool;
  FallbackAction action = FallbackAction::switched;
  std::string_view from;                       // the provider whose outcome triggered the fallback
  std::string_view to;                         // the candidate concerned (empty when exhausted)
  OutcomeKind trigger = OutcomeKind::success;  // from's outcome
  TimePoint at = 0;
  Nanos wait = 0;  // cooled: how long `from` cools; waited_cooldown: how long the call waited
};

// The reflect strategy asked an LLM to correct a tool call's arguments after the tool
// answered `trigger`; emitted when the reflection call ends. The reflection's own
// provider attempt is an AttemptEvent of `provider` as well.
struct ReflectionEvent {
  std::uint64_t task_id = 0;
  std::string_view tool;        // the tool whose call failed
  std::string_view provider;    // the LLM provider that reflected
  std::int32_t reflection = 0;  // 1-based within the logical call
  TimePoint started = 0;
  TimePoint finished = 0;
  OutcomeKind trigger = OutcomeKind::bad_request;  // the tool's outcome that asked for it
  OutcomeKind kind = OutcomeKind::success;         // the reflection call's own outcome
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  double cost_usd = 0;
};

// The validate strategy turned an answer into invalid_output or truncated
// (engine/strategies/validate.hpp):
// the attempt's AttemptEvent said `success` (the provider answered 200), and this event
// says what that attempt billed, so the report counts it among what failed attempts
// burned. Usage is 0 when no attempt was made inside the validated call (an answer a
// cache outside it served), since nothing was billed for it there.
struct ValidationFailedEvent {
  std::uint64_t task_id = 0;
  std::string_view tool;      // the tool or provider whose pipeline holds the strategy
  std::string_view provider;  // the provider whose answer failed the check
  std::string_view check;     // the check it failed: json, non_empty, no_error, complete
  TimePoint at = 0;
  // What the rejected attempt billed; 0 for an `empty` answer non_empty rejected, which
  // the report already counts as failed.
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  double cost_usd = 0;
};

// What the cache strategy did for a call (engine/strategies/cache.hpp). X(name, when)
#define SQUALL_CACHE_ACTIONS(X)                                                               \
  X(hit, "a fresh entry answered the call without a provider call")                           \
  X(miss, "no fresh entry and no identical call in flight: the call went on to the provider") \
  X(coalesced, "the call waited for an identical call in flight and got that call's outcome") \
  X(wait_timeout, "the call's deadline came while it waited for an identical call in flight") \
  X(stale, "an expired entry answered the call after a failure (stale-if-error)")             \
  X(evicted, "the least recently used entry was dropped to make room for the call's answer")

enum class CacheAction : std::uint8_t { SQUALL_CACHE_ACTIONS(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kCacheActionCount = 0 SQUALL_CACHE_ACTIONS(SQUALL_COUNT);
inline constexpr auto kCacheActions = all_values<CacheAction, kCacheActionCount>();
std::string_view to_string(CacheAction action);

struct CacheEvent {
  std::uint64_t task_id = 0;
  std::string_view tool;  // the tool or provider whose pipeline holds the cache
  CacheAction action = CacheAction::hit;
  TimePoint at = 0;
  // hit and stale: the answer's age, at - the time it arrived from the provider (HTTP's
  // Age, RFC 9111 section 4.2.3); 0 otherwise.
  Nanos age = 0;
  // hit and coalesced: the provider attempts the call did not make, counted as those the
  // call whose answer it reused made; 0 otherwise.
  std::int32_t calls_saved = 0;
};

// A logical call (one step's tool call, across all its attempts) ended.
struct LogicalCallEvent {
  std::uint64_t task_id = 0;
  std::string_view tool;
  // The provider of the final outcome (Outcome::provider): the one whose attempt gave it
  // (a fallback's backup, when one answered), or for a refusal the one a fallback or a
  // hedge had moved the call to; the step's provider when the outcome names none.
  std::string_view provider;
  std::int32_t attempts = 0;  // provider attempts; 0 when refused before any
  OutcomeKind kind = OutcomeKind::success;
  TimePoint at = 0;
};

// A task's escalation ticket (engine/strategies/escalation.hpp): at most one per task,
// emitted by the task runner when the task ends, just before its TaskResult, at the
// highest level the task reached and with the condition that raised it there.
struct EscalationEvent {
  std::uint64_t task_id = 0;
  std::string_view template_name;  // the workload task's name
  EscalationLevel level = EscalationLevel::auto_retry;
  EscalationCondition reason = EscalationCondition::failed_attempts;
  TimePoint at = 0;  // the task's end
};

// retry_budget refused a retry (engine/strategies/retry_budget.hpp): the retry strategy
// that asked ends the logical call with its last outcome (GiveUpEvent "retry_budget").
struct RetryRefusedEvent {
  std::uint64_t task_id = 0;
  std::string_view tool;
  std::string_view provider;  // whose budget refused; empty without a registry
  std::string_view mode;      // "envoy" or "grpc"
  TimePoint at = 0;
  // envoy: the active retries and the limit they reached, max(min_retry_concurrency,
  // budget_percent of the active requests). grpc: the token count and the threshold
  // (max_tokens / 2) it is at or below, both in milli-tokens.
  std::int64_t level = 0;
  std::int64_t limit = 0;
};

// adaptive_throttling rejected a request locally, without sending it
// (engine/strategies/adaptive_throttling.hpp): its outcome is `throttled`.
struct ThrottledEvent {
  std::uint64_t task_id = 0;
  std::string_view tool;
  std::string_view provider;  // the backend whose history rejected it; empty without a registry
  TimePoint at = 0;
  std::uint64_t requests = 0;  // in the window before this request
  std::uint64_t accepts = 0;
  double probability = 0;  // max(0, (requests - K * accepts) / (requests + 1))
};

// What the hedging strategy did (engine/strategies/hedging.hpp). X(name, when)
#define SQUALL_HEDGE_ACTIONS(X)                                                                          \
  X(primary, "a call entered the strategy: one primary request, the budget's denominator")               \
  X(launched, "a hedged attempt was sent")                                                               \
  X(budget_denied, "a hedged attempt was due but the hedge budget refused it; none was sent")            \
  X(won, "a hedged attempt's answer won the call")                                                       \
  X(loser_cancelled, "an attempt still running was cancelled because another answer won")                \
  X(retry_budget_denied, "a hedged attempt was due but a retry_budget inside refused it; none was sent") \
  X(unservable,                                                                                          \
    "a hedged attempt was due but its provider cannot serve the request (context window, "               \
    "capabilities); none was sent")                                                                      \
  X(not_idempotent,                                                                                      \
    "a hedged attempt was due but the previous attempt's provider is not idempotent and the request "    \
    "may have reached it (still running, or a timeout or 5xx); none was sent")

enum class HedgeAction : std::uint8_t { SQUALL_HEDGE_ACTIONS(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kHedgeActionCount = 0 SQUALL_HEDGE_ACTIONS(SQUALL_COUNT);
inline constexpr auto kHedgeActions = all_values<HedgeAction, kHedgeActionCount>();
std::string_view to_string(HedgeAction action);

struct HedgeEvent {
  std::uint64_t task_id = 0;
  std::string_view tool;  // the tool or provider whose pipeline holds the strategy
  HedgeAction action = HedgeAction::primary;
  std::int32_t hedge = 0;  // the attempt's index: 0 the primary, 1.. the hedges
  TimePoint at = 0;
  // The provider of that attempt (hedging's `providers` may send hedges elsewhere); empty
  // when the pipeline has no registry (unit tests of a bare strategy).
  std::string_view provider = {};
  // loser_cancelled: what the cancelled attempt billed (already in the task's spend);
  // 0 otherwise.
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  double cost_usd = 0;
};

// What an adaptive concurrency limiter did (engine/strategies/adaptive_concurrency.hpp).
// X(name, when)
#define SQUALL_LIMIT_ACTIONS(X)                                                 \
  X(start, "the limiter's first call: `limit` is its initial limit")            \
  X(increase, "the limit went up")                                              \
  X(decrease, "the limit went down")                                            \
  X(rejected,                                                                   \
    "a call found the limit reached and no room to wait, or its wait ran out; " \
    "it ends as bulkhead_full")

enum class LimitAction : std::uint8_t { SQUALL_LIMIT_ACTIONS(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kLimitActionCount = 0 SQUALL_LIMIT_ACTIONS(SQUALL_COUNT);
inline constexpr auto kLimitActions = all_values<LimitAction, kLimitActionCount>();
std::string_view to_string(LimitAction action);

struct LimitEvent {
  std::uint64_t task_id = 0;  // the call that caused it
  std::string_view tool;      // the tool or provider whose pipeline holds the limiter
  LimitAction action = LimitAction::start;
  TimePoint at = 0;
  std::int32_t limit = 0;      // the limit now (floor of the estimate)
  std::int32_t previous = 0;   // before: equal to `limit` for start and rejected
  std::int32_t in_flight = 0;  // calls holding a slot
  std::uint64_t queued = 0;    // calls waiting for one
};

// Every event the engine emits, one line each: X(handler, event type, trace name). The
// EventSink's handlers are generated from this list, and so are the sinks that must see
// every event (engine/tee_sink.hpp, the JSONL trace in reports/writers/trace_writer.hpp).
// Adding an event is: its struct above, one line here, a call from the engine, and its
// trace fields (reports/writers/trace_fields.cpp: their declaration is generated, so squall
// does not link until the new event has them; docs/ci.md lists them). The trace name is the
// record's "event" in the JSONL trace.
#define SQUALL_EVENTS(X)                                                 \
  X(on_attempt, AttemptEvent, "attempt")                                 \
  X(on_backoff, BackoffEvent, "backoff")                                 \
  X(on_give_up, GiveUpEvent, "give_up")                                  \
  X(on_breaker_transition, BreakerTransitionEvent, "breaker_transition") \
  X(on_query_change, QueryChangeEvent, "query_change")                   \
  X(on_threshold_relax, ThresholdRelaxEvent, "threshold_relax")          \
  X(on_rewrite, RewriteEvent, "rewrite")                                 \
  X(on_budget_exhausted, BudgetExhaustedEvent, "budget_exhausted")       \
  X(on_fallback, FallbackEvent, "fallback")                              \
  X(on_reflection, ReflectionEvent, "reflection")                        \
  X(on_cache, CacheEvent, "cache")                                       \
  X(on_logical_call, LogicalCallEvent, "logical_call")                   \
  X(on_escalation, EscalationEvent, "escalation")                        \
  X(on_task_finished, TaskResult, "task_finished")                       \
  X(on_retry_refused, RetryRefusedEvent, "retry_refused")                \
  X(on_throttled, ThrottledEvent, "throttled")                           \
  X(on_hedge, HedgeEvent, "hedge")                                       \
  X(on_validation_failed, ValidationFailedEvent, "validation_failed")    \
  X(on_limit, LimitEvent, "limit")

class EventSink {
 public:
  virtual ~EventSink() = default;
#define SQUALL_EVENT_HANDLER(handler, Event, trace_name) \
  virtual void handler(const Event&) {}
  SQUALL_EVENTS(SQUALL_EVENT_HANDLER)
#undef SQUALL_EVENT_HANDLER
};

}  // namespace squall

// The metric catalogue: every metric a threshold can name, in one place (k6's model of
// metric types, https://grafana.com/docs/k6/latest/javascript-api/k6-metrics/).
//
// A metric has a type that decides which threshold aggregations apply to it:
//   rate     the fraction of samples that are "true"       -> rate
//   trend    a distribution of values (times in ms)        -> p(N), avg, min, max, med
//   counter  a running total                               -> count, sum, rate, avg
// For counters `count` and `sum` are both the total (k6 calls it count; the DESIGN's cost
// example uses sum), `rate` is the total per second of simulated time (k6's counter rate)
// and `avg` is the total per finished task (e.g. cost_usd avg = USD per task).
//
// Tags select sub-metrics, as in k6: "provider_calls{provider:web_search}". Tags whose
// values form a closed vocabulary (outcome kinds, breaker states, token kinds) are checked
// when a threshold is parsed; open ones (provider, tool, template) are not, since their
// values come from the scenario.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "engine/events.hpp"

namespace squall {

// The values of the breaker_state tag vocabulary, in BreakerState order.
inline constexpr auto kBreakerStates = all_values<BreakerState, 3>();

enum class MetricType : std::uint8_t { rate, trend, counter };
std::string_view to_string(MetricType type);

// The metrics, in catalogue order. Each has a case in reports/metric_values.cpp.
enum class MetricId : std::uint8_t {
  task_success,            // rate: tasks that succeeded, clean or degraded
  task_degraded,           // rate: tasks that succeeded only in a degraded way
  task_safe_fail,          // rate: tasks that ended in a structured safe-fail result
  task_failed,             // rate: tasks that failed
  task_latency,            // trend, ms: end-to-end virtual time per task
  call_latency,            // trend, ms: virtual time per provider attempt
  provider_calls,          // counter: provider attempts
  retry_amplification,     // trend: provider attempts per logical tool call
  tokens,                  // counter: billed tokens, failed attempts included
  cost_usd,                // counter: billed USD, failed attempts included
  breaker_transitions,     // counter: circuit-breaker state changes
  injected_faults,         // counter: faults the chaos layer injected
  fallbacks,               // counter: fallback events (switches, passed-over providers, exhaustion)
  reflections,             // counter: reflection calls after tool errors (reflect strategy)
  ladder_rungs,            // counter: semantic ladder rungs taken (relax_threshold, rewrite_query)
  escalations,             // counter: escalation tickets (at most one per task)
  answered,                // rate: tasks with ground truth that answered from a relevant document
  answered_wrongly,        // rate: tasks with ground truth that answered from irrelevant documents only
  task_tokens,             // trend: tokens one task spent, failed attempts included
  task_cost_usd,           // trend: USD one task spent, failed attempts included
  cache_hits,              // counter: calls a fresh cache entry answered
  cache_misses,            // counter: calls the cache sent on to the provider
  cache_coalesced,         // counter: calls that waited for an identical call in flight
  cache_wait_timeouts,     // counter: waiting calls whose deadline came first
  cache_stale,             // counter: stale answers served after a failure
  cache_stale_age,         // trend, ms: ages of the stale answers
  cache_evictions,         // counter: entries evicted, least recently used first
  cache_calls_saved,       // counter: provider attempts hits and waiters did not make
  capacity_offered,        // counter: requests that reached a capacity layer (offered load)
  capacity_goodput,        // counter: 2xx answers a capacity layer delivered before the client gave up
  capacity_rate_limited,   // counter: 429s from a capacity layer's rate buckets
  capacity_rejected,       // counter: requests a capacity layer's queue rejected (full or timed out)
  capacity_wasted,         // counter: requests served after their client gave up
  capacity_queue_length,   // trend: per time window, the longest queue of a capacity layer
  capacity_recovery_time,  // trend, ms: after a capacity drop, until goodput came back
  retries_refused,         // counter: retries a retry_budget refused
  throttled_requests,      // counter: requests adaptive_throttling rejected before sending
  truncated_answers,       // counter: completions cut at max_output_tokens (finish_reason length)
  logical_calls,           // counter: logical tool calls by final outcome (bulkhead_full, ...)
  hedges,                  // counter: hedging events by action
  hedged_fraction,         // rate: hedged attempts per primary request
  hedge_loser_cost_usd,    // counter: USD billed by attempts cancelled because a hedge won
  breaker_openings,        // counter: circuit-breaker transitions to open, by cause
  concurrency_limit,       // trend: per time window, the lowest limit of an adaptive_concurrency limiter
  limit_recovery_time,     // trend, ms: after a limiter's decrease, until its limit was back
  burned_tokens,           // counter: tokens billed by attempts that did not succeed
  burned_cost_usd,         // counter: USD billed by attempts that did not succeed
  backoff_delay,           // trend, ms: each backoff's delay (max: the longest single wait)
  // Client conformance, measured by `squall serve` only (reports/client_report.hpp); in a
  // simulated run a threshold on them is not evaluated.
  client_retry_amplification,     // trend: HTTP attempts per logical request, by client and layer
  client_retries,                 // counter: retries, by client and layer
  client_early_retries,           // counter: retries sent before the Retry-After given had elapsed
  client_retries_against_advice,  // counter: retries of answers that said not to, by reason
  client_loops,                   // counter: payloads sent again --loop-resends times or more
  client_peak_concurrency,        // trend: per client, its most requests in flight at once
  client_resent_tokens,           // counter: input tokens of retried requests
};

// Whether only a live run measures `id` (the client_* metrics).
bool live_only(MetricId id);

// What values a tag accepts; closed vocabularies are checked at parse time.
enum class TagValues : std::uint8_t {
  any,                // provider, tool and template names from the scenario
  owner,              // a tool, or a provider whose own stack holds the strategy (breakers, caches, hedging, limiters)
  outcome_kind,       // engine/outcome.hpp names: success, empty, timeout, ...
  breaker_state,      // closed, open, half_open
  token_kind,         // input, output
  fallback_action,    // FallbackAction's names (engine/events.hpp)
  escalation_level,   // auto_retry, model_switch, human_review, urgent_action, critical_failure
  escalation_reason,  // the escalation rule conditions: failed_attempts, fallbacks, ...
  hedge_action,       // primary, launched, budget_denied, won, loser_cancelled, retry_budget_denied,
                      // unservable, not_idempotent
  breaker_cause,      // consecutive_failures, failure_rate, slow_call_rate, probe_failed
  ladder_strategy,    // the strategies whose rungs the ladder counts: relax_threshold, rewrite_query
  retry_layer,        // gateway, sdk, application (reports/client_report.hpp)
  advice_reason,      // should_retry_false, insufficient_quota, context_length_exceeded, status_400, ...
};

struct TagInfo {
  std::string_view name;
  TagValues values = TagValues::any;
};

struct MetricInfo {
  MetricId id;
  std::string_view name;
  MetricType type;
  std::string_view unit;  // "ms" for time trends (durations allowed), "" otherwise
  std::span<const TagInfo> tags;
  std::string_view description;

  bool is_time() const { return unit == "ms"; }
};

// Every metric, in MetricId order.
std::span<const MetricInfo> metric_catalogue();
// The metric called `name`, or nullptr.
const MetricInfo* find_metric(std::string_view name);
const MetricInfo& metric_info(MetricId id);

// The tag called `name` of `metric`, or nullptr.
const TagInfo* find_tag(const MetricInfo& metric, std::string_view name);
// Whether `value` belongs to the tag's vocabulary (always true for TagValues::any and owner).
bool tag_value_known(TagValues values, std::string_view value);
// The vocabulary as a comma-separated list for error messages ("" for TagValues::any).
std::string tag_value_list(TagValues values);

}  // namespace squall

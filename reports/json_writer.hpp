// The JSON report (squall_report_version 1). Keys are in a fixed order (ordered_json) and
// numbers are rounded before serialisation, so the same Report always gives the same
// bytes (DESIGN section 3). Top-level keys, in order:
//   squall_report_version,
//   produced_by {squall_version, scenario_file, policy_file (null without --policy), repro},
//   scenario, seed, duration_ms, fingerprint (16 hex digits),
//   tasks {total, succeeded, degraded, safe_failed, failed, wrong_answer,
//          by_reason {status: {reason: n}, every status but succeeded},
//          by_template {name: {total, succeeded, ..., tokens, cost_usd}}},
//   latency_ms {count, p50, p90, p99, max, mean}      end to end per task, virtual time
//   providers {name: {calls, by_outcome {kind: n, every kind}, latency_ms {...},
//              tokens {input, output}, cost_usd}},
//   logical_calls {tool: {total, attempts, by_outcome {...}, backoffs, backoff_wait_ms,   (tools with calls)
//                  give_ups, query_changes, budget_refusals, reflections}},
//   retry_amplification {overall, per_tool {tool: x}},
//   tokens {input, output, burned_by_failed_attempts},
//   cost_usd {total, burned_by_failed_attempts, per_task, per_provider {name: usd}},
//   task_spend {tokens {count, p50, p90, p99, max, mean}, cost_usd {...}}   what one task
//               spent, over every finished task (metrics task_tokens, task_cost_usd),
//   breaker_transitions [{tool, provider, at_ms, from, to}] (the first 1000),
//   breaker_transitions_total,
//   breaker_openings {consecutive_failures, failure_rate, slow_call_rate, probe_failed}:
//     transitions to open by cause, over every breaker,
//   fallbacks [{tool, action, from, to, count}]  sorted; action is a FallbackAction
//             (engine/events.hpp): switched, skipped_*, exhausted, cooled, waited_cooldown,
//   caches {tool: {hit, miss, coalesced, wait_timeout, stale, evicted, calls_saved,
//           stale_age_ms {count, p50, p90, p99, max, mean}}}  one per cache
//           (engine/strategies/cache.hpp), under the tool or provider holding it: its
//           events by action (CacheAction), the provider attempts its hits and waiters
//           did not make, and the ages of its stale answers,
//   hedges {tool: {primary, launched, budget_denied, won, loser_cancelled, retry_budget_denied, unservable,
//           not_idempotent, hedged_fraction, loser_cost_usd, loser_tokens, launched_to {provider: n}}}  one per hedging
//           strategy (engine/strategies/hedging.hpp): its events by action (HedgeAction), hedges launched per primary
//           request (null without any), what cancelled losers billed,
//   limiters {tool: {...}}  only with an adaptive_concurrency limiter
//           (reports/limiter_json.hpp; its keys in docs/ci.md),
//   ladder [{tool, strategy, rung, count}]  semantic recovery rungs taken, sorted by
//             tool, strategy and the rung's place: relax_threshold's rungs ("dense 0.75",
//             "keyword"), rewrite_query's rewrites by result (intended, paraphrase,
//             repeated, failed),
//   escalations {level: n}  tickets by level, every level in order of severity
//               (auto_retry, model_switch, human_review, urgent_action, critical_failure),
//   escalation_reasons {level: {reason: n}}  non-zero only, levels and reasons in
//               declaration order (engine/strategies/escalation.hpp),
//   answers {answered, answered_wrongly, not_answered, by_path {path: {...}}}  tasks whose
//               query has ground truth, by verdict (engine/task_result.hpp), overall and
//               by degradation path ("clean", "relaxed_threshold+keyword_fallback", ...),
//   injected_faults {provider: {kind: n}},
//   injected_faults_cut_short {provider: {kind: n, non-zero only}}  injected faults the
//               engine saw as a timeout or cancel instead (the deadline came first),
//   injected_fault_phases {provider: {abort: n, delay: n, transform: n}}  the same faults
//               by the phase they ran in (Envoy's fault filter: a delay then continues
//               upstream, an abort answers at once, a transform rewrites the upstream
//               answer; mocks/chaos/fault.hpp), for every provider with fault rules,
//   thresholds [{metric, expression, observed, passed}], thresholds_passed,  a threshold
//               not evaluated (a client_* metric outside squall serve) has passed null and
//               not_evaluated "not measured (squall serve only)"; thresholds_passed: none failed,
//   time_series {window_ms, windows [{start_ms, tasks {succeeded, ...},
//                provider_calls {provider: {kind: n, non-zero only}},
//                injected_faults {provider: {kind: n, non-zero only}}}]}  faults by
//                window of the chaos layer's decision; per provider and kind, the
//                windows sum to injected_faults' count
//   clients  only in a live run's report (squall serve): reports/client_json.hpp
//   seeds  only in `run --seeds`'s report (cli/run_seeds.cpp adds it after the rest, which
//          is then the first seed's): reports/seed_summary.hpp's seed_summary_json
// Names are sorted. Numbers are rounded as reports/rounding.hpp says.
// A value that is undefined (a percentile without samples, an amplification without
// calls, a threshold without samples) is null.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "reports/report.hpp"

namespace squall {

inline constexpr int kReportVersion = 1;

nlohmann::ordered_json to_json(const Report& report);
// The report as written to disk: two-space indentation and a final newline.
std::string to_json_text(const Report& report);
// Writes to_json_text() atomically (reports/atomic_file.hpp). Throws std::runtime_error
// with the path and the reason; no partial file remains.
void write_json_atomic(const Report& report, const std::filesystem::path& path);

}  // namespace squall

// Report: the one report model every writer (json, text, and later md, junit, html, csv)
// renders (DESIGN section 7). Built once from the Recorder at the end of a run; plain
// data, names sorted, so writers only format.
//
// Units: times are virtual milliseconds (double) or TimePoints (integer ns since the
// start of the run); money is USD; tokens are counts. "Failed attempts" are provider
// attempts whose outcome is not `success` (empty results included).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/events.hpp"
#include "engine/runtime/time.hpp"
#include "reports/capacity_report.hpp"
#include "reports/client_report.hpp"
#include "reports/recorder.hpp"
#include "reports/threshold.hpp"

namespace squall {

// The run's identity, from the scenario and the simulator.
struct RunInfo {
  std::string scenario;  // the scenario's name
  std::uint64_t seed = 0;
  // The simulated time the run covered: at least the scenario's duration; the simulator
  // passes its clock at the end of the run when that is later. The denominator of counter
  // rates (per second) and the span of the time series.
  Nanos duration = 0;
};

// What produced a report (DESIGN section 7): enough to run it again. Set by whoever runs
// the simulation (sim/run.hpp); none of it is wall-clock time, a host name or a pointer,
// so the same command still gives the same bytes.
struct Provenance {
  std::string squall_version;              // the binary's version (CMake's PROJECT_VERSION)
  std::string scenario_file;               // as given on the command line
  std::optional<std::string> policy_file;  // --policy, when given
  std::string repro;                       // the command that reruns exactly this run
  // How --policy merged into the scenario's policy: tools skipped, tools that kept the
  // scenario's own entry (sim/scenario_loader.hpp merge_policy), one sentence each.
  std::vector<std::string> policy_notes;
};

// Nearest-rank percentiles (reports/trend.hpp) of a trend in milliseconds. All zero when
// count is 0; writers show "no samples" then.
struct LatencyStats {
  std::uint64_t count = 0;
  double p50_ms = 0;
  double p90_ms = 0;
  double p99_ms = 0;
  double max_ms = 0;
  double mean_ms = 0;
};

// Nearest-rank percentiles of what one task spent (TaskResult::tokens or cost_usd), over
// every finished task. All zero when count is 0.
struct SpendStats {
  std::uint64_t count = 0;
  double p50 = 0;
  double p90 = 0;
  double p99 = 0;
  double max = 0;
  double mean = 0;
};

struct TaskSpend {
  SpendStats tokens;    // tokens per task, failed attempts included
  SpendStats cost_usd;  // USD per task, failed attempts included
};

struct ReasonCount {
  TaskStatus status = TaskStatus::failed;
  std::string reason;
  std::uint64_t count = 0;
};

struct TemplateSummary {
  std::string name;
  StatusCounts tasks{};
  std::int64_t tokens = 0;  // spent by its tasks, failed attempts included
  double cost_usd = 0;
};

struct TaskSummary {
  std::uint64_t total = 0;
  StatusCounts by_status{};
  std::vector<ReasonCount> by_reason;        // sorted by status, then reason
  std::vector<TemplateSummary> by_template;  // sorted by name
};

struct ProviderSummary {
  std::string name;
  std::uint64_t calls = 0;  // attempts
  OutcomeCounts by_outcome{};
  LatencyStats latency;  // per attempt, every outcome
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  double cost_usd = 0;
  std::uint64_t retries_refused = 0;  // retries its retry_budget refused
  std::uint64_t throttled = 0;        // requests adaptive_throttling rejected before sending
  // Completions cut at max_output_tokens (finish_reason length): successes where no
  // validate check rejected them, `truncated` attempts where one did.
  std::uint64_t truncated = 0;
};

struct ToolSummary {
  std::string name;
  std::uint64_t logical_calls = 0;
  std::uint64_t attempts = 0;
  std::optional<double> amplification;  // attempts / logical_calls; none without calls
  OutcomeCounts by_final_outcome{};
  std::uint64_t backoffs = 0;
  Nanos backoff_wait = 0;
  std::uint64_t give_ups = 0;
  std::uint64_t query_changes = 0;
  std::uint64_t budget_refusals = 0;
  std::uint64_t reflections = 0;  // reflection calls made after this tool's errors
};

struct TokenSummary {
  std::int64_t input = 0;
  std::int64_t output = 0;
  std::int64_t burned_by_failed_attempts = 0;  // input + output of failed attempts
};

struct CostSummary {
  double total_usd = 0;
  double burned_by_failed_attempts_usd = 0;
  std::optional<double> per_task_usd;                            // total / finished tasks; none without tasks
  std::vector<std::pair<std::string, double>> per_provider_usd;  // sorted by provider
};

struct BreakerTransitionRow {
  std::string tool;      // the tool or provider whose pipeline holds the breaker
  std::string provider;  // the provider it judges; empty when unknown
  TimePoint at = 0;
  BreakerState from = BreakerState::closed;
  BreakerState to = BreakerState::closed;
};

// How often a tool's calls moved between providers (FallbackAction::switched) or passed a
// provider over, and how often a chain ran out (exhausted).
struct FallbackRow {
  std::string tool;
  FallbackAction action = FallbackAction::switched;
  std::string from;  // empty: nothing had failed yet (the primary was passed over)
  std::string to;    // empty for exhausted
  std::uint64_t count = 0;
};

// What one cache did (engine/strategies/cache.hpp): the tool or provider whose pipeline
// holds it, its events by action, the provider attempts its hits and waiters did not
// make, and the ages of its stale answers.
struct CacheSummary {
  std::string tool;
  std::array<std::uint64_t, kCacheActionCount> by_action{};  // by CacheAction
  std::uint64_t calls_saved = 0;
  LatencyStats stale_age;  // nearest-rank percentiles of the stale answers' ages, in ms
};

// What one hedging strategy did (engine/strategies/hedging.hpp): the tool or provider
// whose pipeline holds it, its events by action, and what its cancelled losers billed.
struct HedgeSummary {
  std::string tool;
  std::array<std::uint64_t, kHedgeActionCount> by_action{};  // by HedgeAction
  double loser_cost_usd = 0;
  std::int64_t loser_tokens = 0;
  // Hedges launched by the provider they went to, sorted by provider.
  std::vector<std::pair<std::string, std::uint64_t>> launched_to;
};

// What one adaptive_concurrency limiter did (engine/strategies/adaptive_concurrency.hpp):
// the tool or provider whose pipeline holds it, its events by action, its limit per
// time-series window (as time_series's windows) and its dips (reports/limiter_stats.hpp).
struct LimiterSummary {
  std::string tool;
  std::int32_t initial = 0;
  std::int32_t final = 0;
  std::int32_t lowest = 0;
  std::int32_t highest = 0;
  std::array<std::uint64_t, kLimitActionCount> by_action{};  // by LimitAction
  std::vector<LimitRange> by_window;
  std::vector<LimitDip> dips;  // in time order; an open one's recovery runs to the run's end
};

// How often a tool's calls took a rung of a semantic recovery ladder: relax_threshold's
// rungs ("dense 0.75", "keyword") and rewrite_query's rewrites by result ("intended",
// "paraphrase", "repeated", "failed").
struct LadderRow {
  std::string tool;
  std::string strategy;
  std::string rung;
  std::uint64_t count = 0;
};

// Escalation tickets (at most one per task) by level, and by level and reason.
struct EscalationSummary {
  std::uint64_t total = 0;
  std::array<std::uint64_t, kEscalationLevelCount> by_level{};
  EscalationCounts by_level_and_reason{};  // [level][condition]
};

// Tasks whose query has ground truth (engine/pool_query.hpp), by verdict, over all tasks
// and by degradation path.
struct AnswerRow {
  std::string path;  // the Degradations the tasks went through, "+"-joined; "clean": none
  AnswerCounts by_verdict{};
};

struct AnswerSummary {
  AnswerCounts by_verdict{};
  std::vector<AnswerRow> by_path;  // sorted by path
  std::uint64_t total() const;
};

struct InjectedFaultRow {
  std::string provider;
  std::string kind;
  std::uint64_t count = 0;
};

struct ThresholdResult {
  std::string metric;              // as written, tags included
  std::string expression;          // as written
  std::optional<double> observed;  // none: no samples (the threshold fails), or not evaluated
  bool passed = false;             // false: it fails the run; true: it held, or was not evaluated
  std::optional<double> margin;    // margin() in reports/threshold.hpp; none without samples
  // Why the threshold was not evaluated ("not measured (squall serve only)": a client_*
  // metric in a simulated run); empty when it was. Writers show it as skipped, never as held.
  std::string not_evaluated;
};

struct TimeWindow {
  TimePoint start = 0;
  StatusCounts tasks{};                       // tasks that finished in the window
  std::vector<OutcomeCounts> provider_calls;  // attempts that ended in it, by Report::providers
  // The end-to-end latency of the tasks that finished in the window, and what the
  // attempts that ended in it billed, by Report::providers. The HTML page charts them;
  // the JSON report and the CSV do not carry them (yet).
  LatencyStats task_latency;
  std::vector<WindowSpend> provider_spend;
  // Faults the chaos layer decided in the window, by Report::injected_faults row (the
  // same provider and kind): for each row, the windows sum to its count.
  std::vector<std::uint64_t> injected_faults;
  // Tasks started before the window's end and not finished by then (the HTML page charts it).
  std::uint64_t tasks_in_flight = 0;
};

struct TimeSeries {
  Nanos window = 0;
  std::vector<TimeWindow> windows;  // consecutive, from 0, covering the run
};

// The end-to-end latency of every finished task, in `counts.size()` buckets of `bucket`
// ns from 0 (bucket i holds [i * bucket, (i + 1) * bucket)): `bucket` is the smallest
// 1, 2 or 5 x 10^k ns that covers the longest task in at most 40 buckets. Empty without
// tasks. Exact up to SampleLog::kExactSamples tasks per template; past that, a template's
// other tasks are placed by evenly spaced ranks of its histogram (reports/latency_histogram.hpp).
struct LatencyHistogram {
  Nanos bucket = 0;
  std::vector<std::uint64_t> counts;
};

// A fault rule of a provider that holds over a window of the run (not the whole run), as
// the scenario wrote it; shared outages give one row per provider they strike.
struct FaultWindowRow {
  std::string provider;
  std::string kind;    // the FaultKind's name
  std::string outage;  // the shared outage's name; empty for the provider's own rule
  TimePoint from = 0;
  TimePoint to = 0;  // kNever: to the end of the run
  double probability = 0;
  bool flapping = false;  // active only part of every flap_period within the window
};

// A workload burst: tasks arrive at rate_per_s over [from, to).
struct BurstRow {
  TimePoint from = 0;
  TimePoint to = 0;
  double rate_per_s = 0;
};

// What the scenario scheduled over virtual time, for the HTML page's shading. Set by
// PreparedScenario::run (sim/run.hpp) from the scenario, in the scenario's order
// (providers by name, rules in file order); build_report leaves it empty.
struct ScenarioSchedule {
  std::vector<FaultWindowRow> faults;
  std::vector<BurstRow> bursts;
};

struct Report {
  Provenance produced_by;
  ScenarioSchedule schedule;
  std::string scenario;
  std::uint64_t seed = 0;
  Nanos duration = 0;
  std::uint64_t fingerprint = 0;
  TaskSummary tasks;
  LatencyStats latency;                       // end to end per task, every status
  LatencyHistogram latency_histogram;         // the same tasks' latencies, bucketed
  std::vector<ProviderSummary> providers;     // sorted by name
  std::vector<ToolSummary> tools;             // sorted by name
  std::optional<double> retry_amplification;  // all attempts / all logical calls
  TokenSummary tokens;
  CostSummary cost;
  TaskSpend task_spend;                                   // per task: the metrics task_tokens and task_cost_usd
  std::vector<BreakerTransitionRow> breaker_transitions;  // the first 1000, in time order
  std::uint64_t breaker_transitions_total = 0;
  // Transitions to open over every breaker, by BreakerCause (none stays 0).
  std::array<std::uint64_t, kBreakerCauseCount> breaker_openings{};
  std::vector<FallbackRow> fallbacks;    // sorted by tool, action, from, to
  std::vector<CacheSummary> caches;      // sorted by tool
  std::vector<HedgeSummary> hedges;      // sorted by tool
  std::vector<LimiterSummary> limiters;  // sorted by tool
  std::vector<LadderRow> ladder;         // sorted by tool, strategy, then the rung's place
  EscalationSummary escalations;
  AnswerSummary answers;
  std::vector<InjectedFaultRow> injected_faults;  // sorted by provider, then kind
  // Of those, the ones cut short by a deadline or cancel (non-zero only), same order.
  std::vector<InjectedFaultRow> injected_faults_cut_short;
  // The injected faults by phase (`kind` holds the phase: abort, delay, transform), every
  // phase of every provider with fault rules, sorted by provider, then phase name.
  std::vector<InjectedFaultRow> injected_fault_phases;
  std::vector<ThresholdResult> thresholds;  // in the given order
  TimeSeries time_series;
  // Per provider with a `capacity` block, sorted by name; windows as time_series's.
  std::vector<CapacityReport> capacity;
  // How the clients retried: a live run only (`squall serve`); none in a simulated run.
  std::optional<ClientReport> clients;

  // True when every threshold holds (exit code 0 rather than 1, DESIGN section 7).
  bool all_thresholds_passed() const;
};

// Builds the report and evaluates every threshold (reports/metric_values.hpp). `clients`,
// given by a live run, is copied into the report and measures the client_* metrics;
// without it their thresholds are not evaluated.
Report build_report(const Recorder& recorder, const RunInfo& run, std::span<const Threshold> thresholds,
                    const ClientReport* clients = nullptr);

}  // namespace squall

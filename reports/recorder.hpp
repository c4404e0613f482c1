// Recorder: streams the engine's events and the simulator's task results into the
// aggregates the report is built from (DESIGN section 1: events --> reports::Recorder).
//
// Hot path: names (providers, tools, task templates, reasons) and the fixed identifiers
// events carry (strategy names, give-up reasons, ladder steps, budget limits) are few, so
// each is interned on first sight into a small vector searched linearly, and folded into
// the fingerprint then, once; after that an event folds the name's index and only bumps
// counters in arrays indexed by OutcomeKind or TaskStatus and appends one sample to a
// trend. Nothing allocates except the first sight of a name, a new block of samples every
// 8192 samples (reports/sample_log.hpp), and the first event of a new time-series window.
//
// Determinism: the tables keep first-sight order, which is arrival order; writers sort by
// name. No unordered container is ever iterated.
//
// Provider vs tool: attempts are aggregated per provider (AttemptEvent::provider, the
// provider the attempt reached); logical calls, backoffs, give-ups, fallbacks and breaker
// transitions per tool (or per provider, for a provider stack's own strategies, whose
// events name the provider as their owner).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/events.hpp"
#include "engine/outcome.hpp"
#include "engine/runtime/time.hpp"
#include "engine/task_result.hpp"
#include "reports/capacity_report.hpp"
#include "reports/fingerprint.hpp"
#include "reports/hedge_stats.hpp"
#include "reports/limiter_stats.hpp"
#include "reports/sample_log.hpp"
#include "reports/window_sample.hpp"

namespace squall {

using OutcomeCounts = std::array<std::uint64_t, kOutcomeKindCount>;
using StatusCounts = std::array<std::uint64_t, kTaskStatusCount>;
// Tasks whose query has ground truth, by AnswerVerdict.
using AnswerCounts = std::array<std::uint64_t, kAnswerVerdictCount>;
// Escalation tickets by level, then by reason (EscalationLevel, EscalationCondition).
using EscalationCounts = std::array<std::array<std::uint64_t, kEscalationConditionCount>, kEscalationLevelCount>;

struct RecorderOptions {
  // Width of a time-series window. Default 10 s: an hour-long incident is 360 windows,
  // fine enough to show its shape and small enough to chart.
  Nanos window = 10 * kSecond;
};

// Windows beyond this index are folded into the last one, which bounds memory (DESIGN
// section 9: bounds on every queue). 100 000 windows of 10 s cover 11.5 days.
inline constexpr std::size_t kMaxWindows = 100'000;
// Breaker transitions listed one by one; later ones are only counted (the total stays
// exact). A flapping breaker can change state every few seconds for hours; a thousand rows
// show the pattern while keeping the report small.
inline constexpr std::size_t kMaxListedBreakerTransitions = 1000;

// What a provider's attempts that ended in one time-series window billed.
struct WindowSpend {
  std::int64_t tokens = 0;  // input + output
  double cost_usd = 0;
};

struct ProviderStats {
  std::string name;
  OutcomeCounts calls{};                             // attempts by outcome
  std::array<SampleLog, kOutcomeKindCount> latency;  // attempt durations (ns) by outcome
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  double cost_usd = 0;
  // What attempts whose outcome is not `success` billed (empty results included: they
  // cost tokens and gave nothing usable).
  std::int64_t failed_input_tokens = 0;
  std::int64_t failed_output_tokens = 0;
  double failed_cost_usd = 0;
  std::vector<OutcomeCounts> calls_by_window;  // attempts by outcome, by window of their end
  std::vector<WindowSpend> spend_by_window;    // what they billed, by window of their end
  std::uint64_t retries_refused = 0;           // retries its retry_budget refused (RetryRefusedEvent)
  std::uint64_t throttled = 0;                 // requests adaptive_throttling rejected locally (ThrottledEvent)
  std::uint64_t truncated = 0;                 // completions cut at max_output_tokens, accepted or not

  void add_billed(std::int64_t input, std::int64_t output, double usd) {
    input_tokens += input;
    output_tokens += output;
    cost_usd += usd;
  }
  void add_failed(std::int64_t input, std::int64_t output, double usd) {
    failed_input_tokens += input;
    failed_output_tokens += output;
    failed_cost_usd += usd;
  }
};

struct ToolStats {
  std::string name;
  std::uint64_t logical_calls = 0;
  std::uint64_t attempts = 0;                    // provider attempts of those calls
  std::vector<std::uint64_t> calls_by_attempts;  // [n]: logical calls that made n attempts
  OutcomeCounts final_outcomes{};                // logical calls by final outcome
  std::uint64_t backoffs = 0;
  Nanos backoff_wait = 0;    // total delay chosen by backoffs
  SampleLog backoff_delays;  // each backoff's delay (ns): the longest single wait is its max
  std::uint64_t give_ups = 0;
  std::uint64_t query_changes = 0;
  std::uint64_t budget_refusals = 0;
  std::uint64_t reflections = 0;                                     // reflection calls made for this tool's calls
  std::array<std::uint64_t, 3> breaker_transitions_to{};             // by BreakerState entered
  std::array<std::uint64_t, kBreakerCauseCount> breaker_openings{};  // transitions to open, by BreakerCause
};

// Per-task cost samples are integers, as every trend's are (reports/trend.hpp): USD in
// units of 1e-9 USD (nano-dollars), far below any price per token, so percentiles stay
// exact values that were observed, to a billionth of a dollar.
inline constexpr double kNanoUsdPerUsd = 1e9;

// What a cache (engine/strategies/cache.hpp) did, per tool or provider whose pipeline
// holds it.
struct CacheStats {
  std::string name;
  std::array<std::uint64_t, kCacheActionCount> actions{};  // events by CacheAction
  std::uint64_t calls_saved = 0;                           // CacheEvent::calls_saved summed
  SampleLog stale_age;                                     // ages (ns) of the stale answers
};

struct TemplateStats {
  std::string name;
  StatusCounts tasks{};
  SampleLog latency;             // end-to-end task durations (ns)
  std::int64_t tokens = 0;       // TaskResult::tokens summed
  double cost_usd = 0;           // TaskResult::cost_usd summed
  AnswerCounts answers{};        // its tasks with ground truth, by verdict
  SampleLog task_tokens;         // TaskResult::tokens, one sample per task
  SampleLog task_cost_nano_usd;  // TaskResult::cost_usd in nano-dollars, one sample per task
};

struct ReasonStats {
  std::string name;
  StatusCounts tasks{};  // tasks ended with this reason, by status
};

// provider -> fault kind -> count, sorted by name.
using InjectedFaultCounts = std::map<std::string, std::map<std::string, std::uint64_t, std::less<>>, std::less<>>;
// provider -> fault kind -> count per time-series window (from window 0 to the last with a
// fault), sorted by name.
using InjectedFaultSeries =
    std::map<std::string, std::map<std::string, std::vector<std::uint64_t>, std::less<>>, std::less<>>;

// An index that refers to nothing (a fallback without a `from`, a breaker without a
// provider).
inline constexpr std::size_t kNoIndex = SIZE_MAX;

// Fallback events of one kind between two providers of one tool.
struct FallbackStats {
  std::size_t tool = 0;  // index into tools()
  FallbackAction action = FallbackAction::switched;
  std::size_t from = kNoIndex;  // index into providers()
  std::size_t to = kNoIndex;    // index into providers()
  std::uint64_t count = 0;
};

// How often a tool's calls took one rung of a semantic recovery ladder: a
// relax_threshold rung (ThresholdRelaxEvent, `rung` its place on the ladder, `label`
// e.g. "dense 0.75") or a rewrite_query rewrite by its result (RewriteEvent, `rung` the
// RewriteResult's index, `label` its name).
struct LadderStats {
  std::size_t tool = 0;       // index into tools()
  std::string_view strategy;  // a strategy's kName (static storage)
  std::int32_t rung = 0;
  std::string label;
  std::uint64_t count = 0;
};

struct RecordedBreakerTransition {
  std::size_t tool = 0;             // index into tools()
  std::size_t provider = kNoIndex;  // index into providers()
  TimePoint at = 0;
  BreakerState from = BreakerState::closed;
  BreakerState to = BreakerState::closed;
};

class Recorder final : public EventSink {
 public:
  // Throws std::invalid_argument when options.window is not positive.
  explicit Recorder(RecorderOptions options = {});

  // EventSink: every event is folded into the fingerprint in arrival order.
  void on_attempt(const AttemptEvent& e) override;
  void on_backoff(const BackoffEvent& e) override;
  void on_give_up(const GiveUpEvent& e) override;
  void on_breaker_transition(const BreakerTransitionEvent& e) override;
  void on_query_change(const QueryChangeEvent& e) override;
  void on_budget_exhausted(const BudgetExhaustedEvent& e) override;
  void on_fallback(const FallbackEvent& e) override;
  void on_threshold_relax(const ThresholdRelaxEvent& e) override;
  void on_rewrite(const RewriteEvent& e) override;
  void on_reflection(const ReflectionEvent& e) override;
  void on_cache(const CacheEvent& e) override;
  void on_retry_refused(const RetryRefusedEvent& e) override;
  void on_throttled(const ThrottledEvent& e) override;
  void on_hedge(const HedgeEvent& e) override;
  void on_limit(const LimitEvent& e) override;
  // What the rejected attempt billed moves from the provider's successful spend to its
  // failed spend (ProviderStats::failed_*): validate made that success a failure.
  void on_validation_failed(const ValidationFailedEvent& e) override;
  // From the task runner: a task's escalation ticket (at most one per task).
  void on_escalation(const EscalationEvent& e) override;
  // From the task runner: a task ended.
  void on_task_finished(const TaskResult& result) override;
  // From the task runner: a logical tool call ended after `attempts` provider attempts
  // (0 when rejected before any, e.g. by an open breaker).
  void on_logical_call(const LogicalCallEvent& e) override;
  // At the end of the run: how many faults of `kind` the chaos layer injected into
  // `provider`, and how many in each window of window() from 0 (ChaosProvider::
  // injected_by_window; may be shorter than the run, and is empty without faults). Sets
  // (does not add to) the count. Throws std::invalid_argument when the windows do not sum
  // to `count`. Not part of the event trace, so not folded into the fingerprint.
  void set_injected_faults(std::string_view provider, std::string_view kind, std::uint64_t count,
                           std::vector<std::uint64_t> by_window = {});
  // At the end of the run: what a provider's capacity layer saw (its windows as wide as
  // window()). Replaces an earlier report for the same provider. Not part of the event
  // trace, so not folded into the fingerprint.
  void set_capacity(CapacityReport report);
  // At the end of the run: of those, how many the engine never saw as injected, because
  // the attempt's deadline (or a cancel) came first (mocks/chaos/chaos_provider.hpp,
  // cut_short()). Sets the count; only non-zero counts need setting.
  void set_injected_faults_cut_short(std::string_view provider, std::string_view kind, std::uint64_t count);
  // At the end of the run: how many of `provider`'s injected faults ran in `phase` (delay,
  // abort or transform: mocks/chaos/fault.hpp, FaultPhase). Sets the count.
  void set_injected_fault_phases(std::string_view provider, std::string_view phase, std::uint64_t count);

  Nanos window() const { return window_; }
  // Tasks finished so far (on_task_finished calls).
  std::uint64_t tasks_finished() const { return tasks_finished_; }
  std::uint64_t fingerprint() const { return fingerprint_.value(); }
  // The latest time any event carried (attempt end, task end, transition, ...).
  TimePoint last_event_at() const { return last_event_at_; }

  // Tables in first-sight order.
  const std::vector<ProviderStats>& providers() const { return providers_; }
  const std::vector<ToolStats>& tools() const { return tools_; }
  const std::vector<TemplateStats>& templates() const { return templates_; }
  const std::vector<ReasonStats>& reasons() const { return reasons_; }
  const std::vector<FallbackStats>& fallbacks() const { return fallbacks_; }
  const std::vector<CacheStats>& caches() const { return caches_; }
  const std::vector<HedgeStats>& hedges() const { return hedges_; }
  const std::vector<LimiterStats>& limiters() const { return limiters_; }
  const std::vector<LadderStats>& ladder() const { return ladder_; }
  const EscalationCounts& escalations() const { return escalations_; }
  // The first kMaxListedBreakerTransitions transitions, and how many there were in all.
  const std::vector<RecordedBreakerTransition>& breaker_transitions() const { return transitions_; }
  std::uint64_t breaker_transitions_total() const { return transitions_total_; }
  const InjectedFaultCounts& injected_faults() const { return injected_; }
  const InjectedFaultSeries& injected_faults_by_window() const { return injected_by_window_; }
  // Sorted by provider name.
  const std::vector<CapacityReport>& capacity() const { return capacity_; }
  const InjectedFaultCounts& injected_faults_cut_short() const { return cut_short_; }
  // provider -> phase -> count, sorted by name.
  const InjectedFaultCounts& injected_fault_phases() const { return phases_; }
  // Tasks with ground truth by verdict, by degradation path (TaskResult::degradations).
  const std::map<std::uint32_t, AnswerCounts>& answers_by_path() const { return answers_by_path_; }
  // Finished tasks by status, by window of their end.
  const std::vector<StatusCounts>& tasks_by_window() const { return tasks_by_window_; }
  // Tasks by the window they started in (counted when they finish).
  const std::vector<std::uint64_t>& tasks_started_by_window() const { return tasks_started_by_window_; }
  // End-to-end latencies (ns) of the tasks that finished in each window: all of them, or
  // a deterministic sample of a bounded size (reports/window_sample.hpp).
  const std::vector<WindowSample>& task_latency_by_window() const { return task_latency_by_window_; }

 private:
  // A fixed identifier carried by events, interned only for the fingerprint.
  struct Label {
    std::string name;
  };
  template <class Stats>
  std::size_t intern(std::vector<Stats>& table, std::string_view name);
  template <class Stats>
  std::size_t intern_by_search(std::vector<Stats>& table, std::string_view name);
  // Where a name was found when last interned, by the address of its text: events name
  // things by views of the engine's literals and of the scenario's names, which stay put,
  // so a name is nearly always found at its hint without searching its table (a flagship
  // ladder's rung searched ten labels). A hint is used only after comparing the text it
  // names with the table's, so it changes no index, only the cost; addresses pick a set,
  // never a result. kInternHintSets sets of two hints, picked by table and text address;
  // a set holds the last two names interned there, the later first. Two ways, because
  // with one a run's hot names, a dozen, shared a slot in about half of all heap layouts,
  // and two names taking turns in a slot were searched for on every event (the flagship
  // hour cut to ten minutes: 32M instructions, 2.4%, after an unrelated change moved the
  // scenario's names; bench/README.md); three names in one set are far rarer.
  struct InternHint {
    const char* data = nullptr;
    const void* table = nullptr;
    std::size_t index = 0;
  };
  static constexpr std::size_t kInternHintBits = 6;
  static constexpr std::size_t kInternHintSets = std::size_t{1} << kInternHintBits;
  static std::size_t hint_set(const void* table, const char* data) {
    // The top bits of an FxHasher-style product of both addresses (reports/fingerprint.hpp).
    constexpr std::uint64_t kMultiplier = 0x517cc1b727220a95ULL;
    const auto mixed =
        (reinterpret_cast<std::uintptr_t>(data) ^ (reinterpret_cast<std::uintptr_t>(table) << 7)) * kMultiplier;
    return static_cast<std::size_t>(mixed >> (64 - kInternHintBits));
  }
  std::array<std::array<InternHint, 2>, kInternHintSets> hints_{};
  template <class Stats>
  std::size_t add_name(std::vector<Stats>& table, std::string_view name);
  // The time-series window of time t. Events come in time order, so t is nearly always
  // in the window of the event before: that window is checked first, which spares a
  // 64-bit division per event.
  std::size_t window_of(TimePoint t);
  void saw_time(TimePoint t);

  Nanos window_;
  TimePoint last_window_start_ = 0;  // [start, start + window_) is window last_window_
  std::size_t last_window_ = 0;
  Fingerprint fingerprint_;
  TimePoint last_event_at_ = 0;
  std::vector<ProviderStats> providers_;
  std::vector<ToolStats> tools_;
  std::vector<TemplateStats> templates_;
  std::vector<ReasonStats> reasons_;
  std::vector<FallbackStats> fallbacks_;
  std::vector<CacheStats> caches_;
  std::vector<HedgeStats> hedges_;
  std::vector<LimiterStats> limiters_;
  std::vector<LadderStats> ladder_;
  void count_rung(std::size_t tool, std::string_view strategy, std::int32_t rung, std::string_view label);
  EscalationCounts escalations_{};
  std::vector<Label> labels_;
  std::vector<RecordedBreakerTransition> transitions_;
  std::uint64_t transitions_total_ = 0;
  InjectedFaultCounts injected_;
  InjectedFaultSeries injected_by_window_;
  std::vector<CapacityReport> capacity_;
  InjectedFaultCounts cut_short_;
  InjectedFaultCounts phases_;
  std::vector<StatusCounts> tasks_by_window_;
  std::vector<std::uint64_t> tasks_started_by_window_;
  std::vector<WindowSample> task_latency_by_window_;
  std::map<std::uint32_t, AnswerCounts> answers_by_path_;
  std::uint64_t tasks_finished_ = 0;
};

}  // namespace squall

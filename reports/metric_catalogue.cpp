#include "reports/metric_catalogue.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "engine/outcome.hpp"
#include "engine/strategies/relax_threshold.hpp"
#include "engine/strategies/rewrite_query.hpp"
#include "reports/client_report.hpp"

namespace squall {
namespace {

constexpr std::array<TagInfo, 1> kTaskTags{{{"template", TagValues::any}}};
constexpr std::array<TagInfo, 2> kCallTags{{{"provider", TagValues::any}, {"outcome", TagValues::outcome_kind}}};
constexpr std::array<TagInfo, 1> kToolTags{{{"tool", TagValues::any}}};
// The metrics of a strategy that may sit in a provider's own stack: their tool is its owner.
constexpr std::array<TagInfo, 1> kOwnerTags{{{"tool", TagValues::owner}}};
constexpr std::array<TagInfo, 2> kTokenTags{{{"provider", TagValues::any}, {"kind", TagValues::token_kind}}};
constexpr std::array<TagInfo, 1> kProviderTags{{{"provider", TagValues::any}}};
constexpr std::array<TagInfo, 2> kBreakerTags{{{"tool", TagValues::owner}, {"to", TagValues::breaker_state}}};
// Fault kinds are the chaos layer's vocabulary (mocks/), which reports/ does not link.
constexpr std::array<TagInfo, 2> kFaultTags{{{"provider", TagValues::any}, {"kind", TagValues::any}}};

constexpr std::array<TagInfo, 4> kFallbackTags{{{"tool", TagValues::any},
                                                {"from", TagValues::any},
                                                {"to", TagValues::any},
                                                {"action", TagValues::fallback_action}}};

// rung: a relax_threshold rung's label ("dense 0.75", "keyword") or a rewrite's result
// (intended, paraphrase, repeated, failed): labels depend on the policy's thresholds.
constexpr std::array<TagInfo, 3> kLadderTags{
    {{"tool", TagValues::any}, {"strategy", TagValues::ladder_strategy}, {"rung", TagValues::any}}};

constexpr std::array<TagInfo, 2> kEscalationTags{
    {{"level", TagValues::escalation_level}, {"reason", TagValues::escalation_reason}}};

constexpr std::array<TagInfo, 2> kLogicalCallTags{{{"tool", TagValues::any}, {"outcome", TagValues::outcome_kind}}};
constexpr std::array<TagInfo, 2> kHedgeTags{{{"tool", TagValues::owner}, {"action", TagValues::hedge_action}}};

constexpr std::array<TagInfo, 2> kBreakerOpeningTags{{{"tool", TagValues::owner}, {"cause", TagValues::breaker_cause}}};

constexpr std::array<TagInfo, 2> kClientLayerTags{{{"client", TagValues::any}, {"layer", TagValues::retry_layer}}};
constexpr std::array<TagInfo, 3> kClientAdviceTags{
    {{"client", TagValues::any}, {"layer", TagValues::retry_layer}, {"reason", TagValues::advice_reason}}};
constexpr std::array<TagInfo, 1> kClientTags{{{"client", TagValues::any}}};

constexpr std::array<MetricInfo, 55> kCatalogue{{
    {MetricId::task_success, "task_success", MetricType::rate, "", kTaskTags,
     "fraction of tasks that succeeded, clean or degraded"},
    {MetricId::task_degraded, "task_degraded", MetricType::rate, "", kTaskTags,
     "fraction of tasks that succeeded only in a degraded way"},
    {MetricId::task_safe_fail, "task_safe_fail", MetricType::rate, "", kTaskTags,
     "fraction of tasks that ended in a structured safe-fail result"},
    {MetricId::task_failed, "task_failed", MetricType::rate, "", kTaskTags, "fraction of tasks that failed"},
    {MetricId::task_latency, "task_latency", MetricType::trend, "ms", kTaskTags, "end-to-end virtual time per task"},
    {MetricId::call_latency, "call_latency", MetricType::trend, "ms", kCallTags, "virtual time per provider attempt"},
    {MetricId::provider_calls, "provider_calls", MetricType::counter, "", kCallTags, "provider attempts"},
    {MetricId::retry_amplification, "retry_amplification", MetricType::trend, "", kToolTags,
     "provider attempts per logical tool call"},
    {MetricId::tokens, "tokens", MetricType::counter, "", kTokenTags, "billed tokens, failed attempts included"},
    {MetricId::cost_usd, "cost_usd", MetricType::counter, "", kProviderTags, "billed USD, failed attempts included"},
    {MetricId::breaker_transitions, "breaker_transitions", MetricType::counter, "", kBreakerTags,
     "circuit-breaker state changes"},
    {MetricId::injected_faults, "injected_faults", MetricType::counter, "", kFaultTags,
     "faults injected by the chaos layer"},
    {MetricId::fallbacks, "fallbacks", MetricType::counter, "", kFallbackTags,
     "fallback events: a call moved between providers (action switched), a provider passed over, a chain exhausted"},
    {MetricId::reflections, "reflections", MetricType::counter, "", kToolTags,
     "reflection calls an LLM made to correct a tool call's arguments after a tool error"},
    {MetricId::ladder_rungs, "ladder_rungs", MetricType::counter, "", kLadderTags,
     "semantic recovery rungs taken: relax_threshold's lower thresholds and keyword searches, rewrite_query's "
     "rewrites by result"},
    {MetricId::escalations, "escalations", MetricType::counter, "", kEscalationTags,
     "escalation tickets, at most one per task, at the highest level it reached (avg: per finished task)"},
    {MetricId::answered, "answered", MetricType::rate, "", kTaskTags,
     "fraction of the tasks whose query has ground truth that answered from a relevant document"},
    {MetricId::answered_wrongly, "answered_wrongly", MetricType::rate, "", kTaskTags,
     "fraction of the tasks whose query has ground truth that answered from irrelevant documents only"},
    {MetricId::task_tokens, "task_tokens", MetricType::trend, "", kTaskTags,
     "tokens one task spent, failed attempts included"},
    {MetricId::task_cost_usd, "task_cost_usd", MetricType::trend, "", kTaskTags,
     "USD one task spent, failed attempts included"},
    {MetricId::cache_hits, "cache_hits", MetricType::counter, "", kOwnerTags,
     "calls a fresh cache entry answered without a provider call"},
    {MetricId::cache_misses, "cache_misses", MetricType::counter, "", kOwnerTags,
     "calls the cache sent on to the provider (no fresh entry, no identical call in flight)"},
    {MetricId::cache_coalesced, "cache_coalesced", MetricType::counter, "", kOwnerTags,
     "calls that waited for an identical call in flight and got its outcome (single-flight)"},
    {MetricId::cache_wait_timeouts, "cache_wait_timeouts", MetricType::counter, "", kOwnerTags,
     "calls whose deadline came while they waited for an identical call in flight"},
    {MetricId::cache_stale, "cache_stale", MetricType::counter, "", kOwnerTags,
     "stale cache answers served after a failure (stale-if-error)"},
    {MetricId::cache_stale_age, "cache_stale_age", MetricType::trend, "ms", kOwnerTags,
     "age of each stale cache answer: time since the provider gave it"},
    {MetricId::cache_evictions, "cache_evictions", MetricType::counter, "", kOwnerTags,
     "cache entries evicted to make room, least recently used first"},
    {MetricId::cache_calls_saved, "cache_calls_saved", MetricType::counter, "", kOwnerTags,
     "provider attempts cache hits and single-flight waiters did not make"},
    {MetricId::capacity_offered, "capacity_offered", MetricType::counter, "", kProviderTags,
     "requests that reached a provider's capacity layer (offered load; rate: per second)"},
    {MetricId::capacity_goodput, "capacity_goodput", MetricType::counter, "", kProviderTags,
     "2xx answers a capacity layer delivered before the client's deadline (rate: per second)"},
    {MetricId::capacity_rate_limited, "capacity_rate_limited", MetricType::counter, "", kProviderTags,
     "429s from a capacity layer's requests- or tokens-per-minute bucket"},
    {MetricId::capacity_rejected, "capacity_rejected", MetricType::counter, "", kProviderTags,
     "requests a capacity layer's queue rejected: full on arrival, or queue_timeout reached"},
    {MetricId::capacity_wasted, "capacity_wasted", MetricType::counter, "", kProviderTags,
     "requests a capacity layer served after their client had given up (wasted work)"},
    {MetricId::capacity_queue_length, "capacity_queue_length", MetricType::trend, "", kProviderTags,
     "per time window, the longest queue of a capacity layer (max: the longest of the run)"},
    {MetricId::capacity_recovery_time, "capacity_recovery_time", MetricType::trend, "ms", kProviderTags,
     "after a provider's capacity drops end, until its goodput is back to 90% of its level before them "
     "(reports/capacity_recovery.hpp); the rest of the run when it never is"},
    {MetricId::retries_refused, "retries_refused", MetricType::counter, "", kProviderTags,
     "retries a retry_budget refused (Envoy's budget or gRPC's token throttle), by the provider whose budget refused"},
    {MetricId::throttled_requests, "throttled_requests", MetricType::counter, "", kProviderTags,
     "requests adaptive_throttling rejected locally, never sent (outcome throttled)"},
    {MetricId::truncated_answers, "truncated_answers", MetricType::counter, "", kProviderTags,
     "completions cut at max_output_tokens (finish_reason length), accepted as successes or rejected by a validate "
     "check as truncated"},
    {MetricId::logical_calls, "logical_calls", MetricType::counter, "", kLogicalCallTags,
     "logical tool calls by final outcome, those refused without a provider call (bulkhead_full, "
     "rate_limiter_rejected, circuit_open) included"},
    {MetricId::hedges, "hedges", MetricType::counter, "", kHedgeTags,
     "hedging events: primary requests, hedges launched, refused by the budget, won, losers cancelled"},
    {MetricId::hedged_fraction, "hedged_fraction", MetricType::rate, "", kOwnerTags,
     "hedged attempts launched per primary request (what the hedge budget bounds)"},
    {MetricId::hedge_loser_cost_usd, "hedge_loser_cost_usd", MetricType::counter, "", kOwnerTags,
     "USD billed by attempts cancelled because another answer won (already in cost_usd)"},
    {MetricId::breaker_openings, "breaker_openings", MetricType::counter, "", kBreakerOpeningTags,
     "circuit-breaker transitions to open, by cause: consecutive failures, failure rate, slow-call rate, a failed "
     "half-open probe"},
    {MetricId::concurrency_limit, "concurrency_limit", MetricType::trend, "", kOwnerTags,
     "per time window from a limiter's first call, the lowest limit of an adaptive_concurrency limiter (tool: the "
     "tool or provider holding it)"},
    {MetricId::limit_recovery_time, "limit_recovery_time", MetricType::trend, "ms", kOwnerTags,
     "after an adaptive_concurrency limiter's decrease, until its limit was back where it was "
     "(reports/limiter_stats.hpp); the rest of the run when it never is"},
    {MetricId::burned_tokens, "burned_tokens", MetricType::counter, "", kTokenTags,
     "tokens billed by attempts that did not succeed, empty answers included (avg: per finished task)"},
    {MetricId::burned_cost_usd, "burned_cost_usd", MetricType::counter, "", kProviderTags,
     "USD billed by attempts that did not succeed, empty answers included (avg: per finished task)"},
    {MetricId::backoff_delay, "backoff_delay", MetricType::trend, "ms", kOwnerTags,
     "each retry backoff's delay, Retry-After waits included (max: the longest single wait; tool: the tool, or the "
     "provider of an sdk_retry)"},
    {MetricId::client_retry_amplification, "client_retry_amplification", MetricType::trend, "", kClientLayerTags,
     "squall serve only: HTTP attempts per logical request of a client (with layer: the first attempt and that "
     "layer's retries)"},
    {MetricId::client_retries, "client_retries", MetricType::counter, "", kClientLayerTags,
     "squall serve only: retries by layer (gateway: x-envoy-attempt-count, sdk: x-stainless-retry-count, "
     "application: an identical re-send after an error)"},
    {MetricId::client_early_retries, "client_early_retries", MetricType::counter, "", kClientLayerTags,
     "squall serve only: retries sent before the Retry-After their earlier attempt was given had elapsed"},
    {MetricId::client_retries_against_advice, "client_retries_against_advice", MetricType::counter, "",
     kClientAdviceTags,
     "squall serve only: retries of answers that said not to (x-should-retry: false, 400, 401, 403, 404, "
     "insufficient_quota, context_length_exceeded)"},
    {MetricId::client_loops, "client_loops", MetricType::counter, "", kClientTags,
     "squall serve only: identical payloads a client sent again --loop-resends times or more"},
    {MetricId::client_peak_concurrency, "client_peak_concurrency", MetricType::trend, "", kClientTags,
     "squall serve only: per client, its most requests in flight at once"},
    {MetricId::client_resent_tokens, "client_resent_tokens", MetricType::counter, "", kClientLayerTags,
     "squall serve only: input tokens of the requests that were retries"},
}};

constexpr bool catalogue_in_id_order() {
  for (std::size_t i = 0; i < kCatalogue.size(); ++i) {
    if (static_cast<std::size_t>(kCatalogue[i].id) != i) return false;
  }
  return true;
}
static_assert(catalogue_in_id_order(), "metric_info() indexes the catalogue by MetricId");

}  // namespace

std::string_view to_string(MetricType type) {
  switch (type) {
    case MetricType::rate: return "rate";
    case MetricType::trend: return "trend";
    case MetricType::counter: return "counter";
  }
  return "rate";
}

std::span<const MetricInfo> metric_catalogue() { return kCatalogue; }

const MetricInfo* find_metric(std::string_view name) {
  for (const MetricInfo& m : kCatalogue) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

const MetricInfo& metric_info(MetricId id) { return kCatalogue[static_cast<std::size_t>(id)]; }

bool live_only(MetricId id) { return id >= MetricId::client_retry_amplification; }

const TagInfo* find_tag(const MetricInfo& metric, std::string_view name) {
  for (const TagInfo& t : metric.tags) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

namespace {

template <class Range>
std::vector<std::string_view> names_of_values(const Range& values) {
  std::vector<std::string_view> names;
  for (const auto v : values) names.push_back(to_string(v));
  return names;
}

// The names a closed tag vocabulary admits, in its declaration order; empty for `any`.
const std::vector<std::string_view>& vocabulary(TagValues values) {
  static const std::vector<std::string_view> kNone;
  static const auto kOutcomes = names_of_values(all_outcome_kinds());
  static const auto kBreakers = names_of_values(kBreakerStates);
  static const std::vector<std::string_view> kTokens{"input", "output"};
  static const auto kFallbacks = names_of_values(kFallbackActions);
  static const auto kLevels = names_of_values(all_escalation_levels());
  static const auto kReasons = names_of_values(all_escalation_conditions());
  static const auto kHedges = names_of_values(kHedgeActions);
  // The strategies whose rungs Recorder::count_rung counts (reports/recorder.cpp).
  static const std::vector<std::string_view> kLadder{RelaxThresholdConfig::kName, RewriteQueryConfig::kName};
  static const auto kCauses = [] {
    std::vector<std::string_view> names;
    for (const BreakerCause c : kBreakerCauses) {
      if (c != BreakerCause::none) names.push_back(to_string(c));
    }
    return names;
  }();
  static const auto kLayers = names_of_values(kRetryLayers);
  static const auto kAdvice = names_of_values(kAdviceReasons);
  switch (values) {
    case TagValues::any:
    case TagValues::owner: return kNone;
    case TagValues::retry_layer: return kLayers;
    case TagValues::advice_reason: return kAdvice;
    case TagValues::outcome_kind: return kOutcomes;
    case TagValues::breaker_state: return kBreakers;
    case TagValues::token_kind: return kTokens;
    case TagValues::fallback_action: return kFallbacks;
    case TagValues::escalation_level: return kLevels;
    case TagValues::escalation_reason: return kReasons;
    case TagValues::hedge_action: return kHedges;
    case TagValues::breaker_cause: return kCauses;
    case TagValues::ladder_strategy: return kLadder;
  }
  return kNone;
}

}  // namespace

bool tag_value_known(TagValues values, std::string_view value) {
  if (values == TagValues::any || values == TagValues::owner) return true;
  const auto& names = vocabulary(values);
  return std::find(names.begin(), names.end(), value) != names.end();
}

std::string tag_value_list(TagValues values) {
  std::string list;
  for (const std::string_view name : vocabulary(values)) {
    if (!list.empty()) list += ", ";
    list += name;
  }
  return list;
}

}  // namespace squall

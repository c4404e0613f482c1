// fallback: an ordered chain of providers for one tool (seeds 001 and 004; LiteLLM's
// fallbacks, Portkey's fallback targets).
//
// The chain is the call's provider (the tool's primary, CallContext::provider on entry)
// followed by `providers`, ordered by `routing`:
//   in_order   as listed (the list is the priority order)
//   cheapest   by the worst-case USD of this request on each candidate (prompt in full
//              plus the output cap, ProviderDescriptor::worst_case_cost_usd), cheapest
//              first; ties keep list order
//   fastest    by the mean latency of each candidate's last 10 successful attempts in
//              this run (LatencyWindow, as LiteLLM's latency-based routing); candidates
//              not yet observed come first, so each gets measured; ties keep list order
// The primary is always first: routing orders the backups.
//
// Walking the chain, a provider is passed over without a call, with a FallbackEvent, when
//   - its context window cannot hold the prompt plus the requested output
//     (skipped_context): no prompt is sent to a model it cannot fit;
//   - it lacks a capability the request requires (Request::required, the step's
//     `requires`) (skipped_capability);
//   - the rest of the pipeline would refuse it now (skipped_budget): a budget strategy
//     inside the fallback projects the request's worst case on that provider and it does
//     not fit what the task has left (Next::refuses);
//   - with `cooldown` set, it is cooling (skipped_cooldown; engine/cooldown_board.hpp).
// Cooldowns. With `cooldown` set, each outcome of a called provider whose kind is in
// `cooldown_on` counts on the run's cooldown board; past `allowed_fails` in a minute the
// provider (for a 429 of a quota group's member: the whole group) cools for `cooldown`,
// or for the answer's Retry-After when `cooldown_from_retry_after` and it has one, capped
// at `max_cooldown` (a `cooled` event with the length). When a walk calls nobody because
// every candidate left was cooling, the call waits until the first cooldown ends
// (waited_cooldown) and walks the chain again; when that end is at or after the call's
// deadline it ends at once with the kind that cooled that provider (rate_limited,
// status 429, for a 429), as LiteLLM answers "no deployments available" with a 429.
// Otherwise the rest of the pipeline (retry, breaker, budget, ...) runs against it. Its
// outcome ends the chain unless its kind is in `on`; then the next provider is tried at
// once (switched event). A Retry-After above retry's cap and an open breaker therefore
// move on without waiting: retry gives up at once on the first, the breaker answers
// circuit_open on the second, and both kinds are in the default `on`.
//
// A non-idempotent provider's request is not sent elsewhere after an outcome that may
// have reached it (engine/retry_safety.hpp): the chain ends with that outcome.
//
// Result. The first outcome not in `on` is returned; a success from any provider but the
// primary marks the task degraded (Degradation::fallback_provider). When the chain runs
// out (exhausted event, TaskHistory::fallbacks_exhausted) the call ends with the last
// outcome of a provider that was called: the most informative error, never a context
// error invented for a candidate that was only passed over. When no provider was called
// at all the call ends with budget_exhausted if one was passed over for the budget (a
// safe-fail), else context_length, else bad_request (nothing can serve the request).
// CallContext::provider is left at the last provider tried.
#pragma once

#include <array>

#include <string>
#include <vector>

#include "engine/config_fields.hpp"
#include "engine/pipeline.hpp"
#include "engine/strategies/outcome_mask.hpp"

namespace squall {

// X(name, doc)
#define SQUALL_FALLBACK_ROUTINGS(X)                         \
  X(in_order, "backups in the order listed")                \
  X(cheapest, "backups by worst-case cost of this request") \
  X(fastest, "backups by mean latency of recent successes in the run")

enum class FallbackRouting : std::uint8_t { SQUALL_FALLBACK_ROUTINGS(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kFallbackRoutingCount = 0 SQUALL_FALLBACK_ROUTINGS(SQUALL_COUNT);
std::string_view to_string(FallbackRouting routing);

struct FallbackConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "fallback";

  // Backup providers, by name, in priority order; at least one. Required.
  std::vector<std::string> providers;
  // Outcome kinds that move the call to the next provider. Default: every failure a
  // different provider may not share: timeout, rate_limited, quota_exhausted (another
  // provider or key has its own quota), overloaded, server_error,
  // auth_error, context_length, content_filter, invalid_output, truncated, circuit_open,
  // budget_exhausted, throttled, bulkhead_full, rate_limiter_rejected (LiteLLM falls back
  // on any error after its retries, with separate lists for context-window and
  // content-policy errors, and treats its own per-deployment rpm/tpm limits as a reason to
  // route elsewhere; `empty` is not included: an empty search is usually the query's
  // fault, which simplify_query repairs; nor `cancelled`: the caller gave up, so no
  // other provider's answer is wanted).
  std::vector<OutcomeKind> on = default_on();
  FallbackRouting routing = FallbackRouting::in_order;
  // Cooldowns (LiteLLM's router: `cooldown_time`, `allowed_fails`): a provider whose
  // outcome is in `cooldown_on` more than `allowed_fails` times in a minute is passed over
  // for `cooldown`, or for its Retry-After when `cooldown_from_retry_after` (capped at
  // `max_cooldown`). Absent: no cooldowns (LiteLLM cools by default, for 5 s).
  std::optional<Nanos> cooldown;
  // LiteLLM's _is_cooldown_required: 429, 401, 408 and 5xx cool; other 4xx do not.
  std::vector<OutcomeKind> cooldown_on = default_cooldown_on();
  std::int64_t allowed_fails = 0;
  bool cooldown_from_retry_after = true;
  std::optional<Nanos> max_cooldown;

  static std::vector<OutcomeKind> default_on();
  static std::vector<OutcomeKind> default_cooldown_on();
};

namespace fallback_rules {
inline constexpr FieldRule<FallbackConfig> cooling = [](const FallbackConfig& c, const Written& w) {
  if (!w.ok("cooldown")) return Finding::skip();
  if (c.cooldown) return Finding{};
  return Finding::error("applies only when cooldown is set");
};
inline constexpr FieldRule<FallbackConfig> from_retry_after = [](const FallbackConfig& c, const Written& w) {
  if (!w.ok("cooldown") || !w.ok("cooldown_from_retry_after")) return Finding::skip();
  if (c.cooldown && c.cooldown_from_retry_after) return Finding{};
  return Finding::error("applies only when cooldown is set and cooldown_from_retry_after is true");
};
// A cap below the plain cooldown would make a failure that asks for a longer wait cool the
// provider for less than one that asks for nothing.
inline constexpr FieldRule<FallbackConfig> above_cooldown = [](const FallbackConfig& c, const Written& w) {
  if (!w.ok("cooldown") || !c.cooldown || !c.max_cooldown || *c.max_cooldown >= *c.cooldown) return Finding{};
  return Finding::error("expected a duration >= cooldown (" + format_duration(*c.cooldown) + "), got " +
                        w.quoted("max_cooldown"));
};
}  // namespace fallback_rules

constexpr auto field_table(std::type_identity<FallbackConfig>) {
  using C = FallbackConfig;
  return table<C>(
      field("providers", &C::providers, FieldKind::names).needed().doc("the backups, in priority order"),
      field("on", &C::on, FieldKind::kinds)
          .with_default(R"(["timeout", "rate_limited", "quota_exhausted", "overloaded", "server_error", "auth_error",
                                       "context_length", "content_filter", "invalid_output", "truncated", "circuit_open",
                                       "budget_exhausted", "throttled", "bulkhead_full", "rate_limiter_rejected"])")
          .doc("the kinds that move the call to the next provider")
          .source("LiteLLM: any error after its retries; not empty, not cancelled"),
      field("routing", &C::routing, FieldKind::choice)
          .choices(kAllValues<FallbackRouting, kFallbackRoutingCount>)
          .with_default(R"("in_order")")
          .doc("the order of the backups")
          .source("LiteLLM's default order"),
      duration("cooldown", &C::cooldown, DurationMin::positive)
          .doc("how long a failing provider is passed over; none: no cooldowns")
          .source("LiteLLM's cooldown_time (5 s by default there)"),
      field("cooldown_on", &C::cooldown_on, FieldKind::provider_kinds)
          .noted("a fallback's cooldown")
          .only_if(fallback_rules::cooling)
          .with_default(R"(["timeout", "rate_limited", "quota_exhausted", "overloaded", "server_error", "auth_error"])")
          .doc("the outcomes that count toward a cooldown")
          .source("LiteLLM's _is_cooldown_required: 429, 401, 408, 5xx"),
      integer("allowed_fails", &C::allowed_fails, IntRange{0, 1'000'000})
          .only_if(fallback_rules::cooling)
          .with_default("0")
          .unit("failures per minute")
          .doc("failures a provider may have in a minute before it cools")
          .source("LiteLLM's allowed_fails"),
      field("cooldown_from_retry_after", &C::cooldown_from_retry_after, FieldKind::boolean)
          .only_if(fallback_rules::cooling)
          .with_default("true")
          .doc("a failure's Retry-After sets its cooldown")
          .source("LiteLLM's deployment cooldown honours the provider's Retry-After"),
      duration("max_cooldown", &C::max_cooldown, DurationMin::positive)
          .only_if(fallback_rules::from_retry_after)
          .checked(fallback_rules::above_cooldown)
          .doc("the longest cooldown a Retry-After sets; none: no cap"));
}

class FallbackStrategy final : public Strategy {
 public:
  // `env.providers` must be set and hold every name of config.providers (the loader
  // checks them).
  FallbackStrategy(FallbackConfig config, EngineEnv env);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

  // The backups in the order `routing` gives for this request now. Exposed for tests.
  std::vector<ProviderId> order(const Request& request) const;

 private:
  struct Walk;  // one walk down the chain (fallback.cpp)

  // Why `candidate` is passed over for `request`, or nullopt when it may be called.
  std::optional<FallbackAction> pass_over(ProviderId candidate, const CallContext& ctx, const Request& request,
                                          const Next& next) const;
  // Records `outcome` of `candidate` on the registry's cooldown board (config_.cooldown set).
  void cool(const CallContext& ctx, ProviderId candidate, const Outcome& outcome) const;
  // The outcome of a chain that ran out.
  Outcome exhausted(CallContext& ctx, Walk& walk) const;
  void emit(const CallContext& ctx, FallbackAction action, ProviderId from, ProviderId to, OutcomeKind trigger,
            Nanos wait = 0) const;

  FallbackConfig config_;
  EngineEnv env_;
  std::vector<ProviderId> backups_;  // config_.providers resolved, in list order
  OutcomeMask on_;
  OutcomeMask cooldown_on_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const FallbackConfig& config, const StrategyBuild& build);

}  // namespace squall

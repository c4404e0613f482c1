// hedging: after `delay` without an acceptable answer, send the same request again, up to
// max_hedged_attempts extra attempts; the first acceptable answer wins and every attempt
// still running is cancelled.
//
// Semantics are Polly v8's HedgingStrategy (MaxHedgedAttempts, Delay; the first
// non-handled outcome wins, the other executions are cancelled) and gRPC's hedging policy
// (gRFC A6: hedgingDelay between attempts; a non-fatal failure sends the next hedged
// request at once instead of waiting out the delay). The idea is "The Tail at Scale"
// (Dean and Barroso, CACM 2013): a request still unanswered after a delay near the
// latency's high percentile is sent again, and the first answer is used.
//
// Timeline of one call (primary = attempt 0, hedges 1..max_hedged_attempts):
//   t0            attempt 0 starts
//   t0 + d        attempt 1 starts if no attempt has answered acceptably by then
//   t0 + 2d ...   and so on, each delay measured from the previous launch
// An attempt that ends in a handled outcome (retry class `transient`: timeout, 429,
// 5xx, invalid_output; or retry class `local`: a refusal without calling, such as
// circuit_open, bulkhead_full, rate_limiter_rejected, throttled, budget_exhausted) does
// not win: the next hedge launches at once (gRPC's non-fatal codes), whichever attempt
// failed (the primary failing while hedge 1 runs sends hedge 2 then, not when hedge 2's
// delay ends; gRFC A6: "the next hedged request in line is sent immediately"), and the
// call waits for the attempts still running. A local refusal is no answer from the provider: Polly
// v8's hedging handles every exception by default (ShouldHandle), a BrokenCircuitException
// or a RateLimiterRejectedException included, so it never cancels an attempt still
// running. Any other outcome (success, empty, a permanent error) is acceptable and wins:
// the attempts still running are cancelled through their cancellation tokens (engine/runtime/race.hpp). A
// cancelled loser returns with what its provider billed (an LLM's partial output); the
// provider attempt has already charged it to the task (ProviderAttempt), so losers'
// cost stays in the task's spend and in the report. When every attempt fails, the call
// ends with the outcome of the attempt that ended last (the last hedge's).
//
// Where the hedge goes: by default the same provider (CallContext::provider), as a new
// attempt with its own copy of the call's context and request. Placed in a tool's list, a
// hedge goes through the rest of the tool's pipeline and the provider's stack like the
// primary; placed in a provider's stack, it is that provider's SDK-level hedging.
// With `providers` (a tool's list only, the loader's rule), hedge k goes to
// providers[(k - 1) % size]: the list is cycled per hedged attempt, so [B] sends every
// hedge to B and [B, C] alternates B, C, B... The primary stays on the call's provider.
// Polly v8's hedging lets each hedged action choose what it calls (its ActionGenerator,
// e.g. another endpoint), and LiteLLM's fallbacks and routing send a request to another
// deployment; resilience4j has no hedging. Each named provider is resolved through the
// registry (engine/provider_registry.hpp) like fallback's backups, so a hedge meets that
// provider's own stack and state. A hedge whose provider cannot serve the request (its
// context window cannot hold the prompt plus the requested output, or it lacks a required
// capability: ProviderDescriptor::fits, Capabilities::covers) is not sent, nor is any later
// hedge of the call (as for a refused budget); it is counted as an `unservable` event. A hedge's answer that wins on
// another provider marks the task degraded (Degradation::fallback_provider), as fallback does. HedgeEvent::provider
// names the provider of each event's attempt.
//
// Side effects. A hedge re-sends the request, so it obeys the rule of every strategy that
// does (engine/retry_safety.hpp): to a provider that is not idempotent, no hedge goes
// while the previous attempt is running (it may be processing the request) nor after an
// outcome that may have reached it (a timeout, a 5xx); after one that proves it was
// refused unprocessed (a 429, a 503/529 overload) the next hedge goes at once. gRPC
// hedges only methods its service config marks idempotent; here the provider says.
//
// Pushback. A failed attempt whose answer carries a Retry-After (any form retry reads,
// engine/retry_after.hpp) holds the next hedge until the Retry-After ends, and one that
// ends at or after the call's deadline sends no more hedges: gRFC A6, "Pushback": the next
// hedged RPC is sent after the server's delay, and later ones resume their own delay from
// there (each hedge's delay runs from the launch of the one before).
//
// Budget. `budget` caps hedged attempts as a fraction of primary requests over the run:
// a hedge may launch only while hedged + 1 <= budget * primaries (both counted by this
// strategy instance, primaries counted as calls enter it), so the extra load hedging
// adds never exceeds that fraction at any point of the run. "The Tail at Scale" reports
// that deferring hedges to the 95th percentile limits the extra load to about 5%; Finagle's
// BackupRequestFilter bounds backup requests by a fraction (maxExtraLoad) the same way,
// over a sliding window; squall counts over the run, which is exact in integers and needs
// no window parameter. A hedge the budget refuses is not sent (and no later hedge of the
// call is); the primary carries on. Default: no budget, as in Polly and gRPC without
// retry throttling.
//
// Retry budgets. A hedge draws on a retry_budget inside this strategy (in the same list
// after it, or in the provider's own stack) as a retry does: before each hedge the
// strategy asks Next::admit_retry, and a refusal stops the hedge (and every later hedge of
// the call) as the hedge budget's does; the primary carries on. The hedge's attempt is
// marked as a retry (CallContext::retry), so Envoy's mode counts it among active retries,
// and gRPC's mode counts its outcome in the token bucket like any attempt's. The anchors:
// gRFC A6, "Throttling Retry Attempts and Hedged RPCs": "Throttling also applies to hedged
// RPCs. The first outgoing RPC will always be sent, but subsequent hedged RPCs will only
// be sent if token_count is greater than the threshold"; Envoy sends a hedge on per-try
// timeout through RetryStateImpl::shouldHedgeRetryPerTryTimeout, which goes through the
// same shouldRetry as any retry and so through the cluster's retry circuit breaker
// (max_retries or retry_budget), counted in upstream_rq_retry.
//
// Events (HedgeEvent): `primary` as each call enters (the budget's denominator),
// `launched` per hedge sent, `budget_denied` per hedge the hedge budget refused,
// `unservable` per hedge not sent because its provider cannot serve the request,
// `retry_budget_denied` per hedge a retry budget refused (which emits its own
// RetryRefusedEvent), `not_idempotent` per hedge not sent by the side-effect rule, `won` when a hedge's answer wins,
// `loser_cancelled` per attempt cut short by a winner, with what it billed.
//
// Defaults: max_hedged_attempts 1 and delay 2 s are Polly v8's HedgingStrategyOptions.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/config_fields.hpp"
#include "engine/pipeline.hpp"

namespace squall {

struct HedgingConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "hedging";

  // Hedged attempts beyond the primary; 1..10. Default 1 (Polly MaxHedgedAttempts;
  // gRPC caps maxAttempts, the primary included, at 5 by default).
  std::int32_t max_hedged_attempts = 1;
  // Wait before each hedge; >= 0 (0: all attempts at once). Default 2 s (Polly Delay).
  Nanos delay = 2 * kSecond;
  // Hedged attempts as a fraction of primary requests over the run, in [0, 10]; none
  // (the default): unlimited.
  std::optional<double> budget;
  // Providers the hedges go to, by name, cycled per hedged attempt; distinct, non-empty
  // when present. Empty (the default): every hedge goes to the call's own provider, as
  // in Polly and gRPC.
  std::vector<std::string> providers;
};

// Bounds: 10 hedges per call (gRPC caps maxAttempts at 5 by default); a budget of 10
// hedged attempts per primary request, the most 10 hedges can use, kept in integer parts
// per million, so 1e7 ppm times any call count stays far from overflow.
inline constexpr IntRange kMaxHedgedAttempts{1, 10};
inline constexpr NumberRange kHedgeBudget{0, false, 10};

constexpr auto field_table(std::type_identity<HedgingConfig>) {
  using C = HedgingConfig;
  return table<C>(integer("max_hedged_attempts", &C::max_hedged_attempts, kMaxHedgedAttempts)
                      .with_default("1")
                      .unit("attempts")
                      .doc("hedged attempts beyond the primary")
                      .source("Polly v8 MaxHedgedAttempts"),
                  duration("delay", &C::delay, DurationMin::zero)
                      .with_default(R"("2s")")
                      .doc("wait before each hedge")
                      .source("Polly v8 Delay"),
                  scaled("budget", &C::budget, kHedgeBudget, 1'000'000, "hedging keeps its budget in parts per million")
                      .unit("hedges per primary")
                      .doc("hedged attempts at most this fraction of primary requests; none: unlimited"),
                  field("providers", &C::providers, FieldKind::names)
                      .doc("where the hedges go, cycled; none: the call's own provider"));
}

class HedgingStrategy final : public Strategy {
 public:
  // `owner` names the strategy's pipeline in its events. With config.providers,
  // `env.providers` must be set and hold every name (the loader checks them).
  HedgingStrategy(HedgingConfig config, EngineEnv env, std::string owner);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

  std::uint64_t primaries() const { return primaries_; }
  std::uint64_t hedged() const { return hedged_; }

 private:
  struct Call;
  struct Level;
  struct Hedged;
  Task<Hedged> level(Call& call, std::int32_t k, CancellationToken token);
  Task<Hedged> run_attempt(Call& call, Level& lv, std::int32_t k, CancellationToken token);
  Task<Hedged> run_hedge(Call& call, Level& lv, std::int32_t k, CancellationToken token);
  // Whether hedge k may re-send the request after attempt k - 1 (engine/retry_safety.hpp):
  // always to an idempotent provider; to another, only once attempt k - 1 has failed with
  // an outcome that proves the request was not processed.
  bool may_resend_after(const Call& call, std::int32_t k, const Level& lv) const;
  Task<Outcome> attempt(Call& call, std::int32_t k, CancellationToken token);
  Task<void> until_cancelled(CancellationToken token);
  bool budget_allows() const;
  // The provider attempt k goes to: the call's own for the primary and without
  // `providers`, else the list's, cycled.
  ProviderId provider_of(const Call& call, std::int32_t k) const;
  // Whether provider `id` can serve the call's request (context window, capabilities).
  bool can_serve(ProviderId id, const Request& request) const;
  // Whether the retry budgets inside admit a hedge to provider `target` (asked with the
  // call's context pointed at `target`, so a budget shared per provider is the target's).
  bool admits_retry(const Call& call, ProviderId target) const;
  void emit(const Call& call, HedgeAction action, std::int32_t hedge, const Response* billed = nullptr) const;

  HedgingConfig config_;
  EngineEnv env_;
  std::string owner_;
  std::int64_t budget_ppm_ = -1;     // budget in parts per million; -1: unlimited
  std::vector<ProviderId> targets_;  // config_.providers resolved, in list order
  std::uint64_t primaries_ = 0;
  std::uint64_t hedged_ = 0;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const HedgingConfig& config, const StrategyBuild& build);

}  // namespace squall

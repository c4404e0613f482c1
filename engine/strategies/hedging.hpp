// hedging: after `delay` without an acceptable answer, send the same request again, up to
// max_hedged_attempts extra attempts; the first acceptable answer wins and the attempts
// still running are cancelled (their billed cost stays with the task). Polly v8's
// HedgingStrategy and gRPC's hedging policy (gRFC A6).
//
// Shape: HedgingConfig below; each hedge's delay runs from the launch of the one before.
// A handled failure (retry class transient or local) sends the next hedge at once; a
// Retry-After holds it; `budget` caps hedged/primary over the run; `providers` (a tool's
// list only) cycles hedges over other providers. Units: Nanos for delay, a plain fraction
// for budget. Errors: none thrown; refused hedges are HedgeEvents (budget_denied,
// retry_budget_denied, not_idempotent, unservable). When every attempt fails, the call
// ends with the outcome of the attempt that ended last.
//
// The algorithm, the rules for non-idempotent providers, pushback, the budgets, the events
// and the sources of every default: docs/strategies/hedging.md.
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

// retry_budget: a limit on retries across every logical call that reaches a provider, so
// that retries cannot multiply the load on a backend that is already failing. Two modes:
// envoy (the default; Envoy's cluster retry budget: active retries below
// max(min_retry_concurrency, budget_percent of active requests)) and grpc (gRFC A6's retry
// throttling: a token bucket kept in integer milli-tokens, retries while it is above half).
//
// Shape: RetryBudgetConfig below; one state per provider id. It must sit inside the retry
// (later in the same list, or in the provider's own stack), which asks it before each
// retry (Next::admit_retry); hedges ask it too and count as retries. Units: percent,
// attempts, tokens. Errors: none thrown; a refusal is a RetryRefusedEvent, and the retry
// ends the call with its last outcome (GiveUpEvent "retry_budget").
//
// The algorithm, placement and the sources of every default: docs/strategies/retry_budget.md.
#pragma once

#include <array>
#include <vector>

#include "engine/config_fields.hpp"
#include "engine/pipeline.hpp"
#include "engine/strategies/outcome_mask.hpp"

namespace squall {

#define SQUALL_RETRY_BUDGET_MODES(X)                                                               \
  X(envoy, "budget_percent of the active requests may be retries, at least min_retry_concurrency") \
  X(grpc, "a token bucket: failures take 1, successes add token_ratio; retries above max_tokens / 2")

enum class RetryBudgetMode : std::uint8_t { SQUALL_RETRY_BUDGET_MODES(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kRetryBudgetModeCount = 0 SQUALL_RETRY_BUDGET_MODES(SQUALL_COUNT);
std::string_view to_string(RetryBudgetMode mode);

struct RetryBudgetConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "retry_budget";

  RetryBudgetMode mode = RetryBudgetMode::envoy;
  // envoy: percent of the active requests that may be active retries, in [0, 100].
  // Default 20 (Envoy's RetryBudget.budget_percent default).
  double budget_percent = 20.0;
  // envoy: active retries always allowed, whatever the load; >= 0. Default 3 (Envoy's
  // RetryBudget.min_retry_concurrency default).
  std::int32_t min_retry_concurrency = 3;
  // grpc: the bucket's size and initial count, in milli-tokens (A6's maxTokens * 1000);
  // maxTokens is in (0, 1000]. Default 10000 (maxTokens 10, A6's example).
  std::int64_t max_milli_tokens = 10'000;
  // grpc: milli-tokens a success adds (A6's tokenRatio * 1000); >= 1. Default 100
  // (tokenRatio 0.1, A6's example).
  std::int64_t token_ratio_milli = 100;
  // grpc: outcome kinds that take a token (A6: the retryable status codes). Default: the
  // kinds the retry strategy retries by default (timeout, rate_limited, overloaded,
  // server_error, invalid_output, truncated).
  std::vector<OutcomeKind> failure_on = default_failure_on();

  static std::vector<OutcomeKind> default_failure_on();
};

// Bounds: budget_percent is a percentage; a million retries in flight; max_tokens is gRFC
// A6's range (0, 1000] from its finest value, 0.001, and token_ratio at most the same (a
// success adding more than the bucket holds means nothing more).
inline constexpr NumberRange kBudgetPercent{0, false, 100};
inline constexpr IntRange kRetryConcurrency{0, 1'000'000};
inline constexpr NumberRange kGrpcTokens{0.001, false, 1000};

constexpr auto field_table(std::type_identity<RetryBudgetConfig>) {
  using C = RetryBudgetConfig;
  // Keys of one mode only.
  constexpr FieldRule<C> envoy = [](const C& c, const Written& w) {
    if (!w.ok("mode") || c.mode == RetryBudgetMode::envoy) return Finding{};
    return Finding::error("applies only to mode \"envoy\"");
  };
  constexpr FieldRule<C> grpc = [](const C& c, const Written& w) {
    if (!w.ok("mode") || c.mode == RetryBudgetMode::grpc) return Finding{};
    return Finding::error("applies only to mode \"grpc\"");
  };
  constexpr std::string_view milli = "gRPC keeps milli-tokens";
  return table<C>(
      field("mode", &C::mode, FieldKind::choice)
          .choices(kAllValues<RetryBudgetMode, kRetryBudgetModeCount>)
          .with_default(R"("envoy")")
          .doc("Envoy's retry budget, or gRPC's retry throttling (gRFC A6)")
          .source("Envoy's cluster default"),
      number("budget_percent", &C::budget_percent, kBudgetPercent)
          .only_if(envoy)
          .with_default("20")
          .unit("percent")
          .doc("percent of the active requests that may be active retries")
          .source("Envoy RetryBudget.budget_percent"),
      integer("min_retry_concurrency", &C::min_retry_concurrency, kRetryConcurrency)
          .only_if(envoy)
          .with_default("3")
          .unit("retries")
          .doc("active retries always allowed")
          .source("Envoy RetryBudget.min_retry_concurrency"),
      scaled("max_tokens", &C::max_milli_tokens, kGrpcTokens, 1000, milli)
          .only_if(grpc)
          .with_default("10")
          .unit("tokens")
          .doc("the bucket's size and initial count")
          .source("gRFC A6's example"),
      scaled("token_ratio", &C::token_ratio_milli, kGrpcTokens, 1000, milli)
          .only_if(grpc)
          .with_default("0.1")
          .unit("tokens")
          .doc("tokens a success adds; a failure takes 1")
          .source("gRFC A6's example"),
      field("failure_on", &C::failure_on, FieldKind::provider_kinds)
          .noted("the retry budget")
          .only_if(grpc)
          .with_default(R"(["timeout", "rate_limited", "overloaded", "server_error", "invalid_output", "truncated"])")
          .doc("the kinds that take a token")
          .source("the kinds retry retries by default"));
}

class RetryBudgetStrategy final : public Strategy {
 public:
  // Events name the provider whose budget refused (CallContext::provider).
  RetryBudgetStrategy(RetryBudgetConfig config, EngineEnv env);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;
  bool admit_retry(const CallContext& ctx, const Request& request, Next next) override;

  // The state of `provider`'s budget, for tests and reports.
  struct State {
    std::int64_t active_requests = 0;  // envoy: attempts in flight, retries included
    std::int64_t active_retries = 0;   // envoy: of which retries
    std::int64_t milli_tokens = 0;     // grpc: the token count
  };
  const State& state(ProviderId provider = kNoProvider) const;
  // envoy: the active retries allowed now for `provider`.
  std::int64_t retry_limit(ProviderId provider = kNoProvider) const;

 private:
  State& state_of(ProviderId provider);
  std::string_view provider_name(ProviderId provider) const;

  RetryBudgetConfig config_;
  EngineEnv env_;
  OutcomeMask failure_on_;
  // By provider id; index 0 also serves calls without one (kNoProvider, engine tests).
  std::vector<State> states_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const RetryBudgetConfig& config, const StrategyBuild& build);

}  // namespace squall

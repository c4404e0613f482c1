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
  // The strategy's name in policies and its config keys, in the order the documentation
  // lists them (the loader's unknown-key messages list them so).
  static constexpr std::string_view kName = "retry_budget";
  static constexpr std::array<std::string_view, 6> kKeys{"mode",       "budget_percent", "min_retry_concurrency",
                                                         "max_tokens", "token_ratio",    "failure_on"};

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
  // server_error, invalid_output).
  std::vector<OutcomeKind> failure_on = default_failure_on();

  static std::vector<OutcomeKind> default_failure_on();
};

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

#include "engine/strategies/retry_budget.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "engine/provider_registry.hpp"
#include "engine/strategies/retry.hpp"

namespace squall {

std::string_view to_string(RetryBudgetMode mode) {
  static constexpr std::array<std::string_view, kRetryBudgetModeCount> kNames{SQUALL_RETRY_BUDGET_MODES(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(mode)];
}

std::vector<OutcomeKind> RetryBudgetConfig::default_failure_on() { return RetryConfig::default_retry_on(); }

RetryBudgetStrategy::RetryBudgetStrategy(RetryBudgetConfig config, EngineEnv env)
    : config_(std::move(config)), env_(env), failure_on_(config_.failure_on) {
  assert(config_.budget_percent >= 0 && config_.budget_percent <= 100 && config_.min_retry_concurrency >= 0);
  assert(config_.max_milli_tokens >= 1 && config_.token_ratio_milli >= 1);
  const std::size_t n = env_.providers != nullptr && env_.providers->size() > 0 ? env_.providers->size() : 1;
  states_.assign(n, State{0, 0, config_.max_milli_tokens});
}

RetryBudgetStrategy::State& RetryBudgetStrategy::state_of(ProviderId provider) {
  if (provider < states_.size()) return states_[provider];
  if (provider == kNoProvider) return states_.front();
  states_.resize(std::size_t{provider} + 1, State{0, 0, config_.max_milli_tokens});
  return states_[provider];
}

const RetryBudgetStrategy::State& RetryBudgetStrategy::state(ProviderId provider) const {
  return states_[provider == kNoProvider || provider >= states_.size() ? 0 : provider];
}

std::int64_t RetryBudgetStrategy::retry_limit(ProviderId provider) const {
  // Envoy: max(min_retry_concurrency, budget_percent / 100 * (rq_active + rq_pending)),
  // truncated to an integer. The product is exact for any sensible count.
  const double share =
      std::floor(config_.budget_percent * static_cast<double>(state(provider).active_requests) / 100.0);
  return std::max<std::int64_t>(config_.min_retry_concurrency, static_cast<std::int64_t>(share));
}

std::string_view RetryBudgetStrategy::provider_name(ProviderId provider) const {
  if (env_.providers != nullptr && provider < env_.providers->size()) return env_.providers->descriptor(provider).name;
  return {};
}

bool RetryBudgetStrategy::admit_retry(const CallContext& ctx, const Request& request, Next next) {
  const State& s = state(ctx.provider);
  std::int64_t level = 0;
  std::int64_t limit = 0;
  bool admitted = true;
  if (config_.mode == RetryBudgetMode::envoy) {
    level = s.active_retries;
    limit = retry_limit(ctx.provider);
    admitted = level < limit;
  } else {
    // A6: "If token_count is less than or equal to the threshold (maxTokens / 2), then
    // RPCs will not be retried"; 2 * count > max avoids halving an odd milli count.
    level = s.milli_tokens;
    limit = config_.max_milli_tokens / 2;
    admitted = 2 * s.milli_tokens > config_.max_milli_tokens;
  }
  if (!admitted) {
    env_.events.on_retry_refused(RetryRefusedEvent{ctx.task.id, ctx.tool, provider_name(ctx.provider),
                                                   to_string(config_.mode), env_.clock.now(), level, limit});
    return false;
  }
  return next.admit_retry(ctx, request);
}

Task<Outcome> RetryBudgetStrategy::execute(CallContext& ctx, Request& request, Next next) {
  const ProviderId provider = ctx.provider;
  const bool retry = ctx.retry;
  {
    State& s = state_of(provider);
    ++s.active_requests;
    if (retry) ++s.active_retries;
  }
  const std::int32_t attempts_before = ctx.attempts;
  Outcome outcome = co_await next(ctx, request);
  // The vector only grows for ids beyond the registry's (engine tests): the state is
  // looked up again after the await all the same.
  State& s = state_of(provider);
  --s.active_requests;
  if (retry) --s.active_retries;
  const bool reached_provider = ctx.attempts > attempts_before && retry_class(outcome.kind) != RetryClass::local;
  if (config_.mode == RetryBudgetMode::grpc && reached_provider) {
    if (failure_on_.contains(outcome.kind)) {
      s.milli_tokens = std::max<std::int64_t>(0, s.milli_tokens - 1000);
    } else if (outcome.kind == OutcomeKind::success || outcome.kind == OutcomeKind::empty) {
      s.milli_tokens = std::min(config_.max_milli_tokens, s.milli_tokens + config_.token_ratio_milli);
    }
  }
  co_return outcome;
}

std::unique_ptr<Strategy> make_strategy(const RetryBudgetConfig& config, const StrategyBuild& build) {
  return std::make_unique<RetryBudgetStrategy>(config, build.env);
}

}  // namespace squall

#include "engine/strategies/budget.hpp"

#include "engine/provider_registry.hpp"

namespace squall {

std::optional<BudgetStrategy::Breach> BudgetStrategy::breach(const CallContext& ctx, const Request& request,
                                                             std::int32_t iteration) const {
  const TaskContext& task = ctx.task;
  if (config_.max_iterations && iteration > *config_.max_iterations) {
    return Breach{"max_iterations", static_cast<double>(iteration - 1), static_cast<double>(iteration),
                  static_cast<double>(*config_.max_iterations)};
  }
  const ProviderDescriptor* provider = nullptr;
  if (env_.providers != nullptr && ctx.provider < env_.providers->size()) {
    provider = &env_.providers->descriptor(ctx.provider);
  }
  if (config_.max_tokens) {
    const std::int64_t output =
        provider != nullptr ? provider->output_cap(request.max_output_tokens) : request.max_output_tokens;
    const std::int64_t projected = task.tokens_spent + request.prompt_tokens + output;
    if (projected > *config_.max_tokens) {
      return Breach{"max_tokens", static_cast<double>(task.tokens_spent), static_cast<double>(projected),
                    static_cast<double>(*config_.max_tokens)};
    }
  }
  if (config_.max_cost_usd) {
    const double worst =
        provider != nullptr ? provider->worst_case_cost_usd(request.prompt_tokens, request.max_output_tokens) : 0;
    const double projected = task.cost_spent_usd + worst;
    const bool over = provider != nullptr ? projected > *config_.max_cost_usd : projected >= *config_.max_cost_usd;
    if (over) return Breach{"max_cost_usd", task.cost_spent_usd, projected, *config_.max_cost_usd};
  }
  return std::nullopt;
}

bool BudgetStrategy::refuses(const CallContext& ctx, const Request& request, Next next) const {
  return breach(ctx, request, ctx.iterations + 1).has_value() || next.refuses(ctx, request);
}

bool BudgetStrategy::admit(CallContext& ctx, const Request& request, Ticket& /*ticket*/, Outcome& outcome) {
  ++ctx.iterations;
  const auto b = breach(ctx, request, ctx.iterations);
  if (!b) return true;
  env_.events.on_budget_exhausted(
      BudgetExhaustedEvent{ctx.task.id, ctx.tool, env_.clock.now(), b->limit, b->spent, b->projected, b->maximum});
  outcome.kind = OutcomeKind::budget_exhausted;
  outcome.response.status = 0;  // no exchange took place
  return false;
}

std::unique_ptr<Strategy> make_strategy(const BudgetConfig& config, const StrategyBuild& build) {
  return std::make_unique<BudgetStrategy>(config, build.env);
}

}  // namespace squall

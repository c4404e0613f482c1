#include "engine/strategies/budget.hpp"

namespace squall {

Outcome BudgetStrategy::refuse(const CallContext& ctx, std::string_view limit, double spent, double projected,
                               double maximum) const {
  env_.events.on_budget_exhausted(
      BudgetExhaustedEvent{ctx.task.id, ctx.tool, env_.clock.now(), limit, spent, projected, maximum});
  Outcome refused;
  refused.kind = OutcomeKind::budget_exhausted;
  refused.response.status = 0;  // no exchange took place
  return refused;
}

Task<Outcome> BudgetStrategy::execute(CallContext& ctx, Request& request, Next next) {
  const TaskContext& task = ctx.task;
  if (config_.max_tokens) {
    const std::int64_t projected = task.tokens_spent + request.prompt_tokens + request.max_output_tokens;
    if (projected > *config_.max_tokens) {
      co_return refuse(ctx, "max_tokens", static_cast<double>(task.tokens_spent),
                       static_cast<double>(projected), static_cast<double>(*config_.max_tokens));
    }
  }
  if (config_.max_cost_usd && task.cost_spent_usd >= *config_.max_cost_usd) {
    co_return refuse(ctx, "max_cost_usd", task.cost_spent_usd, task.cost_spent_usd, *config_.max_cost_usd);
  }
  co_return co_await next(ctx, request);
}

}  // namespace squall

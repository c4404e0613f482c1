#include "engine/strategies/budget.hpp"

#include <cmath>

#include "engine/provider_registry.hpp"

namespace squall {

BudgetStrategy::WorstCase BudgetStrategy::worst_case(const CallContext& ctx, const Request& request) const {
  const ProviderDescriptor* provider = nullptr;
  if (env_.providers != nullptr && ctx.provider < env_.providers->size()) {
    provider = &env_.providers->descriptor(ctx.provider);
  }
  WorstCase w;
  w.tokens = request.prompt_tokens +
             (provider != nullptr ? provider->output_cap(request.max_output_tokens) : request.max_output_tokens);
  if (provider != nullptr) {
    w.usd = provider->worst_case_cost_usd(request.prompt_tokens, request.max_output_tokens);
    w.known_usd = true;
  }
  return w;
}

std::optional<BudgetStrategy::Breach> BudgetStrategy::breach(const CallContext& ctx, const Request& request,
                                                             std::int32_t iteration) const {
  const TaskContext& task = ctx.task;
  if (config_.max_iterations && iteration > *config_.max_iterations) {
    return Breach{"max_iterations", static_cast<double>(iteration - 1), static_cast<double>(iteration),
                  static_cast<double>(*config_.max_iterations)};
  }
  const WorstCase worst = worst_case(ctx, request);
  // What the task has spent, what its attempts still running may yet spend (reserved:
  // zero but while a hedge runs beside them), and this request's worst case.
  if (config_.max_tokens) {
    const std::int64_t projected = task.tokens_spent + task.reserved_tokens + worst.tokens;
    if (projected > *config_.max_tokens) {
      return Breach{"max_tokens", static_cast<double>(task.tokens_spent), static_cast<double>(projected),
                    static_cast<double>(*config_.max_tokens)};
    }
  }
  if (config_.max_cost_usd) {
    const double reserved = static_cast<double>(task.reserved_nano_usd) * 1e-9;
    const double projected = task.cost_spent_usd + reserved + worst.usd;
    const bool over = worst.known_usd ? projected > *config_.max_cost_usd : projected >= *config_.max_cost_usd;
    if (over) return Breach{"max_cost_usd", task.cost_spent_usd, projected, *config_.max_cost_usd};
  }
  return std::nullopt;
}

bool BudgetStrategy::refuses(const CallContext& ctx, const Request& request, Next next) const {
  return breach(ctx, request, ctx.iterations + 1).has_value() || next.refuses(ctx, request);
}

bool BudgetStrategy::admit(CallContext& ctx, const Request& request, Ticket& ticket, Outcome& outcome) {
  ++ctx.iterations;
  if (const auto b = breach(ctx, request, ctx.iterations)) {
    env_.events.on_budget_exhausted(
        BudgetExhaustedEvent{ctx.task.id, ctx.tool, env_.clock.now(), b->limit, b->spent, b->projected, b->maximum});
    outcome.kind = OutcomeKind::budget_exhausted;
    outcome.response.status = 0;  // no exchange took place
    return false;
  }
  // Held until the attempt settles, so that an attempt admitted meanwhile (a hedge) leaves
  // room for it; rounded up, so the hold is never less than the worst case.
  const WorstCase worst = worst_case(ctx, request);
  ticket.first = worst.tokens;
  ticket.second = static_cast<std::int64_t>(std::ceil(worst.usd * 1e9));
  ctx.task.reserved_tokens += ticket.first;
  ctx.task.reserved_nano_usd += ticket.second;
  return true;
}

void BudgetStrategy::settle(CallContext& ctx, const Ticket& ticket, Outcome& /*outcome*/) {
  // The attempt has charged what it spent (ProviderAttempt::settle runs first): its hold
  // goes.
  ctx.task.reserved_tokens -= ticket.first;
  ctx.task.reserved_nano_usd -= ticket.second;
}

std::unique_ptr<Strategy> make_strategy(const BudgetConfig& config, const StrategyBuild& build) {
  return std::make_unique<BudgetStrategy>(config, build.env);
}

}  // namespace squall

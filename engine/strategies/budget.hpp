// budget: per-task token and USD limits that count failed attempts too.
//
// Each time the strategy is entered it compares the task's spend so far (every attempt of
// every step, failed ones included: TaskContext::tokens_spent and cost_spent_usd, charged
// by the pipeline's attempt()) with the limits, and refuses the call when
//   max_tokens:    tokens_spent + prompt_tokens + max_output_tokens > max_tokens
//                  (the request's worst case; a request with max_output_tokens = 0, "the
//                  model's cap", is projected on its prompt alone)
//   max_cost_usd:  cost_spent_usd >= max_cost_usd
//                  (no projection: the price is the provider's, unknown to the engine, so
//                  the USD limit can be overshot by the one attempt that crosses it)
// A refused call does not reach the provider: it returns budget_exhausted (status 0) and
// emits a BudgetExhaustedEvent, which ends the task as a structured safe-fail instead of
// a guess (seed 001). The token limit is checked first. Place budget inside retry so that
// every attempt is checked; retry does not retry budget_exhausted by default.
#pragma once

#include <optional>

#include "engine/pipeline.hpp"

namespace squall {

struct BudgetConfig {
  // Token limit per task, input and output together. Default: none.
  std::optional<std::int64_t> max_tokens;
  // USD limit per task. Default: none.
  std::optional<double> max_cost_usd;
};

class BudgetStrategy final : public Strategy {
 public:
  BudgetStrategy(BudgetConfig config, EngineEnv env) : config_(config), env_(env) {}
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

 private:
  // Emits the event and builds the refusal.
  Outcome refuse(const CallContext& ctx, std::string_view limit, double spent, double projected,
                 double maximum) const;

  BudgetConfig config_;
  EngineEnv env_;
};

}  // namespace squall

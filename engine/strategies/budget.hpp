// budget: per-task token and USD limits that count failed attempts too.
//
// Before each attempt the strategy compares the task's spend (every attempt of every step
// so far, failed ones included: TaskContext::tokens_spent and cost_spent_usd) plus the
// request's worst case (prompt_tokens + max_output_tokens) with the limits. If the attempt
// could exceed a limit it is not made: the call returns budget_exhausted, which ends the
// task as a structured safe-fail instead of a guess (seed 001). Place budget inside retry
// so that every attempt is checked.
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
  BudgetConfig config_;
  EngineEnv env_;
};

}  // namespace squall

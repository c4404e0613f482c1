// budget: per-task token and USD limits that count failed attempts too, and an iteration
// cap on the recovery rounds of one logical call (seed 001).
//
// Each time the strategy is entered (one round: a retry attempt, a fallback candidate, a
// simplified query) it counts the round (CallContext::iterations) and admits the request
// only if its worst case fits what the task has left. The task's spend so far is every
// attempt of every step, failed ones included (TaskContext::tokens_spent and
// cost_spent_usd, charged by the provider attempt). The request's worst case on the
// provider it goes to (CallContext::provider's descriptor) is
//   tokens:  prompt_tokens + output cap, where the output cap is the request's
//            max_output_tokens, bounded by the model's own max_output_tokens, or the
//            model's when the request sets none (ProviderDescriptor::output_cap)
//   USD:     prompt_tokens * input price + output cap * output price, per million
// and the strategy refuses when
//   max_iterations:  iterations > max_iterations
//   max_tokens:      tokens_spent + worst-case tokens > max_tokens
//   max_cost_usd:    cost_spent_usd + worst-case USD > max_cost_usd
// checked in that order. Without a registry (engine tests) the descriptor is unknown: the
// output cap is the request's max_output_tokens and the USD projection is 0 (the spend
// alone is compared, with >=). Admission by worst case is what makes the limits hold:
// admitting on the prompt alone let one uncapped completion spend four times the budget.
//
// Attempts running at once. Each admitted attempt holds its worst case against the task
// until it settles (TaskContext::reserved_tokens, reserved_nano_usd), and the checks above
// add what the task's running attempts hold to its spend. One attempt at a time (every
// strategy but hedging) holds nothing when the next is admitted; with hedging inside,
// a hedge is admitted only if its worst case fits beside the primary's, so the attempts
// together can never overspend, where each alone measured against the spend so far let
// three hedged attempts of 1,500 tokens each spend up to 3,632 tokens against 2,500.
//
// A refused call does not reach the provider: it returns budget_exhausted (status 0) and
// emits a BudgetExhaustedEvent, which ends the task as a structured safe-fail instead of
// a guess (seed 001). refuses() answers the same question without counting a round or
// emitting, so retry does not sleep a backoff whose next attempt would be refused, and
// fallback passes over a candidate the budget cannot afford. Place budget inside retry
// and fallback so that every attempt and candidate is checked; retry does not retry
// budget_exhausted by default.
#pragma once

#include <array>

#include <optional>

#include "engine/config_fields.hpp"
#include "engine/pipeline.hpp"

namespace squall {

struct BudgetConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "budget";

  // Token limit per task, input and output together. Default: none.
  std::optional<std::int64_t> max_tokens;
  // USD limit per task. Default: none.
  std::optional<double> max_cost_usd;
  // Rounds per logical call. Default: none.
  std::optional<std::int32_t> max_iterations;
};

// Bounds: 1e15 tokens per task, beyond any budget and far from int64 overflow when a
// call's tokens are added; a billion USD per task; 1000 rounds, retry's max_attempts bound.
inline constexpr IntRange kBudgetTokens{1, 1'000'000'000'000'000};
inline constexpr NumberRange kBudgetCostUsd{0, true, 1e9};
inline constexpr IntRange kBudgetIterations{1, 1000};

constexpr auto field_table(std::type_identity<BudgetConfig>) {
  using C = BudgetConfig;
  constexpr FieldRule<C> any = [](const C&, const Written& w) {
    if (w.has("max_tokens") || w.has("max_cost_usd") || w.has("max_iterations")) return Finding{};
    return Finding::object_error("expected at least one of: max_tokens, max_cost_usd, max_iterations");
  };
  return table<C>(integer("max_tokens", &C::max_tokens, kBudgetTokens)
                      .unit("tokens")
                      .doc("tokens per task, input and output, failed attempts included; none: no limit"),
                  number("max_cost_usd", &C::max_cost_usd, kBudgetCostUsd)
                      .unit("USD")
                      .doc("USD per task, failed attempts included; none: no limit"),
                  integer("max_iterations", &C::max_iterations, kBudgetIterations)
                      .unit("rounds")
                      .doc("rounds per logical call; none: no limit"))
      .then(any);
}

class BudgetStrategy final : public Gate {
 public:
  BudgetStrategy(BudgetConfig config, EngineEnv env) : config_(config), env_(env) {}
  // A gate (engine/pipeline.hpp): it counts the round, refuses a call that would break a
  // limit, and holds an admitted call's worst case (tokens, nano-USD in its ticket) until
  // the call settles.
  bool admit(CallContext& ctx, const Request& request, Ticket& ticket, Outcome& outcome) override;
  bool refuses(const CallContext& ctx, const Request& request, Next next) const override;
  // Releases the admitted attempt's hold on the task's budget (TaskContext::reserved_*).
  void settle(CallContext& ctx, const Ticket& ticket, Outcome& outcome) override;

 private:
  // A request's worst case on the provider it goes to (see the header); USD unknown
  // (0) without a registry.
  struct WorstCase {
    std::int64_t tokens = 0;
    double usd = 0;
    bool known_usd = false;
  };
  WorstCase worst_case(const CallContext& ctx, const Request& request) const;
  // The limit the request would break in round `iteration`, with its figures.
  struct Breach {
    std::string_view limit;
    double spent = 0;
    double projected = 0;
    double maximum = 0;
  };
  std::optional<Breach> breach(const CallContext& ctx, const Request& request, std::int32_t iteration) const;

  BudgetConfig config_;
  EngineEnv env_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const BudgetConfig& config, const StrategyBuild& build);

}  // namespace squall

#include "engine/policy.hpp"

#include <fmt/format.h>

namespace squall {
namespace {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};

}  // namespace

std::string_view strategy_name(const StrategyConfig& config) {
  return std::visit(Overloaded{
                        [](const TimeoutConfig&) { return std::string_view("timeout"); },
                        [](const RetryConfig&) { return std::string_view("retry"); },
                        [](const CircuitBreakerConfig&) { return std::string_view("circuit_breaker"); },
                        [](const SimplifyQueryConfig&) { return std::string_view("simplify_query"); },
                        [](const BudgetConfig&) { return std::string_view("budget"); },
                        [](const FallbackConfig&) { return std::string_view("fallback"); },
                        [](const ValidateConfig&) { return std::string_view("validate"); },
                        [](const ReflectConfig&) { return std::string_view("reflect"); },
                        [](const EscalationConfig&) { return std::string_view("escalation"); },
                    },
                    config);
}

const EscalationConfig* find_escalation(const std::vector<StrategyConfig>& strategies) {
  for (const StrategyConfig& config : strategies) {
    if (const auto* escalation = std::get_if<EscalationConfig>(&config)) return escalation;
  }
  return nullptr;
}

std::vector<std::unique_ptr<Strategy>> build_strategies(std::string_view owner,
                                                        const std::vector<StrategyConfig>& strategies,
                                                        EngineEnv env, const RngFactory& rngs,
                                                        std::vector<std::unique_ptr<Rng>>& rngs_out) {
  std::vector<std::unique_ptr<Strategy>> chain;
  chain.reserve(strategies.size());
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    const StrategyConfig& config = strategies[i];
    auto stream = [&]() -> Rng& {
      rngs_out.push_back(rngs(fmt::format("policy/{}/{}/{}", owner, i, strategy_name(config))));
      return *rngs_out.back();
    };
    std::unique_ptr<Strategy> strategy = std::visit(
        Overloaded{
            [&](const TimeoutConfig& c) -> std::unique_ptr<Strategy> {
              return std::make_unique<TimeoutStrategy>(c, env.clock);
            },
            [&](const RetryConfig& c) -> std::unique_ptr<Strategy> {
              return std::make_unique<RetryStrategy>(c, env, stream());
            },
            [&](const CircuitBreakerConfig& c) -> std::unique_ptr<Strategy> {
              return std::make_unique<CircuitBreakerStrategy>(c, env, std::string(owner));
            },
            [&](const SimplifyQueryConfig& c) -> std::unique_ptr<Strategy> {
              return std::make_unique<SimplifyQueryStrategy>(c, env);
            },
            [&](const BudgetConfig& c) -> std::unique_ptr<Strategy> {
              return std::make_unique<BudgetStrategy>(c, env);
            },
            [&](const FallbackConfig& c) -> std::unique_ptr<Strategy> {
              return std::make_unique<FallbackStrategy>(c, env);
            },
            [&](const ValidateConfig& c) -> std::unique_ptr<Strategy> {
              return std::make_unique<ValidateStrategy>(c);
            },
            [&](const ReflectConfig& c) -> std::unique_ptr<Strategy> {
              return std::make_unique<ReflectStrategy>(c, env);
            },
            [&](const EscalationConfig&) -> std::unique_ptr<Strategy> {
              return nullptr;  // applied by the task runner (find_escalation), not in the call path
            },
        },
        config);
    if (strategy != nullptr) chain.push_back(std::move(strategy));
  }
  return chain;
}

BuiltPipeline build_pipeline(std::string_view owner, const std::vector<StrategyConfig>& strategies,
                             Provider& provider, EngineEnv env, const RngFactory& rngs) {
  BuiltPipeline built;
  auto chain = build_strategies(owner, strategies, env, rngs, built.rngs);
  built.pipeline = std::make_unique<Pipeline>(provider, env, std::move(chain));
  return built;
}

BuiltPipeline build_pipeline(std::string_view owner, const std::vector<StrategyConfig>& strategies,
                             Terminal& terminal, EngineEnv env, const RngFactory& rngs) {
  BuiltPipeline built;
  auto chain = build_strategies(owner, strategies, env, rngs, built.rngs);
  built.pipeline = std::make_unique<Pipeline>(terminal, std::move(chain));
  return built;
}

}  // namespace squall

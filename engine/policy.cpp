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
                    },
                    config);
}

BuiltPipeline build_pipeline(std::string_view tool, const std::vector<StrategyConfig>& strategies,
                             Provider& provider, EngineEnv env, const RngFactory& rngs) {
  BuiltPipeline built;
  std::vector<std::unique_ptr<Strategy>> chain;
  chain.reserve(strategies.size());
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    const StrategyConfig& config = strategies[i];
    auto stream = [&]() -> Rng& {
      built.rngs.push_back(rngs(fmt::format("policy/{}/{}/{}", tool, i, strategy_name(config))));
      return *built.rngs.back();
    };
    chain.push_back(std::visit(
        Overloaded{
            [&](const TimeoutConfig& c) -> std::unique_ptr<Strategy> {
              return std::make_unique<TimeoutStrategy>(c, env.clock);
            },
            [&](const RetryConfig& c) -> std::unique_ptr<Strategy> {
              return std::make_unique<RetryStrategy>(c, env, stream());
            },
            [&](const CircuitBreakerConfig& c) -> std::unique_ptr<Strategy> {
              return std::make_unique<CircuitBreakerStrategy>(c, env, std::string(tool));
            },
            [&](const SimplifyQueryConfig& c) -> std::unique_ptr<Strategy> {
              return std::make_unique<SimplifyQueryStrategy>(c, env);
            },
            [&](const BudgetConfig& c) -> std::unique_ptr<Strategy> {
              return std::make_unique<BudgetStrategy>(c, env);
            },
        },
        config));
  }
  built.pipeline = std::make_unique<Pipeline>(provider, env, std::move(chain));
  return built;
}

}  // namespace squall

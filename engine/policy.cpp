#include "engine/policy.hpp"

#include <fmt/format.h>

namespace squall {
namespace {

// Escalation is applied by the task runner (find_escalation), not in the call path.
std::unique_ptr<Strategy> make_strategy(const EscalationConfig&, const StrategyBuild&) { return nullptr; }

}  // namespace

std::string_view strategy_name(const StrategyConfig& config) {
  return std::visit([](const auto& c) { return std::decay_t<decltype(c)>::kName; }, config);
}

const EscalationConfig* find_escalation(const std::vector<StrategyConfig>& strategies) {
  for (const StrategyConfig& config : strategies) {
    if (const auto* escalation = std::get_if<EscalationConfig>(&config)) return escalation;
  }
  return nullptr;
}

std::vector<std::unique_ptr<Strategy>> build_strategies(std::string_view owner,
                                                        const std::vector<StrategyConfig>& strategies, EngineEnv env,
                                                        const RngFactory& rngs,
                                                        std::vector<std::unique_ptr<Rng>>& rngs_out) {
  std::vector<std::unique_ptr<Strategy>> chain;
  chain.reserve(strategies.size());
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    const StrategyConfig& config = strategies[i];
    const StrategyBuild build{
        owner, env, [&, i]() -> Rng& {
          rngs_out.push_back(rngs(fmt::format("policy/{}/{}/{}", owner, i, strategy_name(config))));
          return *rngs_out.back();
        }};
    std::unique_ptr<Strategy> strategy = std::visit([&](const auto& c) { return make_strategy(c, build); }, config);
    if (strategy != nullptr) chain.push_back(std::move(strategy));
  }
  return chain;
}

BuiltPipeline build_pipeline(std::string_view owner, const std::vector<StrategyConfig>& strategies, Provider& provider,
                             EngineEnv env, const RngFactory& rngs) {
  BuiltPipeline built;
  auto chain = build_strategies(owner, strategies, env, rngs, built.rngs);
  built.pipeline = std::make_unique<Pipeline>(provider, env, std::move(chain));
  return built;
}

BuiltPipeline build_pipeline(std::string_view owner, const std::vector<StrategyConfig>& strategies, Terminal& terminal,
                             EngineEnv env, const RngFactory& rngs) {
  BuiltPipeline built;
  auto chain = build_strategies(owner, strategies, env, rngs, built.rngs);
  built.pipeline = std::make_unique<Pipeline>(terminal, std::move(chain));
  return built;
}

}  // namespace squall

// Policy: the strategies of each tool, as a scenario's `policy` block lists them, and the
// builder that turns one tool's list into a Pipeline.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/pipeline.hpp"
#include "engine/runtime/rng.hpp"
#include "engine/strategies/strategy_list.hpp"

namespace squall {

// The key a strategy has in scenario files ("timeout", "retry", ...).
std::string_view strategy_name(const StrategyConfig& config);

// Tool or provider name -> its strategies, outermost first. A tool's entry is its
// pipeline; a provider's entry (a name that is a provider and not a tool) is that
// provider's own stack, shared by every tool that reaches it. A tool without an entry
// calls its provider directly.
using PolicyConfig = std::map<std::string, std::vector<StrategyConfig>, std::less<>>;

// The escalation item of a tool's list (the first, if several), or nullptr. Escalation
// is a task-level decision the task runner applies (engine/strategies/escalation.hpp);
// build_strategies puts no strategy in the call path for it.
const EscalationConfig* find_escalation(const std::vector<StrategyConfig>& strategies);

// Supplies the random stream of a component by name; the simulator derives it from the
// run's seed (stream_seed), so each strategy's draws are independent of all others.
using RngFactory = std::function<std::unique_ptr<Rng>(std::string_view component)>;

// Owns a pipeline and the random streams of its strategies.
struct BuiltPipeline {
  std::vector<std::unique_ptr<Rng>> rngs;
  std::unique_ptr<Pipeline> pipeline;
};

// Builds the strategies of `owner` (a tool or a provider), outermost first. Strategy i's
// stream is named "policy/<owner>/<i>/<name>"; the streams are appended to `rngs_out`.
// Strategies that reach other providers (fallback, reflect) need env.providers.
std::vector<std::unique_ptr<Strategy>> build_strategies(std::string_view owner,
                                                        const std::vector<StrategyConfig>& strategies, EngineEnv env,
                                                        const RngFactory& rngs,
                                                        std::vector<std::unique_ptr<Rng>>& rngs_out);

// Builds the pipeline of `owner` ending in an attempt on `provider`.
BuiltPipeline build_pipeline(std::string_view owner, const std::vector<StrategyConfig>& strategies, Provider& provider,
                             EngineEnv env, const RngFactory& rngs);
// Builds the pipeline of `owner` ending in `terminal` (a tool's, ending in the registry).
BuiltPipeline build_pipeline(std::string_view owner, const std::vector<StrategyConfig>& strategies, Terminal& terminal,
                             EngineEnv env, const RngFactory& rngs);

}  // namespace squall

// rewrite_query: when a search comes back empty, ask an LLM to rewrite the query and
// search again with the rewrite, up to max_rewrites times (seed 001's query rewriting;
// Ma et al., "Query Rewriting for Retrieval-Augmented Large Language Models", EMNLP 2023).
//
// Shape: RewriteQueryConfig below. The rewrite call goes through the named LLM provider's
// own stack in the registry, billed to the task and bounded by the call's deadline; none
// is bought that the rest of the pipeline would refuse (Next::refuses). A rewrite equal to
// a query already issued in the call (after normalisation) is not issued. Units: tokens
// for prompt_tokens and max_output_tokens. Errors: none thrown; a failed rewrite ends the
// ladder and the last search outcome (`empty`) is returned; a success after a rewrite marks
// the task degraded (rewritten_query). The query is restored before returning.
//
// The algorithm, the prompt, the mock's rewrites, events, placement and the sources of
// every default: docs/strategies/rewrite_query.md.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/pipeline.hpp"

namespace squall {

struct RewriteQueryConfig {
  // The strategy's name in policies and its config keys, in the order the documentation
  // lists them (the loader's unknown-key messages list them so).
  static constexpr std::string_view kName = "rewrite_query";
  static constexpr std::array<std::string_view, 4> kKeys{"provider", "prompt_tokens", "max_output_tokens",
                                                         "max_rewrites"};

  // The LLM provider that rewrites, by name. Required.
  std::string provider;
  // Tokens of the rewrite prompt's instructions, before the query is added. Default 200
  // (an assumption: a few sentences asking for a search query that a vector index can
  // match, with an example or two).
  std::int64_t prompt_tokens = 200;
  // The rewrite's cap on output tokens. Default 100: a search query is one line (a few
  // dozen tokens), and a cap the answer runs into truncates it (invalid_output), which
  // would fail the rewrite for the cap's sake.
  std::int64_t max_output_tokens = 100;
  // Rewrites per logical call at most; >= 1. Default 1 (seed 001 rewrites a failing
  // query once, as the last rung of its ladder).
  std::int32_t max_rewrites = 1;
};

class RewriteQueryStrategy final : public Strategy {
 public:
  // `env.providers` must be set and hold config.provider (the loader checks it).
  RewriteQueryStrategy(RewriteQueryConfig config, EngineEnv env);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

 private:
  RewriteQueryConfig config_;
  EngineEnv env_;
  ProviderId llm_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const RewriteQueryConfig& config, const StrategyBuild& build);

}  // namespace squall

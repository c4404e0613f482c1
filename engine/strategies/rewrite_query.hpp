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

#include "engine/config_fields.hpp"
#include "engine/pipeline.hpp"

namespace squall {

struct RewriteQueryConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "rewrite_query";

  // The LLM provider that rewrites, by name. Required.
  std::string provider;
  // Tokens of the rewrite prompt's instructions, before the query is added. Default 200
  // (an assumption: a few sentences asking for a search query that a vector index can
  // match, with an example or two).
  std::int64_t prompt_tokens = 200;
  // The rewrite's cap on output tokens. Default 100: a search query is one line (a few
  // dozen tokens), and a cap the answer runs into cuts the query short.
  std::int64_t max_output_tokens = 100;
  // Rewrites per logical call at most; >= 1. Default 1 (seed 001 rewrites a failing
  // query once, as the last rung of its ladder).
  std::int32_t max_rewrites = 1;
};

// Bounds: 1e9 tokens, the providers' bound; 100 rewrites of one query, each an LLM call.
inline constexpr IntRange kRewriteTokens{1, 1'000'000'000};
inline constexpr IntRange kMaxRewrites{1, 100};

constexpr auto field_table(std::type_identity<RewriteQueryConfig>) {
  using C = RewriteQueryConfig;
  return table<C>(field("provider", &C::provider, FieldKind::text).needed().doc("the llm provider that rewrites"),
                  integer("prompt_tokens", &C::prompt_tokens, kRewriteTokens)
                      .with_default("200")
                      .unit("tokens")
                      .doc("the rewrite prompt's instructions; the query adds ceil(bytes / 4)")
                      .source("an assumption: a few sentences and an example"),
                  integer("max_output_tokens", &C::max_output_tokens, kRewriteTokens)
                      .with_default("100")
                      .unit("tokens")
                      .doc("the rewrite's output cap")
                      .source("a search query is one line"),
                  integer("max_rewrites", &C::max_rewrites, kMaxRewrites)
                      .with_default("1")
                      .unit("rewrites")
                      .doc("rewrites per logical call at most")
                      .source("seed 001 rewrites a failing query once"));
}

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

// rewrite_query: when a search comes back empty, ask an LLM to rewrite the query and
// search again with the rewrite (seed 001's query rewriting, the last rung of its
// semantic recovery ladder; "query rewriting" in RAG pipelines, Ma et al., "Query
// Rewriting for Retrieval-Augmented Large Language Models", EMNLP 2023).
//
//   outcome = next(request)                           # the ladder below (relax, retry, ...)
//   tried = {the query}
//   for n in 1 .. max_rewrites, while outcome is `empty`:
//     if now >= the call's deadline: stop
//     prompt = {query, origin, prompt_tokens + tokens(query), max_output_tokens,
//               rewrite_attempt n}
//     if the rest of the pipeline would refuse the prompt on the LLM (the task's budget,
//        Next::refuses): stop
//     answer = registry.run(provider, prompt)         # billed and timed like any LLM call
//     emit RewriteEvent
//     if answer is not success: stop                  # a failed rewrite ends the ladder
//     if the rewrite (normalised) is in tried: continue   # never re-issue a query
//     tried += rewrite; emit QueryChangeEvent; outcome = next(request with the rewrite)
//   return outcome
//
// The rewrite call goes through the named LLM provider's own stack in the registry (its
// SDK retries, its breaker), from a copy of the call's context, as reflect's call does:
// it shares the task (its tokens and USD are charged to TaskContext::tokens_spent and
// cost_spent_usd like any attempt, failed ones included, so the task's budget sees
// them) and the call's deadline, but not the tool's per-attempt timeout, attempt count
// or iterations. Before the call, the rest of the tool's pipeline is asked whether it
// would refuse the prompt on the LLM provider (a budget inside the strategy projects the
// prompt on the LLM's prices, and counts the round the rewritten query would need), so
// no rewrite is bought that the budget cannot afford or that could not be searched.
//
// The prompt is `prompt_tokens` (the instructions) plus the query's tokens
// (engine/token_estimate.hpp). Every rewrite asks to rewrite the call's query as it
// entered the strategy. The answer is the rewritten query, in Response::tool_result
// (empty: the query came back unchanged); how the mock LLM answers is in mocks/llm.hpp.
// Rewritten queries are compared with every query issued in the call after whitespace
// normalisation (normalised_query): an identical one is not issued (RewriteResult
// repeated) and the next rewrite, if any, is asked for.
//
// The rewritten query goes through the rest of the pipeline like the first one, so a
// relax_threshold below starts its ladder again at its initial threshold. Only `empty`
// asks for a rewrite; any other outcome (success, a systemic failure that retry and
// fallback below could not repair) is returned as is.
//
// Result. A success after a rewrite marks the task degraded (Degradation::
// rewritten_query). When the rewrites run out, or one fails, the last search outcome is
// returned: `empty`, which the task runner makes a safe-fail (no_records_found). The
// query is restored before the strategy returns (Request::query: a change is scoped to
// the call).
//
// The RewriteEvent says whether the rewrite reached the query's intended form
// (PoolQuery::rewrite, which only the simulator knows) or a paraphrase: for the report
// only; no decision of the strategy reads it.
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
  // dozen tokens), and a cap the answer runs into truncates it (invalid_output), which
  // would fail the rewrite for the cap's sake.
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

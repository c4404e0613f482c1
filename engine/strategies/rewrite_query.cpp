#include "engine/strategies/rewrite_query.hpp"

#include <algorithm>
#include <cassert>
#include <deque>
#include <utility>
#include <vector>

#include "engine/provider_registry.hpp"
#include "engine/strategies/simplify_query.hpp"
#include "engine/token_estimate.hpp"

namespace squall {

RewriteQueryStrategy::RewriteQueryStrategy(RewriteQueryConfig config, EngineEnv env)
    : config_(std::move(config)), env_(env), llm_(kNoProvider) {
  assert(env_.providers != nullptr && config_.max_rewrites >= 1);
  const auto id = env_.providers->find(config_.provider);
  assert(id.has_value());
  llm_ = *id;
}

Task<Outcome> RewriteQueryStrategy::execute(CallContext& ctx, Request& request, Next next) {
  Outcome outcome = co_await next(ctx, request);
  if (outcome.kind != OutcomeKind::empty) co_return outcome;

  const std::string_view original = request.query;  // the caller's text, what every rewrite asks to rewrite
  std::vector<std::string> tried{normalised_query(original)};
  // The rewrites sent, which the request views in turn: a deque, whose push_back never
  // moves the text the request views while change_query reports the change from it.
  std::deque<std::string> sent;
  const std::string_view intended = request.origin != nullptr ? std::string_view(request.origin->rewrite) : "";
  bool rewritten = false;
  for (std::int32_t n = 1; n <= config_.max_rewrites && outcome.kind == OutcomeKind::empty; ++n) {
    if (env_.clock.now() >= ctx.deadline) break;
    Request prompt;
    prompt.query = original;
    prompt.origin = request.origin;
    prompt.prompt_tokens = config_.prompt_tokens + estimate_tokens(original);
    prompt.max_output_tokens = config_.max_output_tokens;
    prompt.rewrite_attempt = static_cast<std::uint32_t>(n);
    CallContext rewrite = ctx;  // the task and deadline; not the tool's timeout, attempts or rounds
    rewrite.provider = llm_;
    if (next.refuses(rewrite, prompt)) break;
    rewrite.attempt_timeout = kNever;
    rewrite.attempts = 0;
    rewrite.iterations = 0;

    const TimePoint started = env_.clock.now();
    const Outcome answer = co_await env_.providers->run(rewrite, prompt);
    const Response& r = answer.response;
    const std::string_view text = r.tool_result().empty() ? std::string_view(original) : r.tool_result();
    RewriteResult result = RewriteResult::failed;
    std::string normalised;
    if (answer.kind == OutcomeKind::success) {
      normalised = normalised_query(text);
      if (std::find(tried.begin(), tried.end(), normalised) != tried.end()) {
        result = RewriteResult::repeated;
      } else {
        result = !intended.empty() && text == intended ? RewriteResult::intended : RewriteResult::paraphrase;
      }
    }
    env_.events.on_rewrite(RewriteEvent{ctx.task.id, ctx.tool, env_.providers->descriptor(llm_).name, n, started,
                                        env_.clock.now(), answer.kind, result, original,
                                        result == RewriteResult::failed ? std::string_view() : text, r.input_tokens,
                                        r.output_tokens, r.cost_usd});
    if (result == RewriteResult::failed) break;
    if (result == RewriteResult::repeated) continue;
    tried.push_back(std::move(normalised));
    sent.emplace_back(text);
    change_query(env_, ctx, request, RewriteQueryConfig::kName, "llm_rewrite", sent.back());
    rewritten = true;
    outcome = co_await next(ctx, request);
  }
  request.query = original;
  if (rewritten && outcome.kind == OutcomeKind::success) ctx.task.mark(Degradation::rewritten_query);
  co_return outcome;
}

std::unique_ptr<Strategy> make_strategy(const RewriteQueryConfig& config, const StrategyBuild& build) {
  return std::make_unique<RewriteQueryStrategy>(config, build.env);
}

}  // namespace squall

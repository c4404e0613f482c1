#include "engine/strategies/reflect.hpp"

#include <algorithm>
#include <cassert>

#include "engine/provider_registry.hpp"
#include "engine/retry_safety.hpp"
#include "engine/token_estimate.hpp"

namespace squall {

std::int64_t error_tokens(const Response& response) {
  const ErrorDetails& details = response.details();
  return estimate_tokens(details.error_message.empty() ? details.error_code : details.error_message);
}

ReflectStrategy::ReflectStrategy(ReflectConfig config, EngineEnv env)
    : config_(std::move(config)), env_(env), llm_(kNoProvider), on_(config_.on) {
  assert(env_.providers != nullptr && config_.max_reflections >= 1);
  const auto id = env_.providers->find(config_.provider);
  assert(id.has_value());
  llm_ = *id;
}

bool ReflectStrategy::covers(std::string_view tool) const {
  const auto listed = [tool](const std::vector<std::string>& names) {
    return std::find(names.begin(), names.end(), tool) != names.end();
  };
  if (!config_.include_tools.empty()) return listed(config_.include_tools);
  return !listed(config_.exclude_tools);
}

Task<Outcome> ReflectStrategy::execute(CallContext& ctx, Request& request, Next next) {
  const bool covered = covers(ctx.tool);
  for (std::int32_t reflections = 0;; ++reflections) {
    Outcome outcome = co_await next(ctx, request);
    if (!covered || !on_.contains(outcome.kind) || reflections >= config_.max_reflections) co_return outcome;
    if (ctx.provider < env_.providers->size() && !may_resend(env_.providers->descriptor(ctx.provider), outcome.kind)) {
      co_return outcome;
    }

    CallContext reflection = ctx;  // the task and deadline; not the tool's timeout or attempts
    reflection.provider = llm_;
    reflection.attempt_timeout = kNever;
    reflection.attempts = 0;
    reflection.iterations = 0;
    Request prompt;
    prompt.prompt_tokens = config_.prompt_tokens + error_tokens(outcome.response);
    prompt.max_output_tokens = config_.max_output_tokens;
    const TimePoint started = env_.clock.now();
    const Outcome answer = co_await env_.providers->run(reflection, prompt);
    const Response& r = answer.response;
    env_.events.on_reflection(ReflectionEvent{ctx.task.id, ctx.tool, env_.providers->descriptor(llm_).name,
                                              reflections + 1, started, env_.clock.now(), outcome.kind, answer.kind,
                                              r.input_tokens, r.output_tokens, r.cost_usd});
    if (answer.kind != OutcomeKind::success) co_return outcome;
    ++request.argument_revision;
  }
}

std::unique_ptr<Strategy> make_strategy(const ReflectConfig& config, const StrategyBuild& build) {
  return std::make_unique<ReflectStrategy>(config, build.env);
}

}  // namespace squall

#include "engine/pipeline.hpp"

#include <algorithm>

#include "engine/answer_time.hpp"
#include "engine/classify.hpp"
#include "engine/provider_registry.hpp"

namespace squall {

Task<Outcome> Next::operator()(CallContext& ctx, Request& request) const {
  return pipeline_->run_from(index_, ctx, request);
}

bool Next::refuses(const CallContext& ctx, const Request& request) const {
  return pipeline_->refuses_from(index_, ctx, request);
}

bool Next::admit_retry(const CallContext& ctx, const Request& request) const {
  return pipeline_->admit_retry_from(index_, ctx, request);
}

Pipeline::Pipeline(Terminal& terminal, std::vector<std::unique_ptr<Strategy>> strategies)
    : terminal_(terminal), strategies_(std::move(strategies)) {}

Pipeline::Pipeline(Provider& provider, EngineEnv env, std::vector<std::unique_ptr<Strategy>> strategies)
    : own_terminal_(std::make_unique<ProviderAttempt>(provider, env)),
      terminal_(*own_terminal_),
      strategies_(std::move(strategies)) {}

Task<Outcome> Pipeline::execute(CallContext& ctx, Request& request) const {
  ctx.deadline = std::min(ctx.deadline, ctx.task.deadline);
  return run_from(0, ctx, request);
}

Task<Outcome> Pipeline::run_from(std::size_t index, CallContext& ctx, Request& request) const {
  if (index < strategies_.size()) return strategies_[index]->execute(ctx, request, Next(this, index + 1));
  return terminal_.run(ctx, request);
}

bool Pipeline::refuses_from(std::size_t index, const CallContext& ctx, const Request& request) const {
  if (index < strategies_.size()) return strategies_[index]->refuses(ctx, request, Next(this, index + 1));
  return terminal_.refuses(ctx, request);
}

bool Pipeline::admit_retry_from(std::size_t index, const CallContext& ctx, const Request& request) const {
  if (index < strategies_.size()) return strategies_[index]->admit_retry(ctx, request, Next(this, index + 1));
  return terminal_.admit_retry(ctx, request);
}

Task<Outcome> ProviderAttempt::run(CallContext& ctx, Request& request) {
  const TimePoint started = env_.clock.now();
  // The Outcome is built where it is returned, in the promise (Task::result_slot): every
  // local of a coroutine has its own bytes in the frame (GCC 12), and this frame is held
  // by every task in flight (bench/README.md).
  Outcome& outcome = co_await Task<Outcome>::result_slot();
  // No attempt starts at or after the call's deadline: what is left is a timeout that
  // the provider never sees.
  if (started >= ctx.deadline) {
    outcome.kind = OutcomeKind::timeout;
    outcome.response.transport = Transport::timeout;
    co_return Task<Outcome>::kSlotFilled;
  }
  ++ctx.attempts;
  CallOptions options;
  options.deadline = std::min(ctx.deadline, add_saturating(started, ctx.attempt_timeout));
  options.task_id = ctx.task.id;
  options.tool = ctx.tool;
  options.step = ctx.step;
  options.attempt = ctx.attempts;
  options.cancellation = ctx.cancellation;
  // A provider that decides its answer at once writes it into the outcome and the wait
  // happens here, so the call holds no frame of its own (Provider::start); the response
  // is the same as from call().
  ScheduledAnswer answer;
  Task<Response> pending = provider_.start(request, options, outcome.response, answer);
  if (pending.valid()) {
    co_await std::move(pending).into(outcome.response);
  } else {
    co_await AwaitScheduled(env_.scheduler, outcome.response, answer, options);
  }
  settle(ctx, started, outcome);
  co_return Task<Outcome>::kSlotFilled;
}

void ProviderAttempt::settle(CallContext& ctx, TimePoint started, Outcome& outcome) {
  outcome.kind = classify(outcome.response);
  const Response& r = outcome.response;
  ctx.task.tokens_spent += r.input_tokens + r.output_tokens;
  ctx.task.cost_spent_usd += r.cost_usd;
  ctx.task.history.saw_attempt(outcome.kind);
  if (observed_ != nullptr && outcome.kind == OutcomeKind::success) observed_->add(env_.clock.now() - started);
  env_.events.on_attempt(AttemptEvent{ctx.task.id, ctx.tool, name_, ctx.attempts, started,
                                      env_.clock.now(), outcome.kind, r.status, r.input_tokens, r.output_tokens,
                                      r.cost_usd});
}

}  // namespace squall

#include "engine/fused_call.hpp"

#include <algorithm>

#include "engine/answer_time.hpp"

namespace squall {

// advance()'s steps are functions for reading's sake, one body for the compiler's: split,
// each reloaded the route and the call's state, and the flagship hour cut to 10 minutes
// took 1,566.3M instructions against 1,506.5M for the single coroutine they replace;
// inlined (with the runner's changes), 1,523.0M (bench/README.md, "One frame per task").
#define SQUALL_FUSED_STEP [[gnu::always_inline]] inline

// The steps below are those of one loop, split where it waits:
//
//   outer gates' admit, the retry's progress                                 (begin)
//   for each attempt:   retry's mark, inner gates' admit, provider call   (start_attempt)
//                       [wait for the answer]
//                       delivery, classification, charges                 (finish_attempt)
//                       inner gates' settle, retry's decision             (end_attempt)
//                       [wait for the backoff]
//   outer gates' settle                                                   (finish)
//
// in the order the nested coroutines of the same strategies would make them.
SQUALL_FUSED_STEP bool FusedCall::begin(CallContext& ctx, const Request& request, Outcome& outcome) {
  while (admitted_ < route_->outer && route_->gates[admitted_]->admit(ctx, request, tickets_[admitted_], outcome)) {
    ++admitted_;
  }
  if (admitted_ < route_->outer) return false;
  progress_ = RetryStrategy::begin(ctx);
  return true;
}

SQUALL_FUSED_STEP bool FusedCall::start_attempt(CallContext& ctx, const Request& request, Outcome& outcome) {
  if (route_->retry != nullptr) RetryStrategy::before_attempt(ctx, progress_);
  while (admitted_ < route_->count && route_->gates[admitted_]->admit(ctx, request, tickets_[admitted_], outcome)) {
    ++admitted_;
  }
  if (admitted_ < route_->count) return false;
  const ProviderAttempt& attempt = *route_->attempt;
  started_ = attempt.env().clock.now();
  if (started_ >= ctx.deadline) {
    // No attempt starts at or after the call's deadline: what is left is a timeout that
    // the provider never sees.
    outcome.kind = OutcomeKind::timeout;
    outcome.response.transport = Transport::timeout;
    return false;
  }
  const CallOptions options = attempt.begin(ctx, started_);
  deadline_ = options.deadline;
  // A provider that decides its answer at once writes it into the outcome and the wait
  // happens in the caller's frame (Provider::start); the response is the same as from
  // call().
  answer_ = ScheduledAnswer{};
  pending_ = attempt.provider().start(request, options, outcome.response, answer_);
  if (pending_.valid()) {
    stage_ = Stage::answer_pending;
  } else if (!options.cancellation.can_be_cancelled()) {
    // Most calls: nothing can cut the wait short but the deadline, which is known now, so
    // it is one timer, as AwaitScheduled would schedule, and no cancellation registration.
    stage_ = Stage::answer_timer;
  } else {
    pending_ = deliver_in_own_frame(attempt.env().scheduler, outcome.response, answer_, options);
    stage_ = Stage::answer_pending;
  }
  return true;
}

std::coroutine_handle<> FusedCall::await_suspend(std::coroutine_handle<> caller) {
  switch (stage_) {
    case Stage::answer_pending: return pending_.await_suspend(caller);
    case Stage::answer_timer:
      route_->attempt->env().scheduler.schedule_at(std::min(answer_.at, deadline_), caller);
      break;
    case Stage::backoff: route_->retry->scheduler().schedule_at(wake_at_, caller); break;
    case Stage::start: return caller;  // nothing to wait for (awaited before advance(), a caller's bug)
  }
  return std::noop_coroutine();
}

SQUALL_FUSED_STEP void FusedCall::finish_attempt(CallContext& ctx, Outcome& outcome) {
  switch (stage_) {
    case Stage::answer_pending: outcome.response = std::exchange(pending_, {}).await_resume(); break;
    case Stage::answer_timer:
      deliver_scheduled(outcome.response, answer_, deadline_,
                        answer_.at <= deadline_ ? Answer::arrived : Answer::timed_out);
      break;
    default: break;
  }
  route_->attempt->settle(ctx, started_, outcome);
}

SQUALL_FUSED_STEP FusedCall::AfterAttempt FusedCall::end_attempt(CallContext& ctx, const Request& request,
                                                                 Outcome& outcome) {
  while (admitted_ > route_->outer) {
    --admitted_;
    route_->gates[admitted_]->settle(ctx, tickets_[admitted_], outcome);
  }
  if (route_->retry == nullptr) return AfterAttempt::done;
  const RetryStrategy::Step step =
      route_->retry->after_attempt(ctx, request, route_->after_retry(), progress_, outcome);
  if (step.then == RetryStrategy::Step::Then::finish) return AfterAttempt::done;
  outcome = Outcome{};  // each attempt starts from a fresh outcome, as a nested call's does
  if (step.then == RetryStrategy::Step::Then::retry_now) return AfterAttempt::again_now;
  wake_at_ = step.at;
  stage_ = Stage::backoff;
  return AfterAttempt::again_after_backoff;
}

SQUALL_FUSED_STEP bool FusedCall::finish(CallContext& ctx, Outcome& outcome) {
  while (admitted_ > 0) {
    --admitted_;
    route_->gates[admitted_]->settle(ctx, tickets_[admitted_], outcome);
  }
  return false;
}

bool FusedCall::advance(CallContext& ctx, const Request& request, Outcome& outcome) {
  if (stage_ == Stage::start && !begin(ctx, request, outcome)) return finish(ctx, outcome);
  bool answered = stage_ != Stage::start && stage_ != Stage::backoff;
  for (;;) {
    if (answered) {
      finish_attempt(ctx, outcome);
      answered = false;
    } else if (start_attempt(ctx, request, outcome)) {
      return true;
    }
    const AfterAttempt next = end_attempt(ctx, request, outcome);
    if (next == AfterAttempt::done) return finish(ctx, outcome);
    if (next == AfterAttempt::again_after_backoff) return true;
  }
}

Task<Outcome> run_fused(const FusedRoute& route, CallContext& ctx, Request& request) {
  // The outcome is built where it is returned (Task::result_slot): every local of a
  // coroutine has its own bytes in the frame (GCC 12).
  Outcome& outcome = co_await Task<Outcome>::result_slot();
  FusedCall call(&route);
  while (call.advance(ctx, request, outcome)) co_await call;
  co_return Task<Outcome>::kSlotFilled;
}

#undef SQUALL_FUSED_STEP

}  // namespace squall

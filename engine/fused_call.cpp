#include "engine/fused_call.hpp"

#include "engine/answer_time.hpp"
#include "engine/strategies/retry.hpp"

namespace squall {

Task<Outcome> run_fused(const FusedRoute& route, CallContext& ctx, Request& request) {
  // The outcome is built where it is returned (Task::result_slot): every local of a
  // coroutine has its own bytes in the frame (GCC 12), and this frame is held by every
  // call in flight.
  Outcome& outcome = co_await Task<Outcome>::result_slot();
  std::array<Gate::Ticket, FusedRoute::kMaxGates> tickets;
  std::uint8_t admitted = 0;  // gates admitted and not yet settled, outermost first
  while (admitted < route.outer && route.gates[admitted]->admit(ctx, request, tickets[admitted], outcome)) {
    ++admitted;
  }
  if (admitted == route.outer) {
    RetryStrategy::Progress progress = RetryStrategy::begin(ctx);
    for (;;) {
      if (route.retry != nullptr) RetryStrategy::before_attempt(ctx, progress);
      while (admitted < route.count && route.gates[admitted]->admit(ctx, request, tickets[admitted], outcome)) {
        ++admitted;
      }
      if (admitted == route.count) {
        // route.attempt-> rather than a reference: a named reference is 8 more bytes in
        // the frame.
        const TimePoint started = route.attempt->env().clock.now();
        if (started >= ctx.deadline) {
          // No attempt starts at or after the call's deadline: what is left is a timeout
          // that the provider never sees.
          outcome.kind = OutcomeKind::timeout;
          outcome.response.transport = Transport::timeout;
        } else {
          const CallOptions options = route.attempt->begin(ctx, started);
          // A provider that decides its answer at once writes it into the outcome and
          // the wait happens here, so the call holds no frame of its own
          // (Provider::start); the response is the same as from call().
          ScheduledAnswer answer;
          Task<Response> pending = route.attempt->provider().start(request, options, outcome.response, answer);
          if (pending.valid()) {
            co_await std::move(pending).into(outcome.response);
          } else if (!options.cancellation.can_be_cancelled()) {
            // Most calls: nothing can cut the wait short but the deadline, which is known
            // now, so it is one timer, as AwaitScheduled would schedule, and no
            // cancellation registration in this frame.
            co_await sleep_until(route.attempt->env().scheduler, std::min(answer.at, options.deadline));
            deliver_scheduled(outcome.response, answer, options.deadline,
                              answer.at <= options.deadline ? Answer::arrived : Answer::timed_out);
          } else {
            co_await await_scheduled_in_own_frame(route.attempt->env().scheduler, outcome.response, answer, options);
          }
          route.attempt->settle(ctx, started, outcome);
        }
      }
      while (admitted > route.outer) {
        --admitted;
        route.gates[admitted]->settle(ctx, tickets[admitted], outcome);
      }
      if (route.retry == nullptr) break;
      const RetryStrategy::Step step = route.retry->after_attempt(ctx, request, route.after_retry(), progress, outcome);
      if (step.then == RetryStrategy::Step::Then::finish) break;
      outcome = Outcome{};  // each attempt starts from a fresh outcome, as a nested call's does
      if (step.then == RetryStrategy::Step::Then::retry_at) co_await sleep_until(route.retry->scheduler(), step.at);
    }
  }
  while (admitted > 0) {
    --admitted;
    route.gates[admitted]->settle(ctx, tickets[admitted], outcome);
  }
  co_return Task<Outcome>::kSlotFilled;
}

}  // namespace squall

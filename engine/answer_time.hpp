// When a provider's answer reaches its caller, given the attempt's deadline and
// cancellation.
//
// CallOptions::deadline has gRPC semantics: a provider returns no later than the deadline,
// and when its answer would come later it returns at the deadline with Transport::timeout.
// CallOptions::cancellation cuts the wait shorter still: when the caller cancels, the
// provider returns at once (at the virtual time of the cancel) with Transport::cancelled.
// Every mock and the chaos decorator follow these rules through this awaiter, so they are
// written once; so does the engine's ProviderAttempt when a provider answers at once
// (Provider::start, ScheduledAnswer). An answer due exactly at the deadline arrives (the
// deadline is inclusive).
#pragma once

#include <algorithm>
#include <coroutine>
#include <cstdint>

#include "engine/call.hpp"
#include "engine/provider.hpp"
#include "engine/runtime/cancellable_sleep.hpp"

namespace squall {

// How a provider's wait for its answer ended.
enum class Answer : std::uint8_t {
  arrived,    // the answer came by the deadline
  timed_out,  // the deadline came first
  cancelled,  // the caller cancelled first
};

// `co_await await_answer(scheduler, answer_at, options)` suspends until
// min(answer_at, options.deadline), or until options.cancellation fires, and says which
// came first. It allocates nothing (no coroutine frame of its own).
class AwaitAnswer {
 public:
  AwaitAnswer(Scheduler& scheduler, TimePoint answer_at, const CallOptions& options)
      : sleep_(scheduler, std::min(answer_at, options.deadline), options.cancellation),
        arrives_(answer_at <= options.deadline) {}
  bool await_ready() noexcept { return sleep_.await_ready(); }
  void await_suspend(std::coroutine_handle<> h) { sleep_.await_suspend(h); }
  Answer await_resume() noexcept {
    if (sleep_.await_resume() == Wake::cancelled) return Answer::cancelled;
    return arrives_ ? Answer::arrived : Answer::timed_out;
  }

 private:
  CancellableSleep sleep_;
  bool arrives_;
};

inline AwaitAnswer await_answer(Scheduler& scheduler, TimePoint answer_at, const CallOptions& options) {
  return {scheduler, answer_at, options};
}

// What the caller sees when no answer came: Transport::timeout with status 0 (no HTTP
// response was received) and the body kind of the provider, nothing billed. An LLM that
// bills the tokens it generated sets the usage fields afterwards.
inline Response timeout_response(Body body) {
  Response r;
  r.transport = Transport::timeout;
  r.status = 0;
  r.body = body;
  return r;
}

// What the caller sees when it cancelled the call: Transport::cancelled with status 0
// and the body kind of the provider, nothing billed (an LLM bills what it generated).
inline Response cancelled_response(Body body) {
  Response r = timeout_response(body);
  r.transport = Transport::cancelled;
  return r;
}

// The response for a wait that ended without an answer (`answer` is not arrived).
inline Response no_answer_response(Answer answer, Body body) {
  return answer == Answer::cancelled ? cancelled_response(body) : timeout_response(body);
}

// `co_await AwaitScheduled(scheduler, response, answer, options)` delivers an answer that
// Provider::start decided at once: it waits as await_answer(scheduler, answer.at, options)
// does and, when the deadline or a cancel came first, replaces `response` with what the
// caller sees then (no_answer_response with the response's own body kind) and counts
// *answer.cut_short. So a provider that answers through it behaves exactly as one whose
// call() coroutine computed the response, awaited await_answer and returned
// no_answer_response when the answer did not arrive. Allocates nothing; `response` must
// outlive the wait.
class AwaitScheduled {
 public:
  AwaitScheduled(Scheduler& scheduler, Response& response, const ScheduledAnswer& answer, const CallOptions& options)
      : wait_(scheduler, answer.at, options), response_(response), cut_short_(answer.cut_short) {}
  bool await_ready() noexcept { return wait_.await_ready(); }
  void await_suspend(std::coroutine_handle<> h) { wait_.await_suspend(h); }
  void await_resume() noexcept {
    const Answer answer = wait_.await_resume();
    if (answer == Answer::arrived) return;
    if (cut_short_ != nullptr) ++*cut_short_;
    response_ = no_answer_response(answer, response_.body);
  }

 private:
  AwaitAnswer wait_;
  Response& response_;
  std::uint64_t* cut_short_;
};

// call() for a provider that answers through start(): runs start() when the Task is first
// awaited (as a call() coroutine's body would run), then delivers its answer, or awaits
// the Task start() returned. `provider`, `request` and `options` must outlive the Task.
inline Task<Response> call_through_start(Provider& provider, Scheduler& scheduler, const Request& request,
                                         const CallOptions& options) {
  Response response;
  ScheduledAnswer answer;
  Task<Response> pending = provider.start(request, options, response, answer);
  if (pending.valid()) co_return co_await std::move(pending);
  co_await AwaitScheduled(scheduler, response, answer, options);
  co_return response;
}

}  // namespace squall

// When a mock's answer reaches its caller, given the attempt's deadline and cancellation.
//
// CallOptions::deadline has gRPC semantics: a provider returns no later than the deadline,
// and when its answer would come later it returns at the deadline with Transport::timeout.
// CallOptions::cancellation cuts the wait shorter still: when the caller cancels, the
// provider returns at once (at the virtual time of the cancel) with Transport::cancelled.
// Every mock and the chaos decorator follow these rules through this awaiter, so they are
// written once. An answer due exactly at the deadline arrives (the deadline is inclusive).
#pragma once

#include <algorithm>
#include <coroutine>
#include <cstdint>

#include "engine/call.hpp"
#include "engine/provider.hpp"
#include "engine/runtime/cancellable_sleep.hpp"

namespace squall {

// How a mock's wait for its answer ended.
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

}  // namespace squall

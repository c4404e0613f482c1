// When a mock's answer reaches its caller, given the attempt's deadline.
//
// CallOptions::deadline has gRPC semantics: a provider returns no later than the deadline,
// and when its answer would come later it returns at the deadline with Transport::timeout.
// Every mock and the chaos decorator follow that rule through this awaiter, so it is
// written once. An answer due exactly at the deadline arrives (the deadline is inclusive).
#pragma once

#include <algorithm>
#include <coroutine>

#include "engine/call.hpp"
#include "engine/runtime/clock.hpp"

namespace squall {

// `co_await await_answer(scheduler, answer_at, deadline)` suspends until
// min(answer_at, deadline) and yields true when the answer arrived, false when the
// deadline came first. It allocates nothing (no coroutine frame of its own).
class AwaitAnswer {
 public:
  AwaitAnswer(Scheduler& scheduler, TimePoint answer_at, TimePoint deadline)
      : scheduler_(scheduler), wake_at_(std::min(answer_at, deadline)), arrived_(answer_at <= deadline) {}
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) { scheduler_.schedule_at(wake_at_, h); }
  bool await_resume() const noexcept { return arrived_; }

 private:
  Scheduler& scheduler_;
  TimePoint wake_at_;
  bool arrived_;
};

inline AwaitAnswer await_answer(Scheduler& scheduler, TimePoint answer_at, TimePoint deadline) {
  return {scheduler, answer_at, deadline};
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

}  // namespace squall

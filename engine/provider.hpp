// The provider seam: the engine calls web search, vector search, LLMs and tools through
// this interface; mocks implement it in simulation, HTTP clients in live mode.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/call.hpp"
#include "engine/runtime/cancellation.hpp"
#include "engine/runtime/task.hpp"

namespace squall {

struct CallOptions {
  // The attempt's deadline (gRPC semantics): a provider returns no later than this. When
  // its answer would arrive later it returns at `deadline` with Transport::timeout, with
  // whatever usage it billed by then (an LLM bills the tokens it generated).
  TimePoint deadline = kNever;
  // The task and the tool whose call this is. A tool mock keys its argument errors by
  // them (with Request::argument_revision): whether an agent got a tool's arguments wrong
  // is a property of that task's call, not of the provider's call count (DESIGN section
  // 3). Other providers use them for trace attribution only.
  std::uint64_t task_id = 0;
  std::string_view tool;
  // Which attempt this is: the task's step (from 0) and the attempt's number within the
  // step's logical call (from 1, every provider counted, as AttemptEvent numbers it; 0
  // when the caller is not the engine). With task_id and tool they identify the attempt
  // independently of what any other task or policy did, so the chaos layer keys its fault
  // decisions by them (mocks/chaos/chaos_provider.hpp, DESIGN section 3).
  std::uint32_t step = 0;
  std::int32_t attempt = 0;
  // The caller's cancellation (default: never cancelled). When it fires before the answer,
  // the provider returns at once, at the time of the cancel, with Transport::cancelled
  // and the usage it billed by then: an LLM bills the prompt in full and the output
  // tokens complete at the cancel, the same rule as a deadline (mocks/llm.hpp). A call
  // whose token is already cancelled returns at once without being sent. The token's
  // source must outlive the call.
  CancellationToken cancellation;
};

// When an answer that a provider decided at once reaches its caller (Provider::start).
struct ScheduledAnswer {
  // The virtual time the answer would reach the caller, before the deadline and
  // cancellation rules (engine/answer_time.hpp) apply.
  TimePoint at = 0;
  // Incremented once when the deadline or a cancel comes first (the chaos decorator's
  // count of injected faults the caller never saw, mocks/chaos/chaos_provider.hpp); null
  // when nothing counts it.
  std::uint64_t* cut_short = nullptr;
};

class Provider {
 public:
  virtual ~Provider() = default;
  // The provider's name in the scenario (a key of `providers`).
  virtual std::string_view name() const = 0;
  virtual Task<Response> call(const Request& request, const CallOptions& options) = 0;
  // Starts a call for a caller that holds the answer itself (the engine's
  // ProviderAttempt), so that a provider whose answer is computed now and delivered after
  // a latency needs no coroutine frame: such a provider writes the response into
  // `response` (default-constructed on entry), sets `answer`, and returns an empty Task
  // (Task::valid() false); the caller then waits with AwaitScheduled
  // (engine/answer_time.hpp), which applies the deadline and cancellation rules as the
  // provider's call() would. Otherwise it returns the Task to await and leaves both
  // untouched. Either way the caller sees what awaiting call() would give, and the
  // provider draws and decides exactly what call() would, in the same order. Every call
  // of a simulated task goes through it, and a frame per call held by every task in
  // flight is what made runs slow at high rates (bench/README.md). Default: call().
  virtual Task<Response> start(const Request& request, const CallOptions& options, Response& response,
                               ScheduledAnswer& answer) {
    (void)response;
    (void)answer;
    return call(request, options);
  }
};

}  // namespace squall

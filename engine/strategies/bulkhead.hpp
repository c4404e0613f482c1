// bulkhead: a cap on the calls in flight through this strategy, with a bounded FIFO queue
// for those that arrive while it is full.
//
// At most max_concurrent_calls calls run the rest of the pipeline at once. A call that
// arrives while all of them are taken waits in a FIFO queue of at most max_queue calls,
// for at most queue_timeout; a call that finds the queue full, or whose wait runs out, is
// rejected as bulkhead_full without reaching the provider. When a call leaves, its slot
// goes to the oldest waiter (handed over, so a newcomer never overtakes the queue: the
// runtime's WaitQueue, engine/runtime/wait_queue.hpp).
//
// Semantics are resilience4j's SemaphoreBulkhead (maxConcurrentCalls, maxWaitDuration:
// BulkheadFullException when no permit comes in time) with the queue bound of Polly v8's
// concurrency limiter (PermitLimit, QueueLimit; oldest first). Defaults:
//   max_concurrent_calls = 25   resilience4j BulkheadConfig.maxConcurrentCalls
//   max_queue = 0               Polly ConcurrencyLimiterOptions.QueueLimit; with resilience4j's
//                               maxWaitDuration default of 0 the same behaviour: no waiting
//   queue_timeout = none        a queued call waits until admitted or its deadline; Polly's
//                               queue has no timeout of its own either
// A waiting call still obeys the call's deadline (CallContext::deadline): a wait that the
// deadline ends is a timeout, like every deadline, not bulkhead_full; a cancelled wait
// (CallContext::cancellation, e.g. a losing hedge) ends as cancelled.
//
// What counts. bulkhead_full is of retry class `local`: the provider never saw the call, so
// the circuit breaker ignores it (engine/strategies/circuit_breaker.hpp) and retry does not
// retry it unless retry_on names it. It is a failure of the logical call, reported by kind.
//
// Sharing. The state belongs to the strategy instance. Placed in a provider's own stack (a
// scenario with a `tools` block), it is shared by every tool and task that reaches that
// provider, as a client library keeps one bulkhead per backend (resilience4j's
// BulkheadRegistry by name; DESIGN section 1b). Placed in a tool's list, it bounds that
// tool's calls, whichever provider serves them.
#pragma once

#include <array>
#include <cstdint>

#include "engine/config_fields.hpp"
#include "engine/pipeline.hpp"
#include "engine/runtime/wait_queue.hpp"

namespace squall {

struct BulkheadConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "bulkhead";

  // Calls allowed in flight at once; >= 1. Default 25 (resilience4j maxConcurrentCalls).
  std::int32_t max_concurrent_calls = 25;
  // Calls allowed to wait for a slot; >= 0. Default 0: a full bulkhead rejects at once
  // (Polly QueueLimit 0, resilience4j maxWaitDuration 0).
  std::int32_t max_queue = 0;
  // How long a queued call waits for a slot at most; > 0. Default kNever: until its
  // deadline. Only meaningful with max_queue > 0 (the loader rejects it otherwise).
  Nanos queue_timeout = kNever;
};

// A million calls in flight or queued: far beyond any real client's concurrency.
inline constexpr IntRange kBulkheadCalls{1, 1'000'000};
inline constexpr IntRange kBulkheadQueue{0, 1'000'000};

constexpr auto field_table(std::type_identity<BulkheadConfig>) {
  using C = BulkheadConfig;
  constexpr FieldRule<C> queued = [](const C& c, const Written& w) {
    if (!w.ok("max_queue") || c.max_queue > 0) return Finding{};
    return Finding::error("applies only when max_queue > 0");
  };
  return table<C>(integer("max_concurrent_calls", &C::max_concurrent_calls, kBulkheadCalls)
                      .with_default("25")
                      .unit("calls")
                      .doc("calls in flight at once")
                      .source("resilience4j maxConcurrentCalls"),
                  integer("max_queue", &C::max_queue, kBulkheadQueue)
                      .with_default("0")
                      .unit("calls")
                      .doc("calls waiting for a slot, oldest first")
                      .source("Polly QueueLimit"),
                  duration("queue_timeout", &C::queue_timeout, DurationMin::positive)
                      .only_if(queued)
                      .doc("longest wait; none: until the call's deadline"));
}

class BulkheadStrategy final : public Strategy {
 public:
  // max_concurrent_calls >= 1, max_queue >= 0, queue_timeout > 0 (the loader validates).
  BulkheadStrategy(BulkheadConfig config, EngineEnv env);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

  // Calls holding a slot now (those admitted from the queue included), and calls queued.
  std::int32_t in_flight() const { return in_flight_; }
  std::size_t queued() const { return queue_.size(); }

 private:
  // Gives the caller's slot to the oldest waiter, or frees it when none waits.
  void release();

  BulkheadConfig config_;
  EngineEnv env_;
  std::int32_t in_flight_ = 0;
  WaitQueue queue_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const BulkheadConfig& config, const StrategyBuild& build);

}  // namespace squall

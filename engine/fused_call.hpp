// A fused call: the part of a call's pipeline that needs no coroutine frame per strategy,
// run in one frame.
//
// A task in flight holds a chain of coroutine frames, one per strategy that is waiting for
// the rest of its pipeline; every event resumes the innermost and every answer returns
// through the others, and at tens of thousands of tasks in flight those frames are most
// of the simulator's memory and cache misses (bench/README.md, "Cost in concurrency").
// Most pipelines end in the same shape:
//
//   [gates] [retry [gates]] provider attempt
//
// gates (engine/pipeline.hpp: circuit breaker, timeout, budget, validate) act only before
// and after the call; the retry strategy loops over the rest with backoffs between; the
// provider attempt starts the provider call and waits for its answer. Where the rest of a
// pipeline from some strategy on has this shape, counted across a tool's pipeline and the
// provider's stack it reaches through the ProviderRegistry, the pipeline runs it as one
// state machine in one frame (FusedCall, in its caller's frame or in run_fused's): the
// outer gates' admit, the retry loop, and for each attempt the inner gates' admit, the
// attempt, the inner gates' settle, then the retry's decision.
// The gates, the retry strategy and the attempt supply every decision through the same
// functions their own coroutines use (Gate::admit/settle, RetryStrategy::after_attempt,
// ProviderAttempt::begin/settle), so a fused call makes the same calls, events and draws,
// in the same order and at the same virtual times, as the nested coroutines would:
// reports and fingerprints do not change.
#pragma once

#include <array>
#include <coroutine>
#include <cstdint>

#include "engine/pipeline.hpp"
#include "engine/strategies/retry.hpp"

namespace squall {

// Which strategies a fused call runs, outermost first, and the attempt it ends in.
struct FusedRoute {
  // Gates a fused call runs at most (the frame holds a Ticket for each). Three covers the
  // shipped policies' runs (timeout around retry around breaker or budget).
  static constexpr std::size_t kMaxGates = 3;

  std::array<Gate*, kMaxGates> gates{};
  RetryStrategy* retry = nullptr;
  const ProviderAttempt* attempt = nullptr;
  // The rest of the pipeline after the retry strategy, as Next(pipeline, index) but without
  // Next's padding.
  const Pipeline* after_retry_pipeline = nullptr;
  std::uint32_t after_retry_index = 0;
  std::uint8_t outer = 0;  // gates[0, outer) run once, around the retry (all of them without one)
  std::uint8_t count = 0;  // gates[outer, count) run around each attempt

  Next after_retry() const { return Next(after_retry_pipeline, after_retry_index); }

  // Appends a gate; false when the route is full.
  bool add_gate(Gate& gate) {
    if (count == kMaxGates) return false;
    gates[count++] = &gate;
    if (retry == nullptr) outer = count;
    return true;
  }
  // Sets the retry strategy, whose rest is `index` in `pipeline`; false when the route has
  // one already.
  bool set_retry(RetryStrategy& strategy, const Pipeline& pipeline, std::size_t index) {
    if (retry != nullptr) return false;
    retry = &strategy;
    after_retry_pipeline = &pipeline;
    after_retry_index = static_cast<std::uint32_t>(index);
    return true;
  }
};

// One logical call through a complete route (route.attempt is set), as a state machine
// that lives in its caller's coroutine frame instead of a frame of its own. The caller
// drives it with a loop of thin awaits:
//
//   FusedCall call(&route);
//   while (call.advance(ctx, request, outcome)) co_await call;
//
// advance() runs the call on from where it stopped until it must wait (true) or has
// ended (false: `outcome` is the call's). Awaiting the call waits for what it stopped on:
// the provider's pending answer, the answer's timer, or a backoff. The task runner holds
// its step's call this way, so a task in flight is one coroutine frame, not two
// (bench/README.md, "One frame per task"); run_fused() is the same loop in a frame of its
// own, for pipelines entered from a strategy. ctx and outcome must be the same objects at
// every advance(); `outcome` must start default-constructed. `request` need only be the
// same value: the call reads it only while advance() runs (the gates never change it, and
// a provider's coroutine keeps its own copy, Provider::call), so the task runner builds
// it on its stack at each advance() and its frame holds none. Destroying a
// FusedCall before it ended destroys the provider's pending coroutine or the wait's own
// frame with it, as destroying the single frame that held them did.
class FusedCall {
 public:
  // A call on `route`, or none: null for a pipeline that does not fuse (Pipeline::enter),
  // which lets the task runner keep no route of its own in its frame. Only a call that
  // fused() may advance().
  explicit FusedCall(const FusedRoute* route) noexcept : route_(route) {}
  bool fused() const noexcept { return route_ != nullptr; }
  FusedCall(const FusedCall&) = delete;
  FusedCall& operator=(const FusedCall&) = delete;

  // Throws what the provider's pending answer threw.
  bool advance(CallContext& ctx, const Request& request, Outcome& outcome);

  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> caller);
  void await_resume() const noexcept {}

 private:
  // Where advance() stopped: what the caller's await waits for.
  enum class Stage : std::uint8_t {
    start,           // not started
    answer_pending,  // a coroutine that gives the response (pending_): the provider's own,
                     // or, for a cancellable attempt, deliver_in_own_frame's
    answer_timer,    // an answer decided at once (answer_), due at min(at, deadline)
    backoff,         // the retry strategy's wait before the next attempt, until wake_at_
  };
  enum class AfterAttempt : std::uint8_t { done, again_now, again_after_backoff };

  // The outer gates' admit and the retry's progress; false when a gate refused.
  bool begin(CallContext& ctx, const Request& request, Outcome& outcome);
  // Before an attempt: the retry's mark, the inner gates' admit, the provider call; true
  // when it waits for the answer (stage_ says how), false when a gate refused or the
  // deadline had passed (outcome says which).
  bool start_attempt(CallContext& ctx, const Request& request, Outcome& outcome);
  // The answer is in: delivers a timed answer, then classifies and charges the attempt.
  void finish_attempt(CallContext& ctx, Outcome& outcome);
  // After an attempt or a refusal: the inner gates' settle and the retry's decision.
  AfterAttempt end_attempt(CallContext& ctx, const Request& request, Outcome& outcome);
  // The outer gates' settle; returns false (the call has ended).
  bool finish(CallContext& ctx, Outcome& outcome);

  const FusedRoute* route_;
  Stage stage_ = Stage::start;
  std::uint8_t admitted_ = 0;  // gates admitted and not yet settled, outermost first
  std::array<Gate::Ticket, FusedRoute::kMaxGates> tickets_;
  RetryStrategy::Progress progress_;
  TimePoint started_ = 0;   // the current attempt's start
  TimePoint deadline_ = 0;  // the current attempt's deadline (CallOptions::deadline)
  // The current attempt's answer, decided at once (answer_timer), or the backoff's end
  // (backoff): a union, as no stage needs both, in the frame of every task in flight. Its
  // CallOptions are not kept: the coroutines have their own copies (Provider::call).
  union {
    ScheduledAnswer answer_{};
    TimePoint wake_at_;
  };
  // The coroutine that gives the answer (answer_pending).
  Task<Response> pending_;
};

// Runs `route` (complete: route.attempt is set) for one logical call, in one frame of its
// own (FusedCall). The route must outlive the call (Pipeline keeps the routes it runs).
Task<Outcome> run_fused(const FusedRoute& route, CallContext& ctx, Request& request);

}  // namespace squall

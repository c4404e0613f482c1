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
// coroutine (run_fused): the outer gates' admit, the retry loop, and for each attempt the
// inner gates' admit, the attempt, the inner gates' settle, then the retry's decision.
// The gates, the retry strategy and the attempt supply every decision through the same
// functions their own coroutines use (Gate::admit/settle, RetryStrategy::after_attempt,
// ProviderAttempt::begin/settle), so a fused call makes the same calls, events and draws,
// in the same order and at the same virtual times, as the nested coroutines would:
// reports and fingerprints do not change.
#pragma once

#include <array>
#include <cstdint>

#include "engine/pipeline.hpp"

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

// Runs `route` (complete: route.attempt is set) for one logical call, in one frame. The
// route must outlive the call (Pipeline keeps the routes it runs).
Task<Outcome> run_fused(const FusedRoute& route, CallContext& ctx, Request& request);

}  // namespace squall

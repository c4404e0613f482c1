// Pipeline: the ordered strategies of one tool, outermost first (Polly v8's resilience
// pipeline), ending in a single provider attempt.
//
// A strategy receives the logical call's context, the request (which it may change, as
// simplify_query does) and `next`, the rest of the pipeline; it may call `next` any number
// of times (retry), zero times (an open breaker), or change the context first (timeout).
// The innermost step, attempt(), is not a strategy: it starts one provider call bounded
// by the context's deadlines, classifies the response, charges the task's spend and emits
// the AttemptEvent.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "engine/call.hpp"
#include "engine/events.hpp"
#include "engine/provider.hpp"
#include "engine/runtime/clock.hpp"
#include "engine/runtime/task.hpp"

namespace squall {

class Pipeline;

// The rest of the pipeline after the current strategy. Cheap to copy; valid while the
// pipeline lives.
class Next {
 public:
  Task<Outcome> operator()(CallContext& ctx, Request& request) const;

 private:
  friend class Pipeline;
  Next(const Pipeline* pipeline, std::size_t index) : pipeline_(pipeline), index_(index) {}
  const Pipeline* pipeline_;
  std::size_t index_;  // the strategy to run next; == size() means the provider attempt
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual Task<Outcome> execute(CallContext& ctx, Request& request, Next next) = 0;
};

// The engine's seams, passed by reference to everything that needs them.
struct EngineEnv {
  Clock& clock;
  Scheduler& scheduler;
  EventSink& events;
};

class Pipeline {
 public:
  Pipeline(Provider& provider, EngineEnv env, std::vector<std::unique_ptr<Strategy>> strategies);

  // Runs one logical call through every strategy. The context's deadline is tightened
  // to the task's deadline first, so no call outlives its task.
  Task<Outcome> execute(CallContext& ctx, Request& request) const;

  Provider& provider() const { return provider_; }
  std::size_t size() const { return strategies_.size(); }

 private:
  friend class Next;
  Task<Outcome> run_from(std::size_t index, CallContext& ctx, Request& request) const;
  Task<Outcome> attempt(CallContext& ctx, Request& request) const;

  Provider& provider_;
  EngineEnv env_;
  std::vector<std::unique_ptr<Strategy>> strategies_;
};

}  // namespace squall

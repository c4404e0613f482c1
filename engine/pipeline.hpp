// Pipeline: an ordered list of strategies, outermost first (Polly v8's resilience
// pipeline), ending in a Terminal.
//
// A strategy receives the logical call's context, the request (which it may change, as
// simplify_query does) and `next`, the rest of the pipeline; it may call `next` any number
// of times (retry), zero times (an open breaker), or change the context first (timeout).
//
// Two pipelines make one call (DESIGN section 1b): a tool's pipeline (what the agent's
// policy says for the tool) ends in the ProviderRegistry, which sends the call on to the
// stack of the provider named by CallContext::provider; that provider's stack (its SDK
// retries, strategies shared by every caller of the provider) ends in a ProviderAttempt,
// which starts one provider call bounded by the context's deadlines, classifies the
// response, charges the task's spend and emits the AttemptEvent.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/call.hpp"
#include "engine/events.hpp"
#include "engine/provider.hpp"
#include "engine/runtime/clock.hpp"
#include "engine/runtime/rng.hpp"
#include "engine/runtime/task.hpp"

namespace squall {

class Pipeline;
class ProviderRegistry;

// The rest of the pipeline after the current strategy. Cheap to copy; valid while the
// pipeline lives.
class Next {
 public:
  Task<Outcome> operator()(CallContext& ctx, Request& request) const;
  // Whether the rest of the pipeline would refuse `request` now without calling anyone
  // (a spent budget): a strategy that is about to wait before calling next asks first, so
  // it does not sleep for a refusal it could know already. False when unsure.
  bool refuses(const CallContext& ctx, const Request& request) const;
  // Whether the rest of the pipeline admits one more attempt of this logical call as a
  // retry (engine/strategies/retry_budget.hpp): the retry strategy asks once per retry,
  // after deciding to retry and before its backoff, as Envoy and gRPC consult their retry
  // budgets when a retry is decided. A strategy that refuses emits its own event. True
  // when nothing in the rest of the pipeline limits retries.
  bool admit_retry(const CallContext& ctx, const Request& request) const;

 private:
  friend class Pipeline;
  Next(const Pipeline* pipeline, std::size_t index) : pipeline_(pipeline), index_(index) {}
  const Pipeline* pipeline_;
  std::size_t index_;  // the strategy to run next; == size() means the terminal
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual Task<Outcome> execute(CallContext& ctx, Request& request, Next next) = 0;
  // See Next::refuses. Strategies that refuse without calling (budget) override it; the
  // others pass the question on.
  virtual bool refuses(const CallContext& ctx, const Request& request, Next next) const {
    return next.refuses(ctx, request);
  }
  // See Next::admit_retry. Strategies that limit retries across calls (retry_budget)
  // override it; the others pass the question on.
  virtual bool admit_retry(const CallContext& ctx, const Request& request, Next next) {
    return next.admit_retry(ctx, request);
  }
};

// Where a pipeline's innermost strategy sends the call.
class Terminal {
 public:
  virtual ~Terminal() = default;
  virtual Task<Outcome> run(CallContext& ctx, Request& request) = 0;
  virtual bool refuses(const CallContext&, const Request&) const { return false; }
  virtual bool admit_retry(const CallContext&, const Request&) { return true; }
};

// The engine's seams, passed by reference to everything that needs them. `providers` is
// the run's registry: strategies that reach other providers (fallback, reflect) use it,
// the others may leave it unset.
struct EngineEnv {
  Clock& clock;
  Scheduler& scheduler;
  EventSink& events;
  ProviderRegistry* providers = nullptr;
  // The wall-clock time at virtual time 0, in seconds since the Unix epoch (the scenario's
  // start_time), against which a Retry-After HTTP-date is read. Default 0: 1970-01-01.
  std::int64_t start_unix_seconds = 0;
};

class LatencyWindow;

// What a strategy's factory (make_strategy, declared beside each strategy) gets.
struct StrategyBuild {
  std::string_view owner;  // the tool or provider whose pipeline the strategy joins
  EngineEnv env;
  // The strategy's own random stream, "policy/<owner>/<i>/<name>", made on first call;
  // only strategies that draw ask for it, so a stream exists only where it is used.
  std::function<Rng&()> stream;
};

// One attempt on one provider: the innermost step of every call. With `observed`, the
// latency of each successful attempt is added to it (the registry's routing data).
// Attempt events name the provider `name` (the registry's name for it), or, when empty,
// what Provider::name() says.
class ProviderAttempt final : public Terminal {
 public:
  ProviderAttempt(Provider& provider, EngineEnv env, LatencyWindow* observed = nullptr, std::string_view name = {})
      : provider_(provider), env_(env), observed_(observed), name_(name.empty() ? provider.name() : name) {}
  Task<Outcome> run(CallContext& ctx, Request& request) override;
  Provider& provider() const { return provider_; }

 private:
  // After the answer: classifies it, charges the task and emits the AttemptEvent. Out of
  // the coroutine, so that its temporaries are not in the frame.
  void settle(CallContext& ctx, TimePoint started, Outcome& outcome);

  Provider& provider_;
  EngineEnv env_;
  LatencyWindow* observed_;
  std::string_view name_;
};

class Pipeline {
 public:
  // Ends in `terminal`, which must outlive the pipeline.
  Pipeline(Terminal& terminal, std::vector<std::unique_ptr<Strategy>> strategies);
  // Ends in an attempt on `provider` (a provider's stack, or a test's single provider).
  Pipeline(Provider& provider, EngineEnv env, std::vector<std::unique_ptr<Strategy>> strategies);

  // Runs one logical call through every strategy. The context's deadline is tightened
  // to the task's deadline first, so no call outlives its task.
  Task<Outcome> execute(CallContext& ctx, Request& request) const;
  // Runs the strategies without touching the deadline: for a stack entered from another
  // pipeline, whose deadline is already set.
  Task<Outcome> run(CallContext& ctx, Request& request) const { return run_from(0, ctx, request); }
  bool refuses(const CallContext& ctx, const Request& request) const { return refuses_from(0, ctx, request); }
  bool admit_retry(const CallContext& ctx, const Request& request) const {
    return admit_retry_from(0, ctx, request);
  }

  std::size_t size() const { return strategies_.size(); }

 private:
  friend class Next;
  Task<Outcome> run_from(std::size_t index, CallContext& ctx, Request& request) const;
  bool refuses_from(std::size_t index, const CallContext& ctx, const Request& request) const;
  bool admit_retry_from(std::size_t index, const CallContext& ctx, const Request& request) const;

  std::unique_ptr<ProviderAttempt> own_terminal_;  // set by the Provider& constructor
  Terminal& terminal_;
  std::vector<std::unique_ptr<Strategy>> strategies_;
};

}  // namespace squall

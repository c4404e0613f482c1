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

#include <array>
#include <cstddef>
#include <cstdint>
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

class Gate;
class OuterGates;
class Pipeline;
class ProviderRegistry;
class RetryStrategy;
struct FusedRoute;

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
  friend struct FusedRoute;
  Next(const Pipeline* pipeline, std::size_t index) : pipeline_(pipeline), index_(index) {}
  const Pipeline* pipeline_;
  std::size_t index_;  // the strategy to run next; == size() means the terminal
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual Task<Outcome> execute(CallContext& ctx, Request& request, Next next) = 0;
  // execute() with the gates that stand right before this strategy in its pipeline
  // admitted before it and settled after it, in one frame (OuterGates). The default is a
  // coroutine that does that around execute(): one frame for all the gates instead of one
  // per gate. A strategy that runs as a coroutine of its own may override it to admit and
  // settle them in its own frame, so that the gates cost no frame at all.
  virtual Task<Outcome> execute_gated(OuterGates gates, CallContext& ctx, Request& request, Next next);
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
  // What the pipeline may run inside a fused call's frame instead of calling execute
  // (engine/fused_call.hpp): a gate, or the retry strategy. Null for every other strategy.
  virtual Gate* as_gate() { return nullptr; }
  virtual RetryStrategy* as_retry() { return nullptr; }
};

// A strategy that acts only around one call of the rest of the pipeline: admit() before it
// (it may refuse the call, or change the context) and settle() after it (it may observe or
// change the outcome). It never waits and calls the rest at most once, so it needs no
// coroutine frame of its own: the pipeline runs the gates between a retry and a provider
// attempt inside the attempt's frame (engine/fused_call.hpp), where every frame a call holds
// costs memory per task in flight and a resumption per event (bench/README.md). execute()
// is admit, the rest of the pipeline if admitted, settle; both ways give the same events.
class Gate : public Strategy {
 public:
  // What a gate keeps across one call in place of a coroutine's locals: two words, as a
  // fused call's frame holds a ticket per gate for every call in flight
  // (engine/fused_call.hpp); each gate says what they hold.
  struct Ticket {
    std::int64_t first = 0;
    std::int64_t second = 0;
  };
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) final;
  Gate* as_gate() final { return this; }
  // Before the call. `outcome` is default-constructed; to refuse the call, fill it with
  // the refusal and return false (the gate's settle() is then not called).
  virtual bool admit(CallContext& ctx, const Request& request, Ticket& ticket, Outcome& outcome) = 0;
  // After the call, or after a refusal by a gate inside this one, with its outcome.
  virtual void settle(CallContext& /*ctx*/, const Ticket& /*ticket*/, Outcome& /*outcome*/) {}
};

// The gates that stand right before a strategy that does not fuse (a run of gates, then
// simplify_query, in a tool's pipeline), run by that strategy in its frame
// (Strategy::execute_gated) instead of in a Gate::execute frame each. A gate never waits
// and calls the rest at most once, so running it this way makes the same calls in the same
// order as the nested frames: admit() admits the gates outermost first and stops at the
// first refusal, whose outcome is then the call's (the strategy is not run); settle()
// settles the admitted ones innermost first, with the call's outcome, as each Gate::execute
// does when the frame inside it returns. Copied into the strategy's frame: the tickets are
// the gates' locals.
class OuterGates {
 public:
  // Gates run at most this way, as in a fused call (engine/fused_call.hpp); longer runs of
  // gates keep their own frames.
  static constexpr std::size_t kMax = 3;

  // Appends a gate, inside the ones added before; false when full.
  bool add(Gate& gate) {
    if (count_ == kMax) return false;
    gates_[count_++] = &gate;
    return true;
  }
  std::size_t size() const { return count_; }

  // Admits the gates in order; false when one refused, its refusal in `outcome` (which
  // must be default-constructed, as a gate's admit() expects). settle() follows either way.
  bool admit(CallContext& ctx, const Request& request, Outcome& outcome);
  // Settles the admitted gates, innermost first.
  void settle(CallContext& ctx, Outcome& outcome);

 private:
  std::array<Gate*, kMax> gates_{};
  std::array<Gate::Ticket, kMax> tickets_{};
  std::uint8_t count_ = 0;
  std::uint8_t admitted_ = 0;
};

// Where a pipeline's innermost strategy sends the call.
class Terminal {
 public:
  virtual ~Terminal() = default;
  virtual Task<Outcome> run(CallContext& ctx, Request& request) = 0;
  virtual bool refuses(const CallContext&, const Request&) const { return false; }
  virtual bool admit_retry(const CallContext&, const Request&) { return true; }
  // Completes `route` with where this terminal sends `ctx` now, if a fused call can make
  // it (engine/fused_call.hpp); false otherwise (the default).
  virtual bool route(const CallContext& /*ctx*/, FusedRoute& /*route*/) const { return false; }
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

  // The wall-clock time now, in nanoseconds since the Unix epoch (saturating): what a
  // server's Retry-After is read against (server_retry_delay, engine/retry_after.hpp).
  std::int64_t wall_now_unix_ns() const {
    const TimePoint start = start_unix_seconds > kNever / kSecond ? kNever : start_unix_seconds * kSecond;
    return add_saturating(start, clock.now());
  }
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
  ProviderAttempt(Provider& provider, EngineEnv env, LatencyWindow* observed = nullptr, std::string_view name = {});
  ~ProviderAttempt() override;
  // One attempt, in a fused call of its own (engine/fused_call.hpp).
  Task<Outcome> run(CallContext& ctx, Request& request) override;
  bool route(const CallContext& ctx, FusedRoute& route) const override;
  Provider& provider() const { return provider_; }
  const EngineEnv& env() const { return env_; }

  // The steps of one attempt, which a fused call runs in its frame: the provider call's
  // options, for an attempt started at `started` (it counts the attempt in ctx.attempts);
  // then, after the answer, settle() classifies it, charges the task and emits the
  // AttemptEvent. Plain functions, so that their temporaries are not in the frame.
  CallOptions begin(CallContext& ctx, TimePoint started) const;
  void settle(CallContext& ctx, TimePoint started, Outcome& outcome) const;

 private:
  Provider& provider_;
  EngineEnv env_;
  LatencyWindow* observed_;
  std::string_view name_;
  std::unique_ptr<FusedRoute> own_route_;  // this attempt alone, for run()
};

class Pipeline {
 public:
  // Ends in `terminal`, which must outlive the pipeline.
  Pipeline(Terminal& terminal, std::vector<std::unique_ptr<Strategy>> strategies);
  // Ends in an attempt on `provider` (a provider's stack, or a test's single provider).
  Pipeline(Provider& provider, EngineEnv env, std::vector<std::unique_ptr<Strategy>> strategies);
  ~Pipeline();

  // Runs one logical call through every strategy. The context's deadline is tightened
  // to the task's deadline first, so no call outlives its task.
  Task<Outcome> execute(CallContext& ctx, Request& request) const;
  // The first half of execute(), for a caller that runs a fused call in its own frame
  // (FusedCall, engine/fused_call.hpp): tightens the deadline as execute() does and
  // returns the fused route of the whole pipeline for `ctx`, or null when it does not
  // fuse (then run_unfused(ctx, request) is the call).
  const FusedRoute* enter(CallContext& ctx) const;
  // run() for a pipeline that enter() found does not fuse, without asking again, in a
  // frame that holds the request: its strategies change it and view it while they wait,
  // and the task runner's frame keeps none (FusedCall).
  Task<Outcome> run_unfused(CallContext& ctx, Request request) const;
  // Runs the strategies without touching the deadline: for a stack entered from another
  // pipeline, whose deadline is already set.
  Task<Outcome> run(CallContext& ctx, Request& request) const { return run_from(0, ctx, request); }
  bool refuses(const CallContext& ctx, const Request& request) const { return refuses_from(0, ctx, request); }
  bool admit_retry(const CallContext& ctx, const Request& request) const { return admit_retry_from(0, ctx, request); }

  std::size_t size() const { return strategies_.size(); }

  // Completes `route` with the strategies from `index` on and this pipeline's terminal,
  // when they are gates, at most one retry (across the whole route) and a terminal that
  // routes; false otherwise.
  bool route_from(std::size_t index, const CallContext& ctx, FusedRoute& route) const;

 private:
  friend class Next;
  Task<Outcome> run_from(std::size_t index, CallContext& ctx, Request& request) const;
  // run_from() once the rest from `index` is known not to fuse.
  Task<Outcome> run_unfused_from(std::size_t index, CallContext& ctx, Request& request) const;
  bool refuses_from(std::size_t index, const CallContext& ctx, const Request& request) const;
  bool admit_retry_from(std::size_t index, const CallContext& ctx, const Request& request) const;

  std::unique_ptr<ProviderAttempt> own_terminal_;  // set by the Provider& constructor
  Terminal& terminal_;
  std::vector<std::unique_ptr<Strategy>> strategies_;
  // Each strategy as a fused call sees it (Strategy::as_gate, as_retry), asked once here
  // rather than on every call; both null for a strategy that does not fuse. What follows
  // depends only on the strategies, so it is worked out once too, not on every call.
  struct Fusable {
    Gate* gate = nullptr;
    RetryStrategy* retry = nullptr;
    // Whether the strategies from this one on may fuse: all gates or retry, at most one
    // retry and FusedRoute::kMaxGates gates. When false, route_from() is false at once.
    bool may_fuse = false;
    // For a gate: the strategy that this gate and the ones after it stand before, when it
    // does not fuse and they are at most OuterGates::kMax (run_from() then runs them in
    // its execute_gated()); kNoStrategy otherwise.
    std::uint32_t gated = kNoStrategy;
  };
  static constexpr std::uint32_t kNoStrategy = ~std::uint32_t{0};
  std::vector<Fusable> fusable_;
  static std::vector<Fusable> fusable_of(const std::vector<std::unique_ptr<Strategy>>& strategies);

  // The fused route from `index` for `ctx`, or null when the rest does not fuse. A route
  // depends only on the index and on ctx.provider (the registry's terminal routes to that
  // provider's stack), so each is worked out on first use and kept: a fused call's frame
  // holds a pointer to it instead of a 56-byte copy, and a call does not walk the
  // strategies again. routes_[index][provider + 1] (kNoProvider wraps to 0); kNoRoute
  // marks a rest that does not fuse; routes_ has an entry per index from construction, the
  // provider entries grow on first use. Each route has a block of its own, so it never
  // moves while calls hold it.
  const FusedRoute* fused_route(std::size_t index, const CallContext& ctx) const;
  mutable std::vector<std::vector<const FusedRoute*>> routes_;
  mutable std::vector<std::unique_ptr<FusedRoute>> route_store_;
  static const FusedRoute kNoRoute;
};

}  // namespace squall

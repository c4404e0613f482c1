// A fused call (engine/fused_call.hpp) against the nested coroutines it replaces: which
// pipelines fuse, and that a fused pipeline makes the same attempts, backoffs, give-ups,
// breaker transitions and budget refusals, at the same virtual times, with the same
// outcomes, as the same strategies run one coroutine each.
#include "engine/fused_call.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "concurrent_calls.hpp"
#include "engine/answer_time.hpp"
#include "engine/runtime/cancellation.hpp"
#include "engine/strategies/budget.hpp"
#include "engine/strategies/circuit_breaker.hpp"
#include "engine/strategies/retry.hpp"
#include "engine/strategies/timeout.hpp"
#include "engine/strategies/validate.hpp"
#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Harness;
using test::Reply;
using test::ScriptedProvider;

RetryConfig retry_config() {
  RetryConfig c;
  c.max_attempts = 4;
  c.base_delay = 100 * kMillisecond;
  c.max_delay = 2 * kSecond;
  c.jitter = Jitter::full;
  c.max_retry_after = 3 * kSecond;
  c.retry_on = {OutcomeKind::timeout, OutcomeKind::rate_limited, OutcomeKind::server_error, OutcomeKind::circuit_open,
                OutcomeKind::invalid_output};
  return c;
}

CircuitBreakerConfig breaker_config() {
  CircuitBreakerConfig c;
  c.failure_threshold = 5;
  c.open_duration = 300 * kMillisecond;
  c.half_open_probes = 2;
  return c;
}

TimeoutConfig timeout_config() {
  TimeoutConfig c;
  c.per_attempt = kSecond;
  c.total = 6 * kSecond;
  return c;
}

BudgetConfig budget_config() {
  BudgetConfig c;
  c.max_tokens = 150;  // two attempts of 100 tokens, not a third
  return c;
}

ValidateConfig validate_config() {
  ValidateConfig c;
  c.require = {ValidateCheck::non_empty};
  return c;
}

// The strategies of one pipeline, built for one harness and one retry stream.
using Build = std::function<std::vector<std::unique_ptr<Strategy>>(Harness&, Rng&)>;

// Reply i: a mix, by a fixed hash of i, of successes, empty answers, 500s, 429s with a
// Retry-After of 1 s, and answers slower than the attempt timeout; each bills 100 tokens.
Reply mixed_reply(std::size_t i) {
  std::uint64_t state = i;
  const std::uint64_t h = splitmix64(state);
  Reply reply;
  switch (h % 6) {
    case 0:
    case 1: reply.response = test::results(); break;
    case 2: reply.response = test::no_results(); break;
    case 3: reply.response = test::status(500); break;
    case 4: reply.response = test::status(429, "1"); break;
    default:
      reply.response = test::results();
      reply.latency = 3 * kSecond;
      break;
  }
  if (h % 6 != 5) reply.latency = static_cast<Nanos>(20 + (h >> 32) % 300) * kMillisecond;
  reply.response.input_tokens = 100;
  return reply;
}

// What a run of many calls left behind, in comparable form.
struct Trace {
  test::EventTrace events;
  std::vector<std::tuple<OutcomeKind, TimePoint>> calls;
  friend bool operator==(const Trace&, const Trace&) = default;
};

// Runs `call` as the task runner runs a step: the fused call in the caller's own frame
// (Pipeline::enter, FusedCall), not in a frame of its own (run_fused).
Task<void> complete_in_callers_frame(const Pipeline& pipeline, test::Call& call, const Clock& clock) {
  const FusedRoute* route = pipeline.enter(call.ctx);
  if (route == nullptr) throw std::logic_error("the pipeline does not fuse");
  Outcome outcome;
  FusedCall fused(route);
  while (fused.advance(call.ctx, call.request, outcome)) co_await fused;
  call.outcome = std::move(outcome);
  call.finished = clock.now();
}

void start_in_callers_frame(Harness& h, const Pipeline& pipeline, test::Call& call, std::exception_ptr* error) {
  spawn(complete_in_callers_frame(pipeline, call, h.loop), error);
}

// Where a run's fused calls run: in a frame of their own (Pipeline::execute), in the
// caller's frame (as the task runner runs them), or not fused at all: an Opaque strategy
// between the strategies and the provider keeps them nested.
enum class RunAs { own_frame, callers_frame, nested };

void start_as(RunAs how, Harness& h, const Pipeline& pipeline, test::Call& call, std::exception_ptr* error) {
  (how == RunAs::callers_frame ? start_in_callers_frame : test::start)(h, pipeline, call, error);
}

// Runs test::run_rounds through the strategies `build` gives, ending in a scripted
// provider, as `how` says.
Trace run_calls(const Build& build, RunAs how = RunAs::own_frame) {
  Harness h;
  Xoshiro256 rng(42);
  ScriptedProvider provider(h.loop, [](std::size_t i, const Request&) { return mixed_reply(i); });
  std::vector<std::unique_ptr<Strategy>> strategies = build(h, rng);
  if (how == RunAs::nested) strategies.push_back(std::make_unique<test::Opaque>());
  Pipeline pipeline(provider, h.env, std::move(strategies));
  const auto calls = test::run_rounds(
      h, pipeline, [](int) { return std::make_unique<test::Call>(); },
      [how](Harness& harness, const Pipeline& p, test::Call& c, std::exception_ptr* e) {
        start_as(how, harness, p, c, e);
      });
  Trace t{test::trace_of(h.log), {}};
  for (const auto& c : calls) t.calls.emplace_back(c->outcome.value().kind, c->finished);
  return t;
}

void expect_same_as_nested(const Build& build) {
  const Trace fused = run_calls(build);
  const Trace nested = run_calls(build, RunAs::nested);
  // The mix must exercise what it compares.
  EXPECT_GT(fused.events.attempts.size(), fused.calls.size());
  EXPECT_FALSE(fused.events.backoffs.empty());
  EXPECT_FALSE(fused.events.give_ups.empty());
  test::expect_same_events(fused.events, nested.events);
  EXPECT_EQ(fused.calls, nested.calls);
}

// Timeout outside the retry, breaker and budget inside it: the shipped policies' shape.
std::vector<std::unique_ptr<Strategy>> timeout_retry_breaker_budget(Harness& h, Rng& rng) {
  std::vector<std::unique_ptr<Strategy>> s;
  s.push_back(std::make_unique<TimeoutStrategy>(timeout_config(), h.loop));
  s.push_back(std::make_unique<RetryStrategy>(retry_config(), h.env, rng));
  s.push_back(std::make_unique<CircuitBreakerStrategy>(breaker_config(), h.env, "web_search"));
  s.push_back(std::make_unique<BudgetStrategy>(budget_config(), h.env));
  return s;
}

TEST(FusedCallTest, TimeoutRetryBreakerBudgetMatchNestedCoroutines) {
  expect_same_as_nested(timeout_retry_breaker_budget);
  // And the run did meet the breaker and the budget.
  const Trace t = run_calls(timeout_retry_breaker_budget);
  EXPECT_FALSE(t.events.transitions.empty());
  EXPECT_FALSE(t.events.budgets.empty());
}

TEST(FusedCallTest, GatesOutsideTheRetryAndValidateInsideMatchNestedCoroutines) {
  expect_same_as_nested([](Harness& h, Rng& rng) {
    std::vector<std::unique_ptr<Strategy>> s;
    s.push_back(std::make_unique<BudgetStrategy>(budget_config(), h.env));
    s.push_back(std::make_unique<RetryStrategy>(retry_config(), h.env, rng));
    s.push_back(std::make_unique<ValidateStrategy>(validate_config(), h.env, "web_search"));
    return s;
  });
}

TEST(FusedCallTest, GatesWithoutARetryMatchNestedCoroutines) {
  // Without a retry the run has no backoffs or give-ups of its own: compare directly.
  const Build build = [](Harness& h, Rng&) {
    std::vector<std::unique_ptr<Strategy>> s;
    s.push_back(std::make_unique<TimeoutStrategy>(timeout_config(), h.loop));
    s.push_back(std::make_unique<CircuitBreakerStrategy>(breaker_config(), h.env, "web_search"));
    return s;
  };
  const Trace fused = run_calls(build);
  EXPECT_FALSE(fused.events.transitions.empty());
  EXPECT_EQ(fused, run_calls(build, RunAs::nested));
}

// The task runner runs a fused call in its own frame (FusedCall driven by a loop of
// awaits); run_fused runs the same state machine in a frame of its own. Same events, same
// outcomes, same times.
TEST(FusedCallTest, ACallersFrameRunsTheCallAsAFrameOfItsOwnDoes) {
  const Build gates_outside_and_inside = [](Harness& h, Rng& rng) {
    std::vector<std::unique_ptr<Strategy>> s;
    s.push_back(std::make_unique<TimeoutStrategy>(timeout_config(), h.loop));
    s.push_back(std::make_unique<RetryStrategy>(retry_config(), h.env, rng));
    s.push_back(std::make_unique<CircuitBreakerStrategy>(breaker_config(), h.env, "web_search"));
    s.push_back(std::make_unique<ValidateStrategy>(validate_config(), h.env, "web_search"));
    return s;
  };
  for (const Build& build : {Build(timeout_retry_breaker_budget), gates_outside_and_inside}) {
    const Trace in_callers_frame = run_calls(build, RunAs::callers_frame);
    EXPECT_FALSE(in_callers_frame.events.backoffs.empty());
    EXPECT_FALSE(in_callers_frame.events.transitions.empty());
    EXPECT_EQ(in_callers_frame, run_calls(build, RunAs::own_frame));
  }
}

// A provider whose answer throws after `latency`: the error must reach whoever awaits the
// call, in either frame, not vanish in a state machine.
class ThrowingProvider final : public Provider {
 public:
  explicit ThrowingProvider(EventLoop& loop) : loop_(loop) {}
  std::string_view name() const override { return "throwing"; }
  Task<Response> call(Request, CallOptions) override {
    co_await sleep_until(loop_, loop_.now() + 10 * kMillisecond);
    throw std::runtime_error("provider broke");
  }

 private:
  EventLoop& loop_;
};

TEST(FusedCallTest, AnErrorThrownByTheProvidersCoroutineReachesTheCaller) {
  for (const RunAs how : {RunAs::own_frame, RunAs::callers_frame}) {
    Harness h;
    Xoshiro256 rng(3);
    ThrowingProvider provider(h.loop);
    std::vector<std::unique_ptr<Strategy>> strategies;
    strategies.push_back(std::make_unique<RetryStrategy>(retry_config(), h.env, rng));
    Pipeline pipeline(provider, h.env, std::move(strategies));
    test::Call call;
    std::exception_ptr error;
    start_as(how, h, pipeline, call, &error);
    test::drain(h);
    ASSERT_TRUE(error);
    EXPECT_THROW(std::rethrow_exception(error), std::runtime_error);
    EXPECT_FALSE(call.outcome.has_value());
  }
}

// Which pipelines fuse from their first strategy: route_from's verdict and the route.
struct RouteRig {
  Harness h;
  Xoshiro256 rng{1};
  ScriptedProvider provider{h.loop, std::vector<Reply>{Reply{}}};
  TaskContext task;
  CallContext ctx{task, "web_search"};

  std::unique_ptr<Strategy> timeout() { return std::make_unique<TimeoutStrategy>(timeout_config(), h.loop); }
  std::unique_ptr<Strategy> retry() { return std::make_unique<RetryStrategy>(retry_config(), h.env, rng); }
  std::unique_ptr<Strategy> breaker() {
    return std::make_unique<CircuitBreakerStrategy>(breaker_config(), h.env, "web_search");
  }
  std::unique_ptr<Strategy> opaque() { return std::make_unique<test::Opaque>(); }

  std::optional<FusedRoute> route(std::vector<std::unique_ptr<Strategy>> strategies) {
    Pipeline pipeline(provider, h.env, std::move(strategies));
    FusedRoute r;
    if (!pipeline.route_from(0, ctx, r)) return std::nullopt;
    return r;
  }
};

template <class... S>
std::vector<std::unique_ptr<Strategy>> chain(S... s) {
  std::vector<std::unique_ptr<Strategy>> v;
  (v.push_back(std::move(s)), ...);
  return v;
}

TEST(FusedCallTest, GatesAroundOneRetryFuseAndCountOuterAndInnerGates) {
  RouteRig rig;
  const auto r = rig.route(chain(rig.timeout(), rig.retry(), rig.breaker()));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->outer, 1);
  EXPECT_EQ(r->count, 2);
  EXPECT_NE(r->retry, nullptr);
  EXPECT_NE(r->attempt, nullptr);
  const auto bare = rig.route(chain());
  ASSERT_TRUE(bare.has_value());
  EXPECT_EQ(bare->count, 0);
  EXPECT_EQ(bare->retry, nullptr);
  // Without a retry every gate runs once, around the one attempt.
  const auto gates = rig.route(chain(rig.timeout(), rig.breaker()));
  ASSERT_TRUE(gates.has_value());
  EXPECT_EQ(gates->outer, 2);
  EXPECT_EQ(gates->count, 2);
}

TEST(FusedCallTest, SecondRetryTooManyGatesOrAnotherStrategyDoNotFuse) {
  RouteRig rig;
  EXPECT_FALSE(rig.route(chain(rig.retry(), rig.breaker(), rig.retry())).has_value());
  EXPECT_FALSE(rig.route(chain(rig.timeout(), rig.breaker(), rig.timeout(), rig.breaker())).has_value());
  EXPECT_FALSE(rig.route(chain(rig.retry(), rig.opaque())).has_value());
  EXPECT_TRUE(rig.route(chain(rig.timeout(), rig.breaker(), rig.timeout())).has_value());
}

// A provider that decides every answer at once and has it arrive `latency` later
// (Provider::start), counting the answers a deadline or a cancel cut short.
class ScheduledProvider final : public Provider {
 public:
  ScheduledProvider(EventLoop& loop, Nanos latency) : loop_(loop), latency_(latency) {}
  std::string_view name() const override { return "scheduled"; }
  Task<Response> call(Request request, CallOptions options) override {
    return call_through_start(*this, loop_, request, options);
  }
  Task<Response> start(const Request&, const CallOptions&, Response& response, ScheduledAnswer& answer) override {
    response = test::results();
    answer.at = loop_.now() + latency_;
    answer.cut_short = &cut_short;
    return {};
  }
  std::uint64_t cut_short = 0;

 private:
  EventLoop& loop_;
  Nanos latency_;
};

// A fused attempt waits for a scheduled answer on one timer when nothing can cancel the
// call, and in a frame of its own when something can, whether the fused call runs in a
// frame of its own or in its caller's: either way the answer arrives at its time, a
// deadline before it ends the wait as a timeout at the deadline, and a cancel ends it at
// the time of the cancel.
TEST(FusedCallTest, ScheduledAnswersArriveTimeOutAndAreCancelledAtTheirTimes) {
  const auto one_call = [](RunAs how, Nanos latency, Nanos deadline, CancellationToken token, Nanos cancel_at,
                           CancellationSource* source) {
    Harness h;
    ScheduledProvider provider(h.loop, latency);
    Pipeline pipeline(provider, h.env, {});
    test::Call call;
    call.ctx.deadline = deadline;
    call.ctx.cancellation = token;
    std::exception_ptr error;
    start_as(how, h, pipeline, call, &error);
    if (source != nullptr) {
      h.loop.run_until(cancel_at);
      source->cancel();
    }
    test::drain(h);
    if (error) std::rethrow_exception(error);
    return std::tuple(call.outcome.value().kind, call.finished, provider.cut_short);
  };
  const Nanos ms = kMillisecond;
  for (const RunAs how : {RunAs::own_frame, RunAs::callers_frame}) {
    SCOPED_TRACE(how == RunAs::own_frame ? "in a frame of its own" : "in the caller's frame");
    // Nothing can cancel: arrives at 80 ms; with a 50 ms deadline, a timeout at 50 ms.
    EXPECT_EQ(one_call(how, 80 * ms, kNever, {}, 0, nullptr), std::tuple(OutcomeKind::success, 80 * ms, 0U));
    EXPECT_EQ(one_call(how, 80 * ms, 50 * ms, {}, 0, nullptr), std::tuple(OutcomeKind::timeout, 50 * ms, 1U));
    EXPECT_EQ(one_call(how, 80 * ms, 80 * ms, {}, 0, nullptr), std::tuple(OutcomeKind::success, 80 * ms, 0U));
    // A token that can be cancelled: the same when it is not; cancelled at 30 ms when it is.
    {
      CancellationSource source;
      EXPECT_EQ(one_call(how, 80 * ms, 50 * ms, source.token(), 0, nullptr),
                std::tuple(OutcomeKind::timeout, 50 * ms, 1U));
    }
    {
      CancellationSource source;
      EXPECT_EQ(one_call(how, 80 * ms, kNever, source.token(), 30 * ms, &source),
                std::tuple(OutcomeKind::cancelled, 30 * ms, 1U));
    }
  }
}

}  // namespace
}  // namespace squall

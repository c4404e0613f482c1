#include "engine/strategies/circuit_breaker.hpp"

#include <gtest/gtest.h>

#include "engine/strategies/budget.hpp"
#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::Reply;
using test::ScriptedProvider;

constexpr Nanos kMs = kMillisecond;

CircuitBreakerConfig breaker(std::int32_t threshold, std::int32_t probes = 1) {
  CircuitBreakerConfig c;
  c.failure_threshold = threshold;
  c.open_duration = seconds(10);
  c.half_open_probes = probes;
  return c;
}

// A breaker directly above the provider; keeps a pointer to read its state.
struct BreakerRig {
  BreakerRig(Harness& h, Provider& provider, CircuitBreakerConfig config) {
    auto strategy = std::make_unique<CircuitBreakerStrategy>(std::move(config), h.env, "web_search");
    breaker = strategy.get();
    pipeline = test::make_pipeline(provider, h.env, std::move(strategy));
  }
  CircuitBreakerStrategy* breaker = nullptr;
  std::unique_ptr<Pipeline> pipeline;
};

// Starts `n` calls at the current virtual time and runs the loop until all finish.
std::vector<std::unique_ptr<Call>> run_concurrently(Harness& h, const Pipeline& pipeline, int n) {
  std::vector<std::unique_ptr<Call>> calls;
  std::exception_ptr error;
  for (int i = 0; i < n; ++i) {
    calls.push_back(std::make_unique<Call>());
    test::start(h, pipeline, *calls.back(), &error);
  }
  test::drain(h);
  if (error) std::rethrow_exception(error);
  return calls;
}

OutcomeKind run_one(Harness& h, const Pipeline& pipeline) {
  Call call;
  return test::run(h, pipeline, call).kind;
}

TEST(CircuitBreakerTest, OpensAfterExactlyNConsecutiveFailures) {
  // Threshold 3, every reply a 500 after 100 ms, calls one after another: failures end at
  // 100, 200 and 300 ms, and the third opens the breaker.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(500)}});
  BreakerRig rig(h, provider, breaker(3));
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::server_error);
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::server_error);
  EXPECT_EQ(rig.breaker->state(), BreakerState::closed);
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::server_error);
  EXPECT_EQ(rig.breaker->state(), BreakerState::open);
  EXPECT_EQ(h.log.transitions, (std::vector<std::string>{"300ms closed->open"}));
}

TEST(CircuitBreakerTest, OtherOutcomesResetTheCount) {
  // failure_on = {server_error}; threshold 2: 500, 429 (not a failure here: resets), 500
  // leaves it closed; the next 500 is the second in a row and opens it.
  Harness h;
  ScriptedProvider provider(h.loop,
                            {{test::status(500)}, {test::status(429)}, {test::status(500)}, {test::status(500)}});
  CircuitBreakerConfig config = breaker(2);
  config.failure_on = {OutcomeKind::server_error};
  BreakerRig rig(h, provider, config);
  run_one(h, *rig.pipeline);
  run_one(h, *rig.pipeline);
  run_one(h, *rig.pipeline);
  EXPECT_EQ(rig.breaker->state(), BreakerState::closed);
  run_one(h, *rig.pipeline);
  EXPECT_EQ(rig.breaker->state(), BreakerState::open);
}

TEST(CircuitBreakerTest, IgnoredOutcomesNeitherCountNorReset) {
  // voidllm#184: a 429 between 5xx answers erased the count. Threshold 3, replies 500, 429,
  // 500, 400, 500 with ignore_on = {rate_limited, bad_request}: the 429 and the 400 count as
  // nothing, so the third 500 opens the breaker (at 500 ms). Without ignore_on the 400
  // would reset the count and it would stay closed.
  Harness h;
  ScriptedProvider provider(
      h.loop,
      {{test::status(500)}, {test::status(429)}, {test::status(500)}, {test::status(400)}, {test::status(500)}});
  CircuitBreakerConfig config = breaker(3);
  config.ignore_on = {OutcomeKind::rate_limited, OutcomeKind::bad_request};
  BreakerRig rig(h, provider, config);
  for (int i = 0; i < 4; ++i) run_one(h, *rig.pipeline);
  EXPECT_EQ(rig.breaker->state(), BreakerState::closed);
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::server_error);
  EXPECT_EQ(rig.breaker->state(), BreakerState::open);
  EXPECT_EQ(h.log.transitions, (std::vector<std::string>{"500ms closed->open"}));
}

TEST(CircuitBreakerTest, IgnoredOutcomesWinOverTheDefaultFailureKinds) {
  // rate_limited is in the default failure_on; ignored, five 429s in a row do not open it.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(429)}});
  CircuitBreakerConfig config = breaker(2);
  config.ignore_on = {OutcomeKind::rate_limited};
  BreakerRig rig(h, provider, config);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::rate_limited);
  EXPECT_EQ(rig.breaker->state(), BreakerState::closed);
  EXPECT_TRUE(h.log.transitions.empty());
}

TEST(CircuitBreakerTest, AnIgnoredProbeGivesItsSlotBack) {
  // Threshold 1, one probe. 500 at 100 ms opens it until 10.1 s. The probe at 10.1 s is
  // answered 429 (ignored) at 10.2 s: still half-open, and the next call probes; its
  // success closes the breaker at 10.3 s.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(500)}, {test::status(429)}, {test::results()}});
  CircuitBreakerConfig config = breaker(1);
  config.ignore_on = {OutcomeKind::rate_limited};
  BreakerRig rig(h, provider, config);
  run_one(h, *rig.pipeline);
  h.loop.run_until(10'100 * kMs);
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::rate_limited);
  EXPECT_EQ(rig.breaker->state(), BreakerState::half_open);
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::success);
  EXPECT_EQ(h.log.transitions,
            (std::vector<std::string>{"100ms closed->open", "10100ms open->half_open", "10300ms half_open->closed"}));
}

TEST(CircuitBreakerTest, FailsFastWhileOpenWithoutCallingTheProvider) {
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(500)}});
  BreakerRig rig(h, provider, breaker(1));
  run_one(h, *rig.pipeline);  // opens at 100 ms until 10.1 s
  h.loop.run_until(seconds(5));
  Call call;
  const Outcome rejected = test::run(h, *rig.pipeline, call);
  EXPECT_EQ(rejected.kind, OutcomeKind::circuit_open);
  EXPECT_EQ(rejected.response.status, 0);
  EXPECT_EQ(call.finished, seconds(5));  // at once
  EXPECT_EQ(provider.calls().size(), 1U);
  EXPECT_EQ(call.ctx.attempts, 0);
  EXPECT_TRUE(h.log.attempts.size() == 1U);
}

TEST(CircuitBreakerTest, HalfOpenAdmitsOnlyPermittedProbes) {
  // Threshold 1, two probes. The first call fails at 100 ms: open until 10.1 s. At 10.1 s
  // five callers arrive together: the first two become probes and reach the provider, the
  // other three fail fast. Both probes succeed at 10.2 s; the first closes the breaker and
  // the second, from an ended half-open period, changes nothing.
  Harness h;
  ScriptedProvider provider(
      h.loop, [](std::size_t i, const Request&) { return i == 0 ? Reply{test::status(500)} : Reply{test::results()}; });
  BreakerRig rig(h, provider, breaker(1, 2));
  run_one(h, *rig.pipeline);
  h.loop.run_until(10'100 * kMs);

  const auto calls = run_concurrently(h, *rig.pipeline, 5);
  std::vector<OutcomeKind> kinds;
  for (const auto& c : calls) kinds.push_back(c->outcome->kind);
  EXPECT_EQ(kinds, (std::vector<OutcomeKind>{OutcomeKind::success, OutcomeKind::success, OutcomeKind::circuit_open,
                                             OutcomeKind::circuit_open, OutcomeKind::circuit_open}));
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 10'100 * kMs, 10'100 * kMs}));
  EXPECT_EQ(calls[2]->finished, 10'100 * kMs);
  EXPECT_EQ(h.log.transitions,
            (std::vector<std::string>{"100ms closed->open", "10100ms open->half_open", "10200ms half_open->closed"}));
  EXPECT_EQ(rig.breaker->state(), BreakerState::closed);
}

TEST(CircuitBreakerTest, FailedProbeReopensAndSuccessfulProbeCloses) {
  // Threshold 1, one probe, replies: 500, 500, then successes.
  //   100 ms    call 1 fails: open until 10.1 s
  //   10.1 s    probe (call 2) admitted; a concurrent caller fails fast
  //   10.2 s    the probe fails: re-open until 20.2 s
  //   15 s      fails fast
  //   20.2 s    probe succeeds at 20.3 s: closed
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(500)}, {test::status(500)}, {test::results()}});
  BreakerRig rig(h, provider, breaker(1));
  run_one(h, *rig.pipeline);
  h.loop.run_until(10'100 * kMs);
  const auto calls = run_concurrently(h, *rig.pipeline, 2);
  EXPECT_EQ(calls[0]->outcome->kind, OutcomeKind::server_error);
  EXPECT_EQ(calls[1]->outcome->kind, OutcomeKind::circuit_open);
  EXPECT_EQ(rig.breaker->state(), BreakerState::open);

  h.loop.run_until(seconds(15));
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::circuit_open);
  h.loop.run_until(20'200 * kMs - 1);
  EXPECT_EQ(rig.breaker->state(), BreakerState::open);
  h.loop.run_until(20'200 * kMs);
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::success);

  EXPECT_EQ(provider.calls().size(), 3U);
  EXPECT_EQ(h.log.transitions,
            (std::vector<std::string>{"100ms closed->open", "10100ms open->half_open", "10200ms half_open->open",
                                      "20200ms open->half_open", "20300ms half_open->closed"}));
}

TEST(CircuitBreakerTest, ClosingResetsTheFailureCount) {
  // Threshold 2. Two failures open it; after a successful probe one failure is not enough.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(500)}, {test::status(500)}, {test::results()}, {test::status(500)}});
  BreakerRig rig(h, provider, breaker(2));
  run_one(h, *rig.pipeline);
  run_one(h, *rig.pipeline);
  h.loop.run_until(seconds(11));
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::success);
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::server_error);
  EXPECT_EQ(rig.breaker->state(), BreakerState::closed);
}

TEST(CircuitBreakerTest, LateResultsOfCallsAdmittedWhileClosedAreIgnored) {
  // Threshold 2, one probe. Six calls start together at 0 while closed:
  //   call 0: 500 at 100 ms, call 1: 500 at 200 ms -> opens at 200 ms until 10.2 s
  //   call 2: success at 300 ms   (late: does not reset or close anything)
  //   calls 3, 4: 500 at 400 and 500 ms (late: would otherwise re-open at 500 ms and
  //               push open_until to 10.5 s)
  //   call 5: success at 12 s     (late: arrives while half-open and must not close it
  //               on behalf of the probe)
  // At 10.2 s a probe (call 6) starts; it fails at 15.2 s and re-opens the breaker.
  Harness h;
  ScriptedProvider provider(h.loop, [](std::size_t i, const Request&) {
    switch (i) {
      case 0: return Reply{test::status(500), 100 * kMs};
      case 1: return Reply{test::status(500), 200 * kMs};
      case 2: return Reply{test::results(), 300 * kMs};
      case 3: return Reply{test::status(500), 400 * kMs};
      case 4: return Reply{test::status(500), 500 * kMs};
      case 5: return Reply{test::results(), seconds(12)};
      default: return Reply{test::status(500), seconds(5)};
    }
  });
  BreakerRig rig(h, provider, breaker(2));
  std::vector<std::unique_ptr<Call>> calls;
  std::exception_ptr error;
  for (int i = 0; i < 6; ++i) {
    calls.push_back(std::make_unique<Call>());
    test::start(h, *rig.pipeline, *calls.back(), &error);
  }
  h.loop.run_until(10'200 * kMs - 1);
  EXPECT_EQ(rig.breaker->state(), BreakerState::open);
  h.loop.run_until(10'200 * kMs);
  Call probe;
  test::start(h, *rig.pipeline, probe, &error);
  h.loop.run_until(seconds(13));
  EXPECT_EQ(calls[5]->outcome->kind, OutcomeKind::success);
  EXPECT_EQ(rig.breaker->state(), BreakerState::half_open);
  test::drain(h);
  if (error) std::rethrow_exception(error);
  EXPECT_EQ(probe.outcome->kind, OutcomeKind::server_error);
  EXPECT_EQ(h.log.transitions,
            (std::vector<std::string>{"200ms closed->open", "10200ms open->half_open", "15200ms half_open->open"}));
}

TEST(CircuitBreakerTest, OutcomesThatDidNotReachTheProviderDoNotCount) {
  // Breaker (threshold 1) above a 10-token budget. A request of 100 prompt tokens is
  // refused by the budget: budget_exhausted neither fails nor resets the breaker, and in
  // half-open it gives its probe slot back so the next caller can probe.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(500)}, {test::results()}});
  auto strategy = std::make_unique<CircuitBreakerStrategy>(breaker(1), h.env, "web_search");
  CircuitBreakerStrategy* cb = strategy.get();
  BudgetConfig budget;
  budget.max_tokens = 10;
  auto pipeline =
      test::make_pipeline(provider, h.env, std::move(strategy), std::make_unique<BudgetStrategy>(budget, h.env));

  Call refused;
  refused.request.prompt_tokens = 100;
  EXPECT_EQ(test::run(h, *pipeline, refused).kind, OutcomeKind::budget_exhausted);
  EXPECT_EQ(cb->state(), BreakerState::closed);

  // A timeout returned because the deadline had already passed did not reach it either.
  Call late;
  late.task.deadline = 0;
  EXPECT_EQ(test::run(h, *pipeline, late).kind, OutcomeKind::timeout);
  EXPECT_EQ(cb->state(), BreakerState::closed);

  Call failing;
  EXPECT_EQ(test::run(h, *pipeline, failing).kind, OutcomeKind::server_error);  // opens at 100 ms
  h.loop.run_until(10'100 * kMs);
  Call refused_probe;
  refused_probe.request.prompt_tokens = 100;
  EXPECT_EQ(test::run(h, *pipeline, refused_probe).kind, OutcomeKind::budget_exhausted);
  EXPECT_EQ(cb->state(), BreakerState::half_open);
  Call probe;
  EXPECT_EQ(test::run(h, *pipeline, probe).kind, OutcomeKind::success);
  EXPECT_EQ(h.log.transitions,
            (std::vector<std::string>{"100ms closed->open", "10100ms open->half_open", "10200ms half_open->closed"}));
}

TEST(CircuitBreakerTest, OpenToHalfOpenIsReadLazily) {
  // After open_duration the breaker reads as half-open, but the transition event is
  // emitted only when a call arrives (no timers).
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(500)}, {test::results()}});
  BreakerRig rig(h, provider, breaker(1));
  run_one(h, *rig.pipeline);
  h.loop.run_until(seconds(60));
  EXPECT_EQ(rig.breaker->state(), BreakerState::half_open);
  EXPECT_EQ(h.log.transitions, (std::vector<std::string>{"100ms closed->open"}));
  EXPECT_TRUE(h.loop.empty());
  run_one(h, *rig.pipeline);
  EXPECT_EQ(h.log.transitions,
            (std::vector<std::string>{"100ms closed->open", "60000ms open->half_open", "60100ms half_open->closed"}));
}

TEST(CircuitBreakerTest, DefaultFailureKinds) {
  EXPECT_EQ(CircuitBreakerConfig::default_failure_on(),
            (std::vector<OutcomeKind>{OutcomeKind::timeout, OutcomeKind::rate_limited, OutcomeKind::overloaded,
                                      OutcomeKind::server_error}));
}

}  // namespace
}  // namespace squall

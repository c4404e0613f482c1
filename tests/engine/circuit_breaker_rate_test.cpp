// circuit_breaker's rate-based mode (a sliding_window, resilience4j's model), its
// open-duration backoff, and the cause of every opening: exact virtual-time timelines.
#include <gtest/gtest.h>

#include "engine/strategies/breaker_window.hpp"
#include "engine/strategies/circuit_breaker.hpp"
#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::Reply;
using test::ScriptedProvider;

constexpr Nanos kMs = kMillisecond;
const Reply kFail{test::status(500)};
const Reply kOk{test::results()};

CircuitBreakerConfig windowed(SlidingWindowType type, std::int64_t size, std::int64_t minimum,
                              std::int64_t failure_ppm) {
  CircuitBreakerConfig c;
  c.sliding_window = SlidingWindowConfig{type, size};
  c.minimum_number_of_calls = minimum;
  c.failure_rate_threshold_ppm = failure_ppm;
  c.open_duration = seconds(10);
  return c;
}

struct Rig {
  Rig(Harness& h, Provider& provider, CircuitBreakerConfig config) {
    auto strategy = std::make_unique<CircuitBreakerStrategy>(std::move(config), h.env, "web_search");
    breaker = strategy.get();
    pipeline = test::make_pipeline(provider, h.env, std::move(strategy));
  }
  CircuitBreakerStrategy* breaker = nullptr;
  std::unique_ptr<Pipeline> pipeline;
};

OutcomeKind run_one(Harness& h, const Pipeline& pipeline) {
  Call call;
  return test::run(h, pipeline, call).kind;
}

std::vector<std::unique_ptr<Call>> start_together(Harness& h, const Pipeline& pipeline, int n,
                                                  std::exception_ptr* error) {
  std::vector<std::unique_ptr<Call>> calls;
  for (int i = 0; i < n; ++i) {
    calls.push_back(std::make_unique<Call>());
    test::start(h, pipeline, *calls.back(), error);
  }
  return calls;
}

TEST(BreakerWindowTest, CountBasedKeepsTheLastSizeCalls) {
  BreakerWindow w(SlidingWindowType::count_based, 3);
  w.record(0, true, false);
  w.record(0, true, true);
  w.record(0, false, true);
  EXPECT_EQ(w.counts(0).calls, 3);
  EXPECT_EQ(w.counts(0).failures, 2);
  EXPECT_EQ(w.counts(0).slow, 2);
  w.record(0, false, false);  // replaces the first (a failure)
  EXPECT_EQ(w.counts(0).calls, 3);
  EXPECT_EQ(w.counts(0).failures, 1);
  EXPECT_EQ(w.counts(0).slow, 2);
  w.clear();
  EXPECT_EQ(w.counts(0).calls, 0);
}

TEST(BreakerWindowTest, TimeBasedDropsSecondsThatLeftTheWindow) {
  // A 2 s window at time t holds the seconds floor(t) - 1 and floor(t).
  BreakerWindow w(SlidingWindowType::time_based, 2);
  w.record(100 * kMs, true, false);    // second 0
  w.record(1'900 * kMs, false, true);  // second 1
  EXPECT_EQ(w.counts(1'999 * kMs).calls, 2);
  EXPECT_EQ(w.counts(2'000 * kMs).calls, 1);  // second 0 left at 2 s exactly
  EXPECT_EQ(w.counts(2'000 * kMs).failures, 0);
  EXPECT_EQ(w.counts(2'000 * kMs).slow, 1);
  EXPECT_EQ(w.counts(10 * kSecond).calls, 0);
}

TEST(CircuitBreakerRateTest, RateIsNotJudgedBeforeTheMinimumNumberOfCalls) {
  // Window of 10 calls, minimum 4, threshold 50%. Three failures (100% of 3 calls) leave
  // it closed; the fourth call, a success, makes 3 of 4 = 75% and opens it at 400 ms.
  Harness h;
  ScriptedProvider provider(h.loop, {kFail, kFail, kFail, kOk});
  Rig rig(h, provider, windowed(SlidingWindowType::count_based, 10, 4, 500'000));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::server_error);
  EXPECT_EQ(rig.breaker->state(), BreakerState::closed);
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::success);
  EXPECT_EQ(rig.breaker->state(), BreakerState::open);
  EXPECT_EQ(h.log.openings, (std::vector<std::string>{"400ms failure_rate"}));
}

TEST(CircuitBreakerRateTest, ThresholdIsReachedAtExactlyTheRate) {
  // 1 failure in 2 calls is 50%, which reaches a 50% threshold (resilience4j: ">= ").
  Harness h;
  ScriptedProvider provider(h.loop, {kOk, kFail});
  Rig rig(h, provider, windowed(SlidingWindowType::count_based, 2, 2, 500'000));
  run_one(h, *rig.pipeline);
  run_one(h, *rig.pipeline);
  EXPECT_EQ(h.log.openings, (std::vector<std::string>{"200ms failure_rate"}));
}

TEST(CircuitBreakerRateTest, MinimumIsCappedAtACountWindowsSize) {
  // resilience4j: a COUNT_BASED window judges min(minimumNumberOfCalls, size) calls. The
  // default minimum 100 over a window of 2: two failures open it at 200 ms.
  Harness h;
  ScriptedProvider provider(h.loop, {kFail});
  Rig rig(h, provider, windowed(SlidingWindowType::count_based, 2, 100, 500'000));
  run_one(h, *rig.pipeline);
  run_one(h, *rig.pipeline);
  EXPECT_EQ(h.log.openings, (std::vector<std::string>{"200ms failure_rate"}));
}

TEST(CircuitBreakerRateTest, CountWindowRollsOver) {
  // Window of 4 calls, minimum 4, threshold 75%. Results F S S F: 2/4. Then F: the first F
  // leaves, S S F F = 2/4 (over all five calls it would be 3/5, still below). Then F: S F F F
  // = 3/4 opens at 600 ms, where over all six calls 4/6 = 67% would not have.
  Harness h;
  ScriptedProvider provider(h.loop, {kFail, kOk, kOk, kFail, kFail, kFail});
  Rig rig(h, provider, windowed(SlidingWindowType::count_based, 4, 4, 750'000));
  for (int i = 0; i < 5; ++i) run_one(h, *rig.pipeline);
  EXPECT_EQ(rig.breaker->state(), BreakerState::closed);
  run_one(h, *rig.pipeline);
  EXPECT_EQ(h.log.openings, (std::vector<std::string>{"600ms failure_rate"}));
}

TEST(CircuitBreakerRateTest, TimeWindowRollsOver) {
  // A 2 s window, minimum 2, threshold 60%. A failure ends at 0.1 s (second 0), a success
  // at 1.1 s (second 1): 1/2. A failure at 2.1 s: second 0 has left, so S F = 1/2 (over
  // every call, 2/3 = 67% would open it). Another failure at 2.2 s: S F F = 2/3 opens it.
  Harness h;
  ScriptedProvider provider(h.loop, {kFail, kOk, kFail, kFail});
  Rig rig(h, provider, windowed(SlidingWindowType::time_based, 2, 2, 600'000));
  run_one(h, *rig.pipeline);
  h.loop.run_until(seconds(1));
  run_one(h, *rig.pipeline);
  h.loop.run_until(seconds(2));
  run_one(h, *rig.pipeline);
  EXPECT_EQ(rig.breaker->state(), BreakerState::closed);
  run_one(h, *rig.pipeline);
  EXPECT_EQ(h.log.openings, (std::vector<std::string>{"2200ms failure_rate"}));
}

TEST(CircuitBreakerRateTest, SlowCallsCountWhetherTheySucceedOrFail) {
  // Window of 3, minimum 3, slow above 5 s, slow-call threshold 60%, failure threshold
  // 50%. A success in 6 s (slow), a success in exactly 5 s (not slow: "above"), a failure
  // in 6 s (slow): 2/3 slow = 67% opens it at 6 + 5 + 6 = 17 s with cause slow_call_rate,
  // while 1/3 failed stays below 50%.
  Harness h;
  ScriptedProvider provider(h.loop, {Reply{test::results(), seconds(6)}, Reply{test::results(), seconds(5)},
                                     Reply{test::status(500), seconds(6)}});
  CircuitBreakerConfig c = windowed(SlidingWindowType::count_based, 3, 3, 500'000);
  c.slow_call_duration_threshold = seconds(5);
  c.slow_call_rate_threshold_ppm = 600'000;
  Rig rig(h, provider, c);
  for (int i = 0; i < 3; ++i) run_one(h, *rig.pipeline);
  EXPECT_EQ(h.log.openings, (std::vector<std::string>{"17000ms slow_call_rate"}));
}

TEST(CircuitBreakerRateTest, HalfOpenAdmitsPermittedProbesAndClosesOnTheirRate) {
  // Window 2, minimum 2, 50%, three probes. Two failures open it at 200 ms until 10.2 s.
  // At 10.2 s four callers: three probes (F in 100 ms, S in 200 ms, S in 300 ms) and one
  // refused. After the first two results the breaker is still half-open; the third makes
  // 1/3 = 33% < 50% and closes it at 10.5 s.
  Harness h;
  ScriptedProvider provider(h.loop, [](std::size_t i, const Request&) {
    switch (i) {
      case 0:
      case 1: return kFail;
      case 2: return Reply{test::status(500), 100 * kMs};
      case 3: return Reply{test::results(), 200 * kMs};
      default: return Reply{test::results(), 300 * kMs};
    }
  });
  CircuitBreakerConfig c = windowed(SlidingWindowType::count_based, 2, 2, 500'000);
  c.half_open_probes = 3;
  Rig rig(h, provider, c);
  run_one(h, *rig.pipeline);
  run_one(h, *rig.pipeline);
  h.loop.run_until(10'200 * kMs);
  std::exception_ptr error;
  const auto calls = start_together(h, *rig.pipeline, 4, &error);
  h.loop.run_until(10'499 * kMs);
  EXPECT_EQ(calls[3]->outcome->kind, OutcomeKind::circuit_open);
  EXPECT_EQ(rig.breaker->state(), BreakerState::half_open);
  test::drain(h);
  if (error) std::rethrow_exception(error);
  EXPECT_EQ(h.log.transitions,
            (std::vector<std::string>{"200ms closed->open", "10200ms open->half_open", "10500ms half_open->closed"}));
  EXPECT_EQ(provider.calls().size(), 5U);
}

TEST(CircuitBreakerRateTest, HalfOpenReopensWhenTheProbesFailureRateReachesTheThreshold) {
  // As above with probes F, F, S: 2/3 = 67% >= 50% re-opens at the third result, 10.5 s.
  Harness h;
  ScriptedProvider provider(h.loop, [](std::size_t i, const Request&) {
    switch (i) {
      case 0:
      case 1: return kFail;
      case 2: return Reply{test::status(500), 100 * kMs};
      case 3: return Reply{test::status(500), 200 * kMs};
      default: return Reply{test::results(), 300 * kMs};
    }
  });
  CircuitBreakerConfig c = windowed(SlidingWindowType::count_based, 2, 2, 500'000);
  c.half_open_probes = 3;
  Rig rig(h, provider, c);
  run_one(h, *rig.pipeline);
  run_one(h, *rig.pipeline);
  h.loop.run_until(10'200 * kMs);
  std::exception_ptr error;
  const auto calls = start_together(h, *rig.pipeline, 3, &error);
  test::drain(h);
  if (error) std::rethrow_exception(error);
  EXPECT_EQ(h.log.transitions,
            (std::vector<std::string>{"200ms closed->open", "10200ms open->half_open", "10500ms half_open->open"}));
  EXPECT_EQ(h.log.openings, (std::vector<std::string>{"200ms failure_rate", "10500ms failure_rate"}));
}

TEST(CircuitBreakerRateTest, LateResultsDoNotCountInTheNextPeriod) {
  // Window 2, minimum 2, 50%, one probe. Four calls start together at 0: F at 100 ms and
  // F at 200 ms open the breaker; S at 300 ms and S at 12 s were admitted while closed
  // and are ignored: the first does not close it, the second, arriving while the probe
  // (admitted at 10.2 s, failing at 15.2 s) runs, neither closes it nor fills the probe's
  // count.
  Harness h;
  ScriptedProvider provider(h.loop, [](std::size_t i, const Request&) {
    switch (i) {
      case 0: return Reply{test::status(500), 100 * kMs};
      case 1: return Reply{test::status(500), 200 * kMs};
      case 2: return Reply{test::results(), 300 * kMs};
      case 3: return Reply{test::results(), seconds(12)};
      default: return Reply{test::status(500), seconds(5)};
    }
  });
  CircuitBreakerConfig c = windowed(SlidingWindowType::count_based, 2, 2, 500'000);
  c.half_open_probes = 1;
  Rig rig(h, provider, c);
  std::exception_ptr error;
  const auto calls = start_together(h, *rig.pipeline, 4, &error);
  h.loop.run_until(10'200 * kMs);
  EXPECT_EQ(rig.breaker->state(), BreakerState::half_open);
  Call probe;
  test::start(h, *rig.pipeline, probe, &error);
  h.loop.run_until(seconds(13));
  EXPECT_EQ(calls[3]->outcome->kind, OutcomeKind::success);
  EXPECT_EQ(rig.breaker->state(), BreakerState::half_open);
  test::drain(h);
  if (error) std::rethrow_exception(error);
  EXPECT_EQ(h.log.transitions,
            (std::vector<std::string>{"200ms closed->open", "10200ms open->half_open", "15200ms half_open->open"}));
}

TEST(CircuitBreakerBackoffTest, OpenDurationBacksOffUntilTheBreakerCloses) {
  // Consecutive mode, threshold 1, open 10 s, multiplier 2, capped at 25 s:
  //   0.1 s    fails: open 10 s, until 10.1 s
  //   10.1 s   probe fails at 10.2 s: open 20 s, until 30.2 s
  //   30.2 s   probe fails at 30.3 s: open 40 s capped to 25 s, until 55.3 s
  //   55.3 s   probe succeeds at 55.4 s: closed, the backoff restarts
  //   55.4 s   fails at 55.5 s: open 10 s again, until 65.5 s
  Harness h;
  ScriptedProvider provider(h.loop, {kFail, kFail, kFail, kOk, kFail});
  CircuitBreakerConfig c;
  c.failure_threshold = 1;
  c.open_duration = seconds(10);
  c.open_duration_multiplier = 2;
  c.max_open_duration = seconds(25);
  Rig rig(h, provider, c);
  run_one(h, *rig.pipeline);
  h.loop.run_until(10'100 * kMs);
  run_one(h, *rig.pipeline);
  h.loop.run_until(30'200 * kMs - 1);
  EXPECT_EQ(rig.breaker->state(), BreakerState::open);
  h.loop.run_until(30'200 * kMs);
  run_one(h, *rig.pipeline);
  h.loop.run_until(55'300 * kMs - 1);
  EXPECT_EQ(rig.breaker->state(), BreakerState::open);
  h.loop.run_until(55'300 * kMs);
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::success);
  run_one(h, *rig.pipeline);
  h.loop.run_until(65'500 * kMs - 1);
  EXPECT_EQ(rig.breaker->state(), BreakerState::open);
  h.loop.run_until(65'500 * kMs);
  EXPECT_EQ(rig.breaker->state(), BreakerState::half_open);
  EXPECT_EQ(h.log.openings, (std::vector<std::string>{"100ms consecutive_failures", "10200ms probe_failed",
                                                      "30300ms probe_failed", "55500ms consecutive_failures"}));
}

TEST(CircuitBreakerBackoffTest, WithoutAMultiplierEveryOpeningLastsOpenDuration) {
  // The default multiplier 1: the re-opening at 10.2 s lasts 10 s again, until 20.2 s.
  Harness h;
  ScriptedProvider provider(h.loop, {kFail});
  CircuitBreakerConfig c;
  c.failure_threshold = 1;
  c.open_duration = seconds(10);
  Rig rig(h, provider, c);
  run_one(h, *rig.pipeline);
  h.loop.run_until(10'100 * kMs);
  run_one(h, *rig.pipeline);
  h.loop.run_until(20'200 * kMs - 1);
  EXPECT_EQ(rig.breaker->state(), BreakerState::open);
  h.loop.run_until(20'200 * kMs);
  EXPECT_EQ(rig.breaker->state(), BreakerState::half_open);
}

TEST(CircuitBreakerBackoffTest, DefaultsAreResilience4jsWithAWindowAndPollysWithout) {
  CircuitBreakerConfig c;
  EXPECT_EQ(c.permitted_probes(), 1);
  c.sliding_window = SlidingWindowConfig{};
  EXPECT_EQ(c.permitted_probes(), 10);
  EXPECT_EQ(c.sliding_window->size, 100);
  EXPECT_EQ(c.failure_rate_threshold_ppm, 500'000);
  EXPECT_EQ(c.minimum_number_of_calls, 100);
  EXPECT_EQ(c.slow_call_rate_threshold_ppm, 1'000'000);
  EXPECT_EQ(c.slow_call_duration_threshold, 60 * kSecond);
  EXPECT_EQ(c.open_duration, 30 * kSecond);
}

}  // namespace
}  // namespace squall

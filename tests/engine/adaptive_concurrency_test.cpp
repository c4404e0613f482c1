// adaptive_concurrency: the limit algorithms update by update (Netflix AIMDLimit and
// VegasLimit's formulas, an AIMD sawtooth against its closed form, aibrix#2530's growth
// tied to the limit), and the strategy's exact virtual-time timelines (admission, the
// queue, windows, cooldowns, what is ignored).
#include "engine/strategies/adaptive_concurrency.hpp"

#include <gtest/gtest.h>

#include <array>
#include <numeric>
#include <vector>

#include "tests/engine/test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::Reply;
using test::ScriptedProvider;

AdaptiveConcurrencyConfig aimd(std::int32_t initial, double ratio = 0.9) {
  AdaptiveConcurrencyConfig c;
  c.initial_limit = initial;
  c.backoff_ratio = ratio;
  return c;
}

LimitSample ok(std::int32_t in_flight, Nanos rtt = 100 * kMillisecond) { return LimitSample{rtt, in_flight, false}; }
LimitSample drop(std::int32_t in_flight = 1) { return LimitSample{100 * kMillisecond, in_flight, true}; }

TEST(AdaptiveConcurrencyTest, DefaultsAreNetflixConcurrencyLimits) {
  const AdaptiveConcurrencyConfig c;
  EXPECT_EQ(c.algorithm, LimitAlgorithmKind::aimd);
  EXPECT_EQ(c.initial_limit, 20);          // VegasLimit, Gradient2Limit
  EXPECT_EQ(c.min_limit, 1);               // max(1, ...) in both
  EXPECT_EQ(c.max_limit, 1000);            // VegasLimit maxConcurrency
  EXPECT_DOUBLE_EQ(c.backoff_ratio, 0.9);  // AIMDLimit backoffRatio
  EXPECT_EQ(c.timeout, 5 * kSecond);       // AIMDLimit DEFAULT_TIMEOUT
  EXPECT_DOUBLE_EQ(c.smoothing, 1.0);      // VegasLimit smoothing
  EXPECT_EQ(c.probe_multiplier, 30);       // VegasLimit probeMultiplier
  EXPECT_EQ(c.decrease_window, 0);         // AIMDLimit: every drop
  EXPECT_EQ(c.drop_on,
            (std::vector<OutcomeKind>{OutcomeKind::timeout, OutcomeKind::rate_limited, OutcomeKind::overloaded}));
}

TEST(AdaptiveConcurrencyTest, AimdDecreasesByTheRatioAndAtLeastOne) {
  FixedRng rng(0);
  AdaptiveConcurrencyConfig c = aimd(20);
  LimitAlgorithm a(c, rng);
  EXPECT_TRUE(a.update(drop(), true));
  EXPECT_EQ(a.limit(), 18);  // floor(20 x 0.9)
  c.initial_limit = 5;
  LimitAlgorithm small(c, rng);
  small.update(drop(), true);
  EXPECT_EQ(small.limit(), 4);  // floor(4.5)
  c.initial_limit = 2;
  c.backoff_ratio = 0.999;
  LimitAlgorithm close_to_one(c, rng);
  close_to_one.update(drop(), true);
  EXPECT_EQ(close_to_one.limit(), 1);  // floor(1.998) = 1, and at least 1 down in any case
  close_to_one.update(drop(), true);
  EXPECT_EQ(close_to_one.limit(), 1);  // the floor, min_limit
}

TEST(AdaptiveConcurrencyTest, AimdGrowsOnlyWhenNotAppLimitedNorCoolingDown) {
  FixedRng rng(0);
  const AdaptiveConcurrencyConfig c = aimd(10);
  LimitAlgorithm a(c, rng);
  EXPECT_FALSE(a.update(ok(4), true));
  EXPECT_EQ(a.limit(), 10);  // 4 x 2 < 10: the client did not use its limit
  a.update(ok(5), false);
  EXPECT_EQ(a.limit(), 10);  // cooling down
  a.update(ok(5), true);
  EXPECT_EQ(a.limit(), 11);
  EXPECT_TRUE(a.update(ok(11, 6 * kSecond), true));  // a round trip over the 5 s timeout is a drop
  EXPECT_EQ(a.limit(), 9);
}

// The closed form of AIMD's sawtooth under a constant error rate: with one drop every k
// updates, the limit settles where a decrease and k - 1 increases cancel out,
// L* = floor(b L*) + k - 1, that is L* = (k - 1) / (1 - b) when it is a whole number
// (Chiu and Jain, 1989): b = 0.5, k = 11 gives a peak of 20, a trough of 10, a mean of 15.
TEST(AdaptiveConcurrencyTest, AimdSawtoothMatchesItsClosedForm) {
  FixedRng rng(0);
  const AdaptiveConcurrencyConfig c = aimd(50, 0.5);
  LimitAlgorithm a(c, rng);
  constexpr int k = 11;
  std::vector<std::int32_t> limits;
  for (int i = 1; i <= 100 * k; ++i) {
    a.update(i % k == 0 ? drop(a.limit()) : ok(a.limit()), true);
    limits.push_back(a.limit());
  }
  const std::vector<std::int32_t> last_cycle(limits.end() - k, limits.end());
  EXPECT_EQ(*std::max_element(last_cycle.begin(), last_cycle.end()), 20);
  EXPECT_EQ(*std::min_element(last_cycle.begin(), last_cycle.end()), 10);
  EXPECT_DOUBLE_EQ(std::accumulate(last_cycle.begin(), last_cycle.end(), 0.0) / k, 15.0);
}

// aibrix#2530: growing by 1 per `limit` updates (TCP congestion avoidance) instead of per
// update makes the climb from 10 back to 20 take 10 + 11 + ... + 19 = 145 updates, not 10:
// 14.5 times slower.
TEST(AdaptiveConcurrencyTest, GrowthTiedToTheLimitRecoversFourteenAndAHalfTimesSlower) {
  FixedRng rng(0);
  const auto updates_to_recover = [&rng](LimitGrowth growth) {
    AdaptiveConcurrencyConfig c = aimd(10);
    c.growth = growth;
    LimitAlgorithm a(c, rng);
    int n = 0;
    while (a.limit() < 20) {
      a.update(ok(a.limit()), true);
      ++n;
    }
    return n;
  };
  EXPECT_EQ(updates_to_recover(LimitGrowth::per_update), 10);
  EXPECT_EQ(updates_to_recover(LimitGrowth::per_limit), 145);
}

TEST(AdaptiveConcurrencyTest, SlowStartGrowsPerUpdateUntilTheFirstDecrease) {
  FixedRng rng(0);
  AdaptiveConcurrencyConfig c = aimd(4, 0.5);
  c.growth = LimitGrowth::per_limit;
  c.slow_start = true;
  LimitAlgorithm a(c, rng);
  for (int i = 0; i < 4; ++i) a.update(ok(a.limit()), true);
  EXPECT_EQ(a.limit(), 8);  // +1 per update
  a.update(drop(8), true);
  EXPECT_EQ(a.limit(), 4);
  for (int i = 0; i < 3; ++i) a.update(ok(4), true);
  EXPECT_EQ(a.limit(), 4);  // now +1 per 4 updates
  a.update(ok(4), true);
  EXPECT_EQ(a.limit(), 5);
}

// VegasLimit with its default functions at limit 20 (lg = 1: alpha 3, beta 6, threshold 1);
// the jitter pinned near 1 keeps the probe 30 x 20 updates away.
TEST(AdaptiveConcurrencyTest, VegasFollowsTheEstimatedQueue) {
  FixedRng rng = FixedRng::at_fraction(0.999);
  AdaptiveConcurrencyConfig c;
  c.algorithm = LimitAlgorithmKind::vegas;
  LimitAlgorithm v(c, rng);
  v.update(ok(20, 100 * kMillisecond), true);  // the first RTT is the no-load RTT
  EXPECT_EQ(v.limit(), 20);
  v.update(ok(20, 100 * kMillisecond), true);  // queue ceil(20 x 0) = 0 <= 1: + beta
  EXPECT_EQ(v.limit(), 26);
  EXPECT_TRUE(v.update(ok(26, 200 * kMillisecond), true));  // queue ceil(26 x 0.5) = 13 > 6: - lg
  EXPECT_EQ(v.limit(), 25);
  v.update(ok(25, 105 * kMillisecond), true);  // queue ceil(25 x 0.048) = 2 < alpha 3: + lg
  EXPECT_EQ(v.limit(), 26);
  v.update(ok(26, 150 * kMillisecond), true);  // queue ceil(26 x 0.33) = 9 > 6: - lg
  EXPECT_EQ(v.limit(), 25);
  v.update(ok(25, 120 * kMillisecond), true);  // queue ceil(25 x 0.167) = 5: between, unchanged
  EXPECT_EQ(v.limit(), 25);
  EXPECT_TRUE(v.update(LimitSample{100 * kMillisecond, 25, true}, true));  // a drop: - lg
  EXPECT_EQ(v.limit(), 24);
  v.update(ok(5, 100 * kMillisecond), true);  // app-limited: unchanged
  EXPECT_EQ(v.limit(), 24);
  EXPECT_EQ(LimitAlgorithm::log10_root(9), 1);
  EXPECT_EQ(LimitAlgorithm::log10_root(100), 2);
}

// ---- The strategy ------------------------------------------------------------------

struct Rig {
  Rig(Harness& h, Provider& provider, AdaptiveConcurrencyConfig config) : rng(0) {
    auto s = std::make_unique<AdaptiveConcurrencyStrategy>(std::move(config), h.env, "llm", rng);
    strategy = s.get();
    pipeline = test::make_pipeline(provider, h.env, std::move(s));
  }
  FixedRng rng;
  AdaptiveConcurrencyStrategy* strategy = nullptr;
  std::unique_ptr<Pipeline> pipeline;
};

// Starts each call at its time and drains the loop.
template <std::size_t N>
void run_at(Harness& h, const Pipeline& p, std::array<Call, N>& calls, const std::array<TimePoint, N>& at) {
  std::exception_ptr error;
  const auto start_at = [&h, &p, &error](Call& c, TimePoint t) -> Task<void> {
    co_await sleep_until(h.loop, t);
    test::start(h, p, c, &error);
  };
  for (std::size_t i = 0; i < N; ++i) spawn(start_at(calls[i], at[i]), &error);
  test::drain(h);
  if (error) std::rethrow_exception(error);
}

TEST(AdaptiveConcurrencyTest, ADropShrinksTheLimitAndCallsBeyondItAreRefused) {
  Harness h;
  ScriptedProvider provider(h.loop, [](std::size_t i, const Request&) {
    return i == 0 ? Reply{test::status(429), 100 * kMillisecond} : Reply{test::results(), 100 * kMillisecond};
  });
  Rig rig(h, provider, aimd(3, 0.5));
  std::array<Call, 5> calls;
  run_at(h, *rig.pipeline, calls, {0, 0, 0, 0, 150 * kMillisecond});
  // Calls 0-2 take the 3 slots; call 3 finds none and no queue. The 429 at 100 ms halves
  // the limit to 1; calls 1 and 2 (admitted 2nd and 3rd: 2 x 2 and 3 x 2 >= the limit)
  // each add 1. Call 4 at 150 ms finds the limit 3 and nothing in flight.
  EXPECT_EQ(h.log.limits, (std::vector<std::string>{
                              "0ms start 3->3 in_flight=0 queued=0",
                              "0ms rejected 3->3 in_flight=3 queued=0",
                              "100ms decrease 3->1 in_flight=3 queued=0",
                              "100ms increase 1->2 in_flight=2 queued=0",
                              "100ms increase 2->3 in_flight=1 queued=0",
                          }));
  EXPECT_EQ(calls[3].outcome->kind, OutcomeKind::bulkhead_full);
  EXPECT_EQ(calls[3].finished, 0);
  EXPECT_EQ(calls[4].outcome->kind, OutcomeKind::success);
  EXPECT_EQ(rig.strategy->limit(), 3);  // call 4 ran alone: 1 x 2 < 3, app-limited
  EXPECT_EQ(rig.strategy->in_flight(), 0);
}

// aibrix#2452: a 0.5 decrease per error took a limit of 128 to 1 on one correlated burst;
// a window with a drop threshold decreases once for the burst.
TEST(AdaptiveConcurrencyTest, ACorrelatedBurstDecreasesOncePerWindow) {
  const auto lowest_after_burst = [](Nanos window) {
    Harness h;
    ScriptedProvider provider(h.loop, {Reply{test::status(429), 100 * kMillisecond}});
    AdaptiveConcurrencyConfig c = aimd(128, 0.5);
    c.decrease_window = window;
    Rig rig(h, provider, c);
    std::array<Call, 8> calls;
    run_at(h, *rig.pipeline, calls, {});
    return rig.strategy->limit();
  };
  EXPECT_EQ(lowest_after_burst(0), 1);         // 128 -> 64 -> ... -> 1
  EXPECT_EQ(lowest_after_burst(kSecond), 64);  // one decrease in the window
}

// The window opens at the burst's first drop, not at whatever answer came before it: a
// burst shorter than the window is one decrease however the answers before it fell.
TEST(AdaptiveConcurrencyTest, AWindowOpensAtTheFirstDropOfABurst) {
  Harness h;
  ScriptedProvider provider(h.loop, [](std::size_t i, const Request&) {
    return i == 0 ? Reply{test::results(), 100 * kMillisecond} : Reply{test::status(429), 100 * kMillisecond};
  });
  AdaptiveConcurrencyConfig c = aimd(16, 0.5);
  c.decrease_window = kSecond;
  Rig rig(h, provider, c);
  std::array<Call, 3> calls;
  // A success at 100 ms opens no window; 429s at 1000 ms and 1900 ms are one burst.
  run_at(h, *rig.pipeline, calls, {0, 900 * kMillisecond, 1800 * kMillisecond});
  EXPECT_EQ(h.log.limits, (std::vector<std::string>{
                              "0ms start 16->16 in_flight=0 queued=0",
                              "1000ms decrease 16->8 in_flight=1 queued=0",
                          }));
}

TEST(AdaptiveConcurrencyTest, DropsBelowTheWindowsThresholdChangeNothing) {
  Harness h;
  ScriptedProvider provider(h.loop, [](std::size_t i, const Request&) {
    const bool overloaded = i == 0 || i == 1 || i >= 4;
    return overloaded ? Reply{test::status(503), 100 * kMillisecond} : Reply{test::results(), 100 * kMillisecond};
  });
  AdaptiveConcurrencyConfig c = aimd(4, 0.5);
  c.decrease_window = 500 * kMillisecond;
  c.min_drops = 3;
  Rig rig(h, provider, c);
  std::array<Call, 8> calls;
  // At 100 ms the first answer opens a window to 600 ms: two 503s, below min_drops 3,
  // change nothing; the two successes grow the limit. The third 503 of the window (300 ms)
  // decreases it; the fourth, in the same window, does not; the 503 at 800 ms opens a new
  // window and is again below the threshold.
  run_at(h, *rig.pipeline, calls,
         {0, 0, 0, 0, 200 * kMillisecond, 200 * kMillisecond, 200 * kMillisecond, 700 * kMillisecond});
  EXPECT_EQ(h.log.limits, (std::vector<std::string>{
                              "0ms start 4->4 in_flight=0 queued=0",
                              "100ms increase 4->5 in_flight=2 queued=0",
                              "100ms increase 5->6 in_flight=1 queued=0",
                              "300ms decrease 6->3 in_flight=3 queued=0",
                          }));
  EXPECT_EQ(rig.strategy->limit(), 3);
}

// inspect_ai#5138: a limit frozen by a stream of 429s carrying an 89 s Retry-After, when
// the Retry-After holds increases off; a fixed cooldown lets it grow back after 10 s.
TEST(AdaptiveConcurrencyTest, ACooldownIndependentOfRetryAfterLetsTheLimitGrowBack) {
  const auto limits = [](bool from_retry_after) {
    Harness h;
    ScriptedProvider provider(h.loop, [](std::size_t i, const Request&) {
      return i == 0 ? Reply{test::status(429, "89"), 100 * kMillisecond} : Reply{test::results(), 100 * kMillisecond};
    });
    AdaptiveConcurrencyConfig c = aimd(2);
    c.cooldown = 10 * kSecond;
    c.cooldown_from_retry_after = from_retry_after;
    Rig rig(h, provider, c);
    std::array<Call, 4> calls;
    run_at(h, *rig.pipeline, calls, {0, 5 * kSecond, 20 * kSecond, 95 * kSecond});
    return h.log.limits;
  };
  EXPECT_EQ(limits(false), (std::vector<std::string>{
                               "0ms start 2->2 in_flight=0 queued=0",
                               "100ms decrease 2->1 in_flight=1 queued=0",
                               "20100ms increase 1->2 in_flight=1 queued=0",
                               "95100ms increase 2->3 in_flight=1 queued=0",
                           }));
  EXPECT_EQ(limits(true), (std::vector<std::string>{
                              "0ms start 2->2 in_flight=0 queued=0",
                              "100ms decrease 2->1 in_flight=1 queued=0",
                              "95100ms increase 1->2 in_flight=1 queued=0",
                          }));
}

TEST(AdaptiveConcurrencyTest, AGrowingLimitHandsItsNewSlotsToTheQueue) {
  Harness h;
  ScriptedProvider provider(h.loop, {Reply{test::results(), 100 * kMillisecond}});
  AdaptiveConcurrencyConfig c = aimd(1);
  c.max_queue = 4;
  Rig rig(h, provider, c);
  std::array<Call, 3> calls;
  run_at(h, *rig.pipeline, calls, {});
  // Call 0's success raises the limit to 2: call 1 takes the new slot, call 2 call 0's.
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 100 * kMillisecond, 100 * kMillisecond}));
  EXPECT_EQ(h.log.limits.at(1), "100ms increase 1->2 in_flight=1 queued=2");
}

TEST(AdaptiveConcurrencyTest, RefusalsWithoutAnAttemptAreIgnored) {
  Harness h;
  ScriptedProvider provider(h.loop, {Reply{test::results(), 100 * kMillisecond}});
  Rig rig(h, provider, aimd(4));
  std::array<Call, 1> calls;
  calls[0].task.deadline = 0;  // the attempt refuses to start: timeout, but no provider saw it
  run_at(h, *rig.pipeline, calls, {});
  EXPECT_EQ(calls[0].outcome->kind, OutcomeKind::timeout);
  EXPECT_EQ(provider.calls().size(), 0u);
  EXPECT_EQ(h.log.limits, (std::vector<std::string>{"0ms start 4->4 in_flight=0 queued=0"}));
}

}  // namespace
}  // namespace squall

#include "engine/strategies/adaptive_throttling.hpp"

#include <gtest/gtest.h>

#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::Reply;
using test::ScriptedProvider;
using test::ScriptedRng;

constexpr Nanos kMs = kMillisecond;
using Counts = AdaptiveThrottlingStrategy::Counts;

struct ThrottleRig {
  ThrottleRig(Harness& h, Provider& provider, Rng& rng, AdaptiveThrottlingConfig config = {}) {
    auto s = std::make_unique<AdaptiveThrottlingStrategy>(std::move(config), h.env, rng);
    throttle = s.get();
    pipeline = test::make_pipeline(provider, h.env, std::move(s));
  }
  AdaptiveThrottlingStrategy* throttle = nullptr;
  std::unique_ptr<Pipeline> pipeline;
};

OutcomeKind run_one(Harness& h, const Pipeline& pipeline) {
  Call call;
  return test::run(h, pipeline, call).kind;
}

TEST(AdaptiveThrottlingTest, RejectionProbabilityIsTheSreFormula) {
  // max(0, (requests - K * accepts) / (requests + 1)), K = 2.
  EXPECT_DOUBLE_EQ(AdaptiveThrottlingStrategy::rejection_probability(Counts{0, 0}, 2), 0.0);
  EXPECT_DOUBLE_EQ(AdaptiveThrottlingStrategy::rejection_probability(Counts{10, 5}, 2), 0.0);  // 10 - 10 = 0
  EXPECT_DOUBLE_EQ(AdaptiveThrottlingStrategy::rejection_probability(Counts{10, 8}, 2), 0.0);  // negative
  EXPECT_DOUBLE_EQ(AdaptiveThrottlingStrategy::rejection_probability(Counts{10, 3}, 2), 4.0 / 11.0);
  EXPECT_DOUBLE_EQ(AdaptiveThrottlingStrategy::rejection_probability(Counts{100, 0}, 2), 100.0 / 101.0);
  EXPECT_DOUBLE_EQ(AdaptiveThrottlingStrategy::rejection_probability(Counts{100, 40}, 1.5), 40.0 / 101.0);
}

TEST(AdaptiveThrottlingTest, RejectsLocallyWithTheFormulasProbability) {
  // Every answer is a 429 (a rejection). Calls one after another, 100 ms each:
  //   call 1: 0 requests, p = 0: no draw, sent (429).
  //   call 2: 1 request, 0 accepts, p = 1/2; u = 0.75 >= 1/2: sent (429).
  //   call 3: 2 requests, p = 2/3; u = 0.5 < 2/3: rejected locally at 200 ms, never sent.
  //   call 4: 3 requests (the rejected one counts), p = 3/4; u = 0.75 >= 3/4: sent.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(429)}});
  ScriptedRng rng({0.75, 0.5, 0.75});
  ThrottleRig rig(h, provider, rng);
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::rate_limited);
  EXPECT_EQ(rng.draws(), 0U);
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::rate_limited);
  Call rejected;
  const Outcome o = test::run(h, *rig.pipeline, rejected);
  EXPECT_EQ(o.kind, OutcomeKind::throttled);
  EXPECT_EQ(o.response.status, 0);
  EXPECT_EQ(rejected.finished, 200 * kMs);
  EXPECT_EQ(rejected.ctx.attempts, 0);
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::rate_limited);
  EXPECT_EQ(rng.draws(), 3U);
  EXPECT_EQ(provider.calls().size(), 3U);
  EXPECT_EQ(h.log.throttles, (std::vector<std::string>{"200ms requests=2 accepts=0 p=0.6667"}));
  EXPECT_EQ(rig.throttle->counts().requests, 4U);
  EXPECT_EQ(rig.throttle->counts().accepts, 0U);
}

TEST(AdaptiveThrottlingTest, AcceptedRequestsKeepTheProbabilityAtZero) {
  // Successes and errors other than rejections are accepts: 3 successes and 2 500s give
  // 5 requests, 5 accepts, p = 0, and the Rng is never drawn.
  Harness h;
  ScriptedProvider provider(
      h.loop, [](std::size_t i, const Request&) { return i < 3 ? Reply{test::results()} : Reply{test::status(500)}; });
  ScriptedRng rng({0.0});
  ThrottleRig rig(h, provider, rng);
  for (int i = 0; i < 5; ++i) run_one(h, *rig.pipeline);
  EXPECT_EQ(rig.throttle->counts().requests, 5U);
  EXPECT_EQ(rig.throttle->counts().accepts, 5U);
  EXPECT_EQ(rig.throttle->rejection_probability(), 0.0);
  EXPECT_EQ(rng.draws(), 0U);
}

TEST(AdaptiveThrottlingTest, WindowRollsOverOneSecondBucketAtATime) {
  // Window 2 s: at time t the counts cover seconds floor(t) - 1 and floor(t). A request
  // counts when its answer comes: one made at 0 (a 429 at 100 ms) is in second 0; one
  // made at 500 ms answered 200 at 2 s is a request and an accept of second 2.
  Harness h;
  ScriptedProvider provider(h.loop, [](std::size_t i, const Request&) {
    return i == 0 ? Reply{test::status(429)} : Reply{test::results(), 1500 * kMs};
  });
  ScriptedRng rng({0.99});
  AdaptiveThrottlingConfig config;
  config.window = seconds(2);
  ThrottleRig rig(h, provider, rng, config);
  run_one(h, *rig.pipeline);
  h.loop.run_until(500 * kMs);
  run_one(h, *rig.pipeline);  // p = 1/2, u = 0.99: sent; answered at 2 s
  EXPECT_EQ(h.loop.now(), seconds(2));
  // At 2 s second 0 has left the window with the 429; the answered request is in second 2.
  EXPECT_EQ(rig.throttle->counts().requests, 1U);
  EXPECT_EQ(rig.throttle->counts().accepts, 1U);
  h.loop.run_until(3999 * kMs);
  EXPECT_EQ(rig.throttle->counts().accepts, 1U);  // seconds 2 and 3
  h.loop.run_until(seconds(4));
  EXPECT_EQ(rig.throttle->counts().requests, 0U);  // seconds 3 and 4
  EXPECT_EQ(rig.throttle->counts().accepts, 0U);
}

TEST(AdaptiveThrottlingTest, ARequestInFlightIsNoRejection) {
  // Counted when sent, the first request still in flight made the second see requests 1,
  // accepts 0: p = 1/2 against a backend that had refused nothing. With u = 0 every
  // p > 0 would reject: both are sent.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::results(), 1000 * kMs}});
  ScriptedRng rng({0.0});
  ThrottleRig rig(h, provider, rng, AdaptiveThrottlingConfig{});
  std::exception_ptr error;
  Call first;
  test::start(h, *rig.pipeline, first, &error);
  h.loop.run_until(100 * kMs);
  EXPECT_EQ(rig.throttle->rejection_probability(), 0.0);
  Call second;
  test::start(h, *rig.pipeline, second, &error);
  test::drain(h);
  ASSERT_FALSE(error);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 100 * kMs}));
  EXPECT_TRUE(h.log.throttles.empty());
  EXPECT_EQ(rig.throttle->counts().requests, 2U);
  EXPECT_EQ(rig.throttle->counts().accepts, 2U);
}

TEST(AdaptiveThrottlingTest, CountsJustBeforeTheRollOver) {
  // Window 2 s: a request at 0 is still counted at 1.999 s and gone at 2 s.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(503)}});
  ScriptedRng rng({0.0});
  AdaptiveThrottlingConfig config;
  config.window = seconds(2);
  ThrottleRig rig(h, provider, rng, config);
  run_one(h, *rig.pipeline);
  h.loop.run_until(1999 * kMs);
  EXPECT_EQ(rig.throttle->counts().requests, 1U);
  EXPECT_DOUBLE_EQ(rig.throttle->rejection_probability(), 0.5);
  h.loop.run_until(seconds(2));
  EXPECT_EQ(rig.throttle->counts().requests, 0U);
  EXPECT_EQ(rig.throttle->rejection_probability(), 0.0);
}

}  // namespace
}  // namespace squall

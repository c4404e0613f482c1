#include "engine/strategies/retry_budget.hpp"

#include <gtest/gtest.h>

#include "engine/strategies/retry.hpp"
#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::Reply;
using test::ScriptedProvider;

constexpr Nanos kMs = kMillisecond;

RetryBudgetConfig grpc(double max_tokens, double token_ratio) {
  RetryBudgetConfig c;
  c.mode = RetryBudgetMode::grpc;
  c.max_milli_tokens = static_cast<std::int64_t>(max_tokens * 1000);
  c.token_ratio_milli = static_cast<std::int64_t>(token_ratio * 1000);
  return c;
}

RetryConfig constant_retry(std::int32_t max_attempts) {
  RetryConfig c;
  c.max_attempts = max_attempts;
  c.backoff = Backoff::constant;
  c.base_delay = seconds(1);
  c.jitter = Jitter::none;
  return c;
}

// retry -> retry_budget -> provider; keeps a pointer to the budget to read its state.
struct BudgetRig {
  BudgetRig(Harness& h, Provider& provider, RetryBudgetConfig budget_config, std::int32_t max_attempts) {
    auto b = std::make_unique<RetryBudgetStrategy>(std::move(budget_config), h.env);
    budget = b.get();
    pipeline = test::make_pipeline(
        provider, h.env, std::make_unique<RetryStrategy>(constant_retry(max_attempts), h.env, rng), std::move(b));
  }
  FixedRng rng{0};
  RetryBudgetStrategy* budget = nullptr;
  std::unique_ptr<Pipeline> pipeline;
};

OutcomeKind run_one(Harness& h, const Pipeline& pipeline) {
  Call call;
  return test::run(h, pipeline, call).kind;
}

TEST(RetryBudgetTest, GrpcTokensFollowTheA6Arithmetic) {
  // maxTokens 10, tokenRatio 0.1: 10000 milli-tokens, -1000 per failure, +100 per success,
  // retries only while the count is above 5000. The provider answers 500 to calls 0-5,
  // 200 to calls 6-26 and 500 from call 27 on.
  Harness h;
  ScriptedProvider provider(h.loop, [](std::size_t i, const Request&) {
    return i < 6 || i >= 27 ? Reply{test::status(500)} : Reply{test::results()};
  });
  BudgetRig rig(h, provider, grpc(10, 0.1), 5);

  // Call A: five failures, 10000 -> 5000; every retry was asked for above 5000 (at 9000,
  // 8000, 7000, 6000); the fifth failure ends it on max_attempts.
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::server_error);
  EXPECT_EQ(rig.budget->state().milli_tokens, 5000);
  ASSERT_EQ(h.log.give_ups.size(), 1U);
  EXPECT_EQ(h.log.give_ups[0].reason, "max_attempts");

  // Call B: one failure, 5000 -> 4000 <= 5000: its retry is refused and the call ends
  // with the failure, at the end of its only attempt.
  const TimePoint b_start = h.loop.now();
  Call b;
  EXPECT_EQ(test::run(h, *rig.pipeline, b).kind, OutcomeKind::server_error);
  EXPECT_EQ(b.finished, b_start + 100 * kMs);
  EXPECT_EQ(b.ctx.attempts, 1);
  EXPECT_EQ(rig.budget->state().milli_tokens, 4000);
  ASSERT_EQ(h.log.give_ups.size(), 2U);
  EXPECT_EQ(h.log.give_ups[1].reason, "retry_budget");
  EXPECT_EQ(h.log.give_ups[1].last_kind, OutcomeKind::server_error);
  EXPECT_EQ(h.log.refusals,
            (std::vector<std::string>{fmt::format("{}ms grpc level=4000 limit=5000", b.finished / kMs)}));

  // 21 successes: 4000 + 21 * 100 = 6100.
  for (int i = 0; i < 21; ++i) EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::success);
  EXPECT_EQ(rig.budget->state().milli_tokens, 6100);

  // Call C: a failure takes it to 5100 > 5000, so one retry is admitted; its failure takes
  // it to 4100 and the next retry is refused.
  Call c;
  EXPECT_EQ(test::run(h, *rig.pipeline, c).kind, OutcomeKind::server_error);
  EXPECT_EQ(c.ctx.attempts, 2);
  EXPECT_EQ(rig.budget->state().milli_tokens, 4100);
  EXPECT_EQ(h.log.refusals.size(), 2U);
  EXPECT_EQ(provider.calls().size(), 29U);
}

TEST(RetryBudgetTest, GrpcTokensStayWithinZeroAndMaxTokens) {
  // maxTokens 1.5 (1500 milli), tokenRatio 1: successes cannot raise the count above 1500;
  // two failures take it to 0, not below; one success then brings it to 1000 > 750.
  Harness h;
  ScriptedProvider provider(h.loop, [](std::size_t i, const Request&) {
    return i == 1 || i == 2 ? Reply{test::status(503)} : Reply{test::results()};
  });
  BudgetRig rig(h, provider, grpc(1.5, 1), 1);
  run_one(h, *rig.pipeline);
  EXPECT_EQ(rig.budget->state().milli_tokens, 1500);
  run_one(h, *rig.pipeline);
  EXPECT_EQ(rig.budget->state().milli_tokens, 500);
  run_one(h, *rig.pipeline);
  EXPECT_EQ(rig.budget->state().milli_tokens, 0);
  run_one(h, *rig.pipeline);
  EXPECT_EQ(rig.budget->state().milli_tokens, 1000);
}

TEST(RetryBudgetTest, GrpcIgnoresNonRetryableFailures) {
  // A 400 is not in failure_on and is no success: the count does not move (A6 records
  // only OK and the retryable statuses).
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(400)}});
  BudgetRig rig(h, provider, grpc(10, 0.1), 3);
  EXPECT_EQ(run_one(h, *rig.pipeline), OutcomeKind::bad_request);
  EXPECT_EQ(rig.budget->state().milli_tokens, 10000);
}

// Starts calls through `pipeline` without waiting for them; `retry` marks them as retries.
struct InFlight {
  std::vector<std::unique_ptr<Call>> calls;
  std::exception_ptr error;
  void start(Harness& h, const Pipeline& pipeline, int n, bool retry) {
    for (int i = 0; i < n; ++i) {
      calls.push_back(std::make_unique<Call>());
      calls.back()->ctx.retry = retry;
      test::start(h, pipeline, *calls.back(), &error);
    }
  }
};

TEST(RetryBudgetTest, EnvoyAdmitsBudgetPercentOfActiveRequestsWithAMinimum) {
  // budget_percent 20, min_retry_concurrency 3; every attempt takes 10 s.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::results(), seconds(10)}});
  RetryBudgetConfig config;  // Envoy's defaults
  auto b = std::make_unique<RetryBudgetStrategy>(config, h.env);
  RetryBudgetStrategy* budget = b.get();
  auto pipeline = test::make_pipeline(provider, h.env, std::move(b));
  Call probe;

  InFlight flight;
  // 2 first attempts and 3 retries in flight: limit max(3, floor(0.2 * 5) = 1) = 3, and 3
  // retries are active: the minimum alone binds, and a fourth retry is refused.
  flight.start(h, *pipeline, 2, false);
  flight.start(h, *pipeline, 3, true);
  h.loop.run_until(seconds(1));
  EXPECT_EQ(budget->state().active_requests, 5);
  EXPECT_EQ(budget->state().active_retries, 3);
  EXPECT_EQ(budget->retry_limit(), 3);
  EXPECT_FALSE(pipeline->admit_retry(probe.ctx, probe.request));
  EXPECT_EQ(h.log.refusals, (std::vector<std::string>{"1000ms envoy level=3 limit=3"}));

  // 18 more first attempts: 23 active, limit max(3, floor(4.6)) = 4 > 3: admitted.
  flight.start(h, *pipeline, 18, false);
  EXPECT_EQ(budget->retry_limit(), 4);
  EXPECT_TRUE(pipeline->admit_retry(probe.ctx, probe.request));
  // One more retry: 24 active, 4 retries, limit floor(4.8) = 4: refused.
  flight.start(h, *pipeline, 1, true);
  EXPECT_FALSE(pipeline->admit_retry(probe.ctx, probe.request));
  EXPECT_EQ(h.log.refusals.back(), "1000ms envoy level=4 limit=4");

  test::drain(h);
  EXPECT_EQ(budget->state().active_requests, 0);
  EXPECT_EQ(budget->state().active_retries, 0);
  EXPECT_TRUE(pipeline->admit_retry(probe.ctx, probe.request));
}

TEST(RetryBudgetTest, RetryMarksOnlyItsLaterAttemptsAsRetries) {
  // A retry strategy's first attempt is not a retry; its second is. Three attempts fail:
  // the budget sees 1 first attempt and 2 retries (envoy counts them while in flight).
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(500)}});
  struct Spy final : Strategy {
    std::vector<bool> seen;
    Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override {
      seen.push_back(ctx.retry);
      co_return co_await next(ctx, request);
    }
  };
  auto spy = std::make_unique<Spy>();
  Spy* s = spy.get();
  FixedRng rng(0);
  auto pipeline = test::make_pipeline(provider, h.env, std::make_unique<RetryStrategy>(constant_retry(3), h.env, rng),
                                      std::move(spy));
  Call call;
  test::run(h, *pipeline, call);
  EXPECT_EQ(s->seen, (std::vector<bool>{false, true, true}));
  EXPECT_FALSE(call.ctx.retry);  // restored when the call ends
}

}  // namespace
}  // namespace squall

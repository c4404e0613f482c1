#include "engine/strategies/budget.hpp"

#include <gtest/gtest.h>

#include "engine/strategies/retry.hpp"
#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::Reply;
using test::ScriptedProvider;

// A 500 that still billed `input_tokens` tokens and `cost_usd` dollars.
Reply billed_failure(std::int64_t input_tokens, double cost_usd) {
  Response r = test::status(500);
  r.input_tokens = input_tokens;
  r.cost_usd = cost_usd;
  return Reply{r};
}

RetryConfig retry_five_times() {
  RetryConfig c;
  c.max_attempts = 5;
  c.backoff = Backoff::constant;
  c.base_delay = kSecond;
  c.jitter = Jitter::none;
  return c;
}

TEST(BudgetTest, RefusesWhenTheProjectedTokensExceedTheLimit) {
  // max_tokens 1000 with 600 spent: 600 + 300 + 100 = 1000 is allowed (not above the
  // limit); 600 + 301 + 100 = 1001 is refused without calling the provider.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::results()}});
  BudgetConfig config;
  config.max_tokens = 1000;
  auto pipeline = test::make_pipeline(provider, h.env, std::make_unique<BudgetStrategy>(config, h.env));

  Call fits;
  fits.task.tokens_spent = 600;
  fits.request.prompt_tokens = 300;
  fits.request.max_output_tokens = 100;
  EXPECT_EQ(test::run(h, *pipeline, fits).kind, OutcomeKind::success);

  Call too_big;
  too_big.task.tokens_spent = 600;
  too_big.request.prompt_tokens = 301;
  too_big.request.max_output_tokens = 100;
  const Outcome refused = test::run(h, *pipeline, too_big);
  EXPECT_EQ(refused.kind, OutcomeKind::budget_exhausted);
  EXPECT_EQ(refused.response.status, 0);
  EXPECT_EQ(provider.calls().size(), 1U);
  ASSERT_EQ(h.log.budgets.size(), 1U);
  EXPECT_EQ(h.log.budgets[0].limit, "max_tokens");
  EXPECT_EQ(h.log.budgets[0].spent, 600.0);
  EXPECT_EQ(h.log.budgets[0].projected, 1001.0);
  EXPECT_EQ(h.log.budgets[0].maximum, 1000.0);
}

TEST(BudgetTest, FailedAttemptsCountAgainstTheTokenLimit) {
  // Retry around budget (max_tokens 1000); each attempt sends 300 prompt tokens and the
  // provider bills 400 tokens for a 500. Attempt 1: 0 + 300 <= 1000, spent 400; attempt 2:
  // 400 + 300 <= 1000, spent 800; attempt 3: 800 + 300 > 1000, refused. Retry knows the
  // refusal before its second backoff (Next::refuses), so it makes the refused attempt at
  // once instead of sleeping first; budget_exhausted is not retried, so the call ends
  // there, at 0.1 + 1 + 0.1 = 1.2 s.
  Harness h;
  ScriptedProvider provider(h.loop, {billed_failure(400, 0.0)});
  FixedRng rng(0);
  BudgetConfig config;
  config.max_tokens = 1000;
  auto pipeline = test::make_pipeline(provider, h.env, std::make_unique<RetryStrategy>(retry_five_times(), h.env, rng),
                                      std::make_unique<BudgetStrategy>(config, h.env));
  Call call;
  call.request.prompt_tokens = 300;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::budget_exhausted);
  EXPECT_EQ(provider.calls().size(), 2U);
  EXPECT_EQ(call.task.tokens_spent, 800);
  EXPECT_EQ(call.finished, 1200 * kMillisecond);
  EXPECT_EQ(h.log.backoffs.size(), 1U);
  ASSERT_EQ(h.log.budgets.size(), 1U);
  EXPECT_EQ(h.log.budgets[0].at, 1200 * kMillisecond);
  EXPECT_EQ(h.log.budgets[0].spent, 800.0);
  EXPECT_EQ(h.log.budgets[0].projected, 1100.0);
  EXPECT_EQ(h.log.give_ups.at(0).reason, "not_retryable");
}

TEST(BudgetTest, UsdLimitRefusesOnceSpentReachesIt) {
  // max_cost_usd 1.0, each failed attempt bills 0.5 USD. Spent before each attempt: 0,
  // 0.5 (both below the limit), then 1.0: refused (>= the limit; no projection).
  Harness h;
  ScriptedProvider provider(h.loop, {billed_failure(0, 0.5)});
  FixedRng rng(0);
  BudgetConfig config;
  config.max_cost_usd = 1.0;
  auto pipeline = test::make_pipeline(provider, h.env, std::make_unique<RetryStrategy>(retry_five_times(), h.env, rng),
                                      std::make_unique<BudgetStrategy>(config, h.env));
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::budget_exhausted);
  EXPECT_EQ(provider.calls().size(), 2U);
  ASSERT_EQ(h.log.budgets.size(), 1U);
  EXPECT_EQ(h.log.budgets[0].limit, "max_cost_usd");
  EXPECT_EQ(h.log.budgets[0].spent, 1.0);
  EXPECT_EQ(h.log.budgets[0].projected, 1.0);
  EXPECT_EQ(h.log.budgets[0].maximum, 1.0);
}

TEST(BudgetTest, NoLimitsLetEverythingThrough) {
  Harness h;
  ScriptedProvider provider(h.loop, {{test::results()}});
  auto pipeline = test::make_pipeline(provider, h.env, std::make_unique<BudgetStrategy>(BudgetConfig{}, h.env));
  Call call;
  call.task.tokens_spent = 1'000'000'000;
  call.task.cost_spent_usd = 1e6;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_TRUE(h.log.budgets.empty());
}

}  // namespace
}  // namespace squall

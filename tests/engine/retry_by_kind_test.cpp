// retry's max_retries_by_kind (LiteLLM's RetryPolicy): a per-kind count of retries under
// max_attempts, for the plain strategy and the fused call.
#include <gtest/gtest.h>

#include "engine/runtime/rng.hpp"
#include "engine/strategies/retry.hpp"
#include "engine/strategies/timeout.hpp"
#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::ScriptedProvider;

RetryConfig by_kind(std::vector<KindRetries> counts) {
  RetryConfig c;
  c.max_attempts = 5;
  c.backoff = Backoff::constant;
  c.base_delay = kSecond;
  c.jitter = Jitter::none;
  c.max_retries_by_kind = std::move(counts);
  return c;
}

TEST(RetryByKindTest, AKindsCountEndsTheCallBeforeMaxAttempts) {
  // 500s get 1 retry, 429s 3: the script answers 500, 429, 429, 500. After the first 500
  // (0 retries so far) a retry is allowed; after the 429s (1, then 2 retries) too; after the
  // second 500 the call has made 3 retries, more than the 500s' 1: it ends with reason
  // max_retries_by_kind after 4 attempts, before max_attempts' 5.
  Harness h;
  ScriptedProvider provider(
      h.loop, {{test::status(500)}, {test::status(429)}, {test::status(429)}, {test::status(500)}, {test::results()}});
  FixedRng rng(0);
  auto pipeline =
      test::make_pipeline(provider, h.env,
                          std::make_unique<RetryStrategy>(
                              by_kind({{OutcomeKind::server_error, 1}, {OutcomeKind::rate_limited, 3}}), h.env, rng));
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::server_error);
  EXPECT_EQ(provider.calls().size(), 4U);
  ASSERT_EQ(h.log.give_ups.size(), 1U);
  EXPECT_EQ(h.log.give_ups[0].reason, "max_retries_by_kind");
}

TEST(RetryByKindTest, UnlistedKindsKeepMaxAttemptsAndZeroMeansNoRetry) {
  // Timeouts are not retried at all (0); 503s (unlisted) are retried up to max_attempts.
  Harness h;
  ScriptedProvider overloaded(h.loop, {{test::status(503)}});
  ScriptedProvider slow(h.loop, {{test::results(), 10 * kSecond}});
  FixedRng rng(0);
  const RetryConfig config = by_kind({{OutcomeKind::timeout, 0}});
  TimeoutConfig timeout;
  timeout.per_attempt = kSecond;
  const auto make = [&](Provider& p) {
    return test::make_pipeline(p, h.env, std::make_unique<RetryStrategy>(config, h.env, rng),
                               std::make_unique<TimeoutStrategy>(timeout, h.loop));
  };
  auto five = make(overloaded);
  Call first;
  EXPECT_EQ(test::run(h, *five, first).kind, OutcomeKind::overloaded);
  EXPECT_EQ(overloaded.calls().size(), 5U);
  EXPECT_EQ(h.log.give_ups.back().reason, "max_attempts");
  auto once = make(slow);
  Call second;
  EXPECT_EQ(test::run(h, *once, second).kind, OutcomeKind::timeout);
  EXPECT_EQ(slow.calls().size(), 1U);
  EXPECT_EQ(h.log.give_ups.back().reason, "max_retries_by_kind");
}

}  // namespace
}  // namespace squall

#include "engine/policy.hpp"

#include <gtest/gtest.h>

#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::ScriptedProvider;

TEST(PolicyTest, BuildsTheStrategiesInOrderWithNamedStreams) {
  // timeout (per_attempt 1 s) outside retry (2 attempts, constant 500 ms, no jitter):
  // replies take 2 s, so attempts run [0, 1 s] and [1.5 s, 2.5 s], both timing out.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::results(), seconds(2)}});
  RetryConfig retry;
  retry.max_attempts = 2;
  retry.backoff = Backoff::constant;
  retry.jitter = Jitter::none;
  std::vector<std::string> streams;
  const RngFactory rngs = [&](std::string_view name) -> std::unique_ptr<Rng> {
    streams.emplace_back(name);
    return std::make_unique<Xoshiro256>(stream_seed(1, name));
  };
  const std::vector<StrategyConfig> policy{TimeoutConfig{seconds(1), kNever}, retry};
  BuiltPipeline built = build_pipeline("web_search", policy, provider, h.env, rngs);

  EXPECT_EQ(streams, (std::vector<std::string>{"policy/web_search/1/retry"}));
  EXPECT_EQ(built.pipeline->size(), 2U);
  EXPECT_EQ(strategy_name(policy[0]), "timeout");
  Call call;
  EXPECT_EQ(test::run(h, *built.pipeline, call).kind, OutcomeKind::timeout);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 1500 * kMillisecond}));
  EXPECT_EQ(call.finished, 2500 * kMillisecond);
}

}  // namespace
}  // namespace squall

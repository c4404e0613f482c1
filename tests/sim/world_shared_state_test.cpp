// A client-side rate limiter in a provider's own stack is one limiter per backend, shared
// by every tool reaching the provider, as a client library shares it per backend (and
// so are the breaker, retry budget and bulkhead state in that stack);
// in tools' pipelines each tool has its own. End to end through sim::World, as
// world_breaker_test.cpp does for the breaker.
#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "sim/run.hpp"
#include "tests/sim/world_test_support.hpp"

namespace squall {
namespace {

// Two tools on one healthy search provider; one task a second, either tool.
std::string scenario(std::string_view policy) { return test::two_tools_on_one_search("[]", policy); }

constexpr std::string_view kLimiter =
    R"([ { "rate_limiter": { "limit_for_period": 1, "limit_refresh_period": "10s", "timeout_duration": "0s" } } ])";

TEST(WorldSharedStateTest, ProviderStackRateLimiterIsSharedByEveryToolReachingIt) {
  // One permit per 10 s cycle for the provider: the tasks at 0, 10 and 20 s take the
  // three cycles' permits, whichever tool they came through; the other 27 are refused
  // locally and never reach the provider.
  const Report shared =
      test::run_world(test::inline_scenario(scenario(fmt::format(R"({{ "search": {} }})", kLimiter))), 7);
  EXPECT_EQ(test::provider_calls(shared), 3u);
  EXPECT_EQ(test::count(shared, TaskStatus::failed), 27u);

  // In each tool's pipeline: a permit per cycle for each tool, so both tools get one in
  // each of the three cycles (each cycle's ten tasks went through both tools at seed 7).
  const Report per_tool =
      test::run_world(test::inline_scenario(scenario(fmt::format(R"({{ "a": {}, "b": {} }})", kLimiter, kLimiter))), 7);
  EXPECT_EQ(test::provider_calls(per_tool), 6u);
  EXPECT_EQ(test::count(per_tool, TaskStatus::failed), 24u);
}

}  // namespace
}  // namespace squall

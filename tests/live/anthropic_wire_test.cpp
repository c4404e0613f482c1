// The Anthropic wire's pure parts: RFC 3339 instants and the anthropic-ratelimit-* headers.
#include "live/anthropic_wire.hpp"

#include <gtest/gtest.h>

namespace squall::live {
namespace {

TEST(AnthropicWireTest, Rfc3339IsUtcRoundedUpToTheSecond) {
  EXPECT_EQ(rfc3339(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(rfc3339(951'782'400'000), "2000-02-29T00:00:00Z");
  EXPECT_EQ(rfc3339(1'709'251'199'000), "2024-02-29T23:59:59Z");
  EXPECT_EQ(rfc3339(1'796'500'829'001), "2026-12-05T20:00:30Z");
}

TEST(AnthropicWireTest, RateLimitResetsAreScaledToRealInstants) {
  RateLimitHeaders limits;
  limits.limit_requests = 60;
  limits.remaining_requests = 0;
  limits.reset_requests = 4 * kSecond;  // virtual: 2 real seconds at --time-scale 2
  const HeaderTimes times{0, 1'796'500'828'000, 2.0};
  const std::vector<std::pair<std::string, std::string>> expected{
      {"anthropic-ratelimit-requests-limit", "60"},
      {"anthropic-ratelimit-requests-remaining", "0"},
      {"anthropic-ratelimit-requests-reset", "2026-12-05T20:00:30Z"}};
  EXPECT_EQ(anthropic_rate_limit_headers(limits, times), expected);
}

}  // namespace
}  // namespace squall::live

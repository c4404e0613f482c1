// The Anthropic wire's pure parts: RFC 3339 instants, the anthropic-ratelimit-* headers and
// the error objects.
#include "live/anthropic_wire.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/classify.hpp"

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

TEST(AnthropicWireTest, AFaultsMessageReplacesTheStatussOwnButNotTheContextWindows) {
  static ErrorDetailsStore store;  // the details outlive the responses, as a provider's do
  const AnthropicWire wire(MessageIds{"msg_x", "claude-sonnet-4"}, "req_squall0", 1200, 1000);
  const auto message_of = [&](int status, const ErrorDetails& details) {
    Response response;
    response.status = status;
    response.error_details = store.keep(details);
    const nlohmann::json body = nlohmann::json::parse(wire.error(response).body);
    return body["error"]["type"].get<std::string>() + ": " + body["error"]["message"].get<std::string>();
  };
  EXPECT_EQ(message_of(529, {}), "overloaded_error: Overloaded");
  EXPECT_EQ(message_of(529, {.error_message = "Overloaded: try us-east-5"}),
            "overloaded_error: Overloaded: try us-east-5");
  EXPECT_EQ(message_of(400, {.error_message = "Your credit balance is too low."}),
            "invalid_request_error: Your credit balance is too low.");
  EXPECT_EQ(message_of(400, {.error_code = "context_length_exceeded", .error_message = "ignored"}),
            "invalid_request_error: prompt is too long: 1200 tokens > 1000 maximum");
  // A cut stream's details carry no message: the event says what the API says.
  EXPECT_EQ(message_of(500, {.error_code = "stream_error"}), "api_error: Internal server error");
}

TEST(AnthropicWireTest, ASpentQuotaIsAnthropicsCreditBalanceError) {
  // Anthropic has no insufficient_quota: a quota fault (a 429 with that code) is sent as the
  // API's 400 about credit, which its SDKs do not retry and squall classifies quota_exhausted.
  static ErrorDetailsStore store;
  const AnthropicWire wire(MessageIds{"msg_x", "claude-sonnet-4"}, "req_squall0", 10, 1000);
  Response response;
  response.status = 429;
  response.error_details = store.keep({.error_code = "insufficient_quota"});
  const WireError error = wire.error(response);
  EXPECT_EQ(error.status, 400);
  const nlohmann::json body = nlohmann::json::parse(error.body);
  EXPECT_EQ(body["error"]["type"], "invalid_request_error");
  static const std::string message = body["error"]["message"].get<std::string>();
  EXPECT_EQ(message,
            "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or "
            "purchase credits.");
  Response as_received;
  as_received.status = error.status;
  as_received.error_details = store.keep({.error_message = message});
  EXPECT_EQ(classify(as_received), OutcomeKind::quota_exhausted);
}

}  // namespace
}  // namespace squall::live

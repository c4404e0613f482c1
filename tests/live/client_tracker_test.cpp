// ClientTracker (live/client_tracker.hpp): which layer retried, early retries, retries
// against advice, loops, peak concurrency and re-sent tokens, counted exactly.
#include "live/client_tracker.hpp"

#include <gtest/gtest.h>

#include <string>

#include "reports/client_json.hpp"
#include "reports/client_text.hpp"

namespace squall::live {
namespace {

constexpr std::string_view kChat = "/v1/chat/completions";
constexpr std::size_t kGateway = 0;
constexpr std::size_t kSdk = 1;
constexpr std::size_t kApp = 2;

struct Send {
  std::string_view client = "agent";
  std::string_view body = R"({"model":"m","messages":[]})";
  std::string_view envoy = "";
  std::string_view stainless = "";
  Nanos at = 0;
};

std::uint64_t arrive(ClientTracker& t, const Send& s) {
  return t.arrive(ClientRequest{s.client, kChat, s.body, s.envoy, s.stainless, s.at});
}

// One whole exchange: arrives at `s.at`, answered `status` at the same time, ended.
std::optional<RetryLayer> exchange(ClientTracker& t, const Send& s, int status, std::string_view retry_after_ms = "",
                                   std::string_view should_retry = "", std::string_view body = "") {
  const std::uint64_t id = arrive(t, s);
  const std::optional<RetryLayer> layer = t.layer(id);
  t.input_tokens(id, 10);
  t.answered(id, read_answer(status, "", retry_after_ms, should_retry, body, s.at));
  t.ended(id);
  return layer;
}

ClientRow only(const ClientReport& r) {
  EXPECT_EQ(r.clients.size(), 1U);
  return r.clients.front();
}

TEST(ClientTracker, SdkRetriesAreTheSdkLayerAndHonouringRetryAfterIsNotEarly) {
  ClientTracker t;
  EXPECT_EQ(exchange(t, {.stainless = "0", .at = 0}, 429, "1000"), std::nullopt);
  EXPECT_EQ(exchange(t, {.stainless = "1", .at = 1000 * kMillisecond}, 429, "1000"), RetryLayer::sdk);
  // 990 ms after a 429 asking for 1000 ms: within the 20 ms slack, not early.
  EXPECT_EQ(exchange(t, {.stainless = "2", .at = 1990 * kMillisecond}, 200), RetryLayer::sdk);
  const ClientRow row = only(t.report());
  EXPECT_EQ(row.attempts, 3U);
  EXPECT_EQ(row.logical, 1U);
  EXPECT_EQ(row.retries[kSdk], 2U);
  EXPECT_EQ(row.retries[kApp], 0U);
  EXPECT_EQ(row.early[kSdk], 0U);
  EXPECT_EQ(row.resent_tokens[kSdk], 20);
  EXPECT_EQ(row.peak_concurrency, 1U);
  EXPECT_EQ(row.by_attempts[kSdk], (std::vector<std::uint64_t>{0, 0, 0, 1}));
  EXPECT_EQ(row.by_attempts[kGateway], (std::vector<std::uint64_t>{0, 1}));
  EXPECT_EQ(amplification(t.report().clients, std::nullopt), 3.0);
  EXPECT_EQ(amplification(t.report().clients, RetryLayer::gateway), 1.0);
}

TEST(ClientTracker, AnImmediateResendAfterA429IsAnEarlyApplicationRetry) {
  ClientTracker t;
  exchange(t, {.at = 0}, 429, "1000");
  EXPECT_EQ(exchange(t, {.at = 5 * kMillisecond}, 429, "1000"), RetryLayer::application);
  // 979 ms after the second 429: 21 ms short, past the slack: early.
  EXPECT_EQ(exchange(t, {.at = 984 * kMillisecond}, 200), RetryLayer::application);
  // After a success the same body again is a new logical request, not a retry.
  EXPECT_EQ(exchange(t, {.at = 990 * kMillisecond}, 200), std::nullopt);
  const ClientRow row = only(t.report());
  EXPECT_EQ(row.attempts, 4U);
  EXPECT_EQ(row.logical, 2U);
  EXPECT_EQ(row.retries[kApp], 2U);
  EXPECT_EQ(row.early[kApp], 2U);
  EXPECT_EQ(row.by_attempts[3], (std::vector<std::uint64_t>{0, 1, 0, 1}));
}

TEST(ClientTracker, RetriesAgainstAdviceByReason) {
  ClientTracker t;
  const Send bad{.body = "bad"};
  exchange(t, bad, 400);
  exchange(t, bad, 400);  // application retry of a 400
  const Send quota{.body = "quota"};
  exchange(t, quota, 429, "", "",
           R"({"error":{"message":"x","type":"insufficient_quota","code":"insufficient_quota"}})");
  exchange(t, {.body = "quota", .stainless = "1"}, 200);  // an SDK retry of insufficient_quota
  const Send told{.body = "told"};
  exchange(t, told, 503, "", "false");
  exchange(t, {.body = "told", .envoy = "2"}, 200);  // a gateway retry of x-should-retry: false
  const Send window{.body = "window"};
  exchange(t, window, 400, "", "", R"({"error":{"code":"context_length_exceeded"}})");
  exchange(t, window, 400, "", "", R"({"error":{"code":"context_length_exceeded"}})");
  exchange(t, {.body = "gone"}, 404);
  exchange(t, {.body = "gone"}, 404);
  exchange(t, {.body = "busy"}, 503);
  exchange(t, {.body = "busy"}, 200);  // a 503 may be retried
  const ClientRow row = only(t.report());
  const auto reason = [&row](std::size_t layer, AdviceReason r) {
    return row.against_advice[layer][static_cast<std::size_t>(r)];
  };
  EXPECT_EQ(reason(kApp, AdviceReason::status_400), 1U);
  EXPECT_EQ(reason(kSdk, AdviceReason::insufficient_quota), 1U);
  EXPECT_EQ(reason(kGateway, AdviceReason::should_retry_false), 1U);
  EXPECT_EQ(reason(kApp, AdviceReason::context_length_exceeded), 1U);
  EXPECT_EQ(reason(kApp, AdviceReason::status_404), 1U);
  std::uint64_t total = 0;
  for (const auto& by_reason : row.against_advice) {
    for (const std::uint64_t n : by_reason) total += n;
  }
  EXPECT_EQ(total, 5U);
  EXPECT_EQ(row.retries[kApp], 4U);
  EXPECT_EQ(row.retries[kSdk], 1U);
  EXPECT_EQ(row.retries[kGateway], 1U);
  EXPECT_EQ(row.logical, 6U);
  const nlohmann::ordered_json j = client_json(t.report());
  EXPECT_EQ(j["by_client"]["agent"]["retries_against_advice"].dump(),
            R"({"total":5,"by_layer":{"gateway":1,"sdk":1,"application":3},"by_reason":{"should_retry_false":1,)"
            R"("insufficient_quota":1,"context_length_exceeded":1,"status_400":1,"status_401":0,"status_403":0,)"
            R"("status_404":1}})");
}

TEST(ClientTracker, APayloadSentAgainLoopResendsTimesIsOneLoop) {
  ClientTracker t(3);
  for (int i = 0; i < 6; ++i) exchange(t, {.body = "same"}, 200);
  for (int i = 0; i < 3; ++i) exchange(t, {.body = "thrice"}, 200);  // sent again twice: no loop
  const ClientRow row = only(t.report());
  EXPECT_EQ(row.loops, 1U);
  EXPECT_EQ(row.logical, 9U);
  EXPECT_EQ(row.total_retries(), 0U);
}

TEST(ClientTracker, ClientsByHeaderAndPeakConcurrency) {
  ClientTracker t;
  const std::uint64_t a = arrive(t, {.client = "a", .body = "1"});
  const std::uint64_t b = arrive(t, {.client = "a", .body = "2"});
  const std::uint64_t c = arrive(t, {.client = "b", .body = "1"});
  t.ended(a);
  const std::uint64_t d = arrive(t, {.client = "a", .body = "3"});
  t.ended(b);
  t.ended(c);
  t.ended(d);
  const ClientReport r = t.report();
  ASSERT_EQ(r.clients.size(), 2U);
  EXPECT_EQ(r.clients[0].client, "a");
  EXPECT_EQ(r.clients[0].peak_concurrency, 2U);
  EXPECT_EQ(r.clients[1].peak_concurrency, 1U);
  // `a`'s first request ended without an answer: its re-send is an application retry.
  EXPECT_EQ(exchange(t, {.client = "a", .body = "1"}, 200), RetryLayer::application);
  EXPECT_EQ(exchange(t, {.client = "b", .body = "1"}, 200), RetryLayer::application);
}

TEST(ClientTracker, AStreamThatFailsIsAnErrorAndAHeaderRetryOfAnUnseenRequestIsItsOwn) {
  ClientTracker t;
  const std::uint64_t id = arrive(t, {.body = "stream"});
  t.answered(id, read_answer(200, "", "", "", "", 0));
  t.stream_failed(id);
  t.ended(id);
  EXPECT_EQ(exchange(t, {.body = "stream"}, 200), RetryLayer::application);
  EXPECT_EQ(exchange(t, {.body = "other", .stainless = "1"}, 200), RetryLayer::sdk);
  const ClientRow row = only(t.report());
  EXPECT_EQ(row.logical, 2U);
  EXPECT_EQ(row.retries[kSdk], 1U);
  EXPECT_EQ(row.by_attempts[3], (std::vector<std::uint64_t>{0, 0, 2}));
}

TEST(ClientTracker, ReadAnswerPrefersRetryAfterMsAndIgnoresDates) {
  EXPECT_EQ(read_answer(429, "2", "1500", "", "", 0).retry_after, 1500 * kMillisecond);
  EXPECT_EQ(read_answer(429, "2", "", "", "", 0).retry_after, 2 * kSecond);
  EXPECT_EQ(read_answer(429, "Wed, 21 Oct 2026 07:28:00 GMT", "", "", "", 0).retry_after, std::nullopt);
  EXPECT_EQ(read_answer(400, "", "", "", "not json", 0).error_code, "");
  EXPECT_TRUE(read_answer(503, "", "", "false", "", 0).should_retry_false);
  EXPECT_FALSE(read_answer(503, "", "", "true", "", 0).should_retry_false);
}

TEST(ClientTracker, TheSummaryLines) {
  ClientTracker t;
  exchange(t, {.body = "bad"}, 400);
  exchange(t, {.body = "bad"}, 400);
  const auto lines = client_lines(t.report());
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0].second, "1 client: 2 attempts for 1 logical requests (x2); retries gateway=0 sdk=0 application=1");
  EXPECT_EQ(lines[1].first, "client agent");
  EXPECT_EQ(lines[1].second,
            "2 attempts / 1 logical (x2); retries gateway=0 sdk=0 application=1; early 0; against advice 1 "
            "(status_400=1); loops 0; peak concurrency 1; re-sent tokens 10");
}

}  // namespace
}  // namespace squall::live

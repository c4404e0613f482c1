#include "replay/policy_fit.hpp"

// GCC 12 reports a false -Wrestrict inside std::string assignment at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

#include <gtest/gtest.h>

#include <string>

#include "engine/runtime/rng.hpp"
#include "replay/policy_writer.hpp"

namespace squall::replay {
namespace {

constexpr std::int64_t kMs = 1'000'000;

// Builds one task's logical calls: each call a run of attempts with given waits between.
class TraceBuilder {
 public:
  // Appends a call of `outcomes.size()` attempts to `provider`s, each attempt `length_ms`
  // long, waiting waits_ms[i] before attempt i + 1; resend counts recorded.
  void call(const std::vector<OutcomeKind>& outcomes, const std::vector<std::int64_t>& waits_ms,
            const std::vector<std::string>& providers, std::int64_t length_ms = 100,
            std::optional<std::int64_t> retry_after_ms = std::nullopt) {
    const std::string trace = "t" + std::to_string(++tasks_);
    std::int64_t t = now_;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      AttemptRecord a;
      a.trace_id = trace;
      a.parent_id = "root";
      a.operation = "chat";
      a.provider = providers[std::min(i, providers.size() - 1)];
      a.start_ns = t;
      a.end_ns = t + length_ms * kMs;
      a.outcome = outcomes[i];
      a.resend_count = static_cast<std::int32_t>(i);
      if (retry_after_ms && outcomes[i] == OutcomeKind::rate_limited) a.retry_after_ns = *retry_after_ms * kMs;
      data.attempts.push_back(a);
      t = a.end_ns + (i < waits_ms.size() ? waits_ms[i] * kMs : 0);
    }
    now_ += 1000 * 1000 * kMs;  // calls far apart
  }
  std::vector<ToolPolicyFit> fit() const { return fit_policy(data, group_attempts(data)); }
  TraceData data;

 private:
  int tasks_ = 0;
  std::int64_t now_ = 0;
};

const std::vector<OutcomeKind> kThreeFailures = {OutcomeKind::server_error, OutcomeKind::server_error,
                                                 OutcomeKind::server_error, OutcomeKind::success};

TEST(PolicyFitTest, UnjitteredConstantBackoff) {
  TraceBuilder b;
  for (int i = 0; i < 5; ++i) b.call(kThreeFailures, {300, 300, 300}, {"gpt"});
  const auto fits = b.fit();
  ASSERT_EQ(fits.size(), 1U);
  const RetryFit& r = fits[0].retry;
  EXPECT_EQ(fits[0].tool, "gpt");
  EXPECT_EQ(r.max_attempts, 4);
  EXPECT_EQ(r.retry_on, std::vector<OutcomeKind>{OutcomeKind::server_error});
  EXPECT_EQ(r.backoff, Backoff::constant);
  EXPECT_EQ(r.jitter, Jitter::none);
  EXPECT_EQ(r.base_delay, 300 * kMs);
  EXPECT_EQ(r.backoff_samples, 15U);
  EXPECT_FALSE(r.honour_retry_after.has_value());
  EXPECT_FALSE(fits[0].fallback.has_value());
}

TEST(PolicyFitTest, UnjitteredExponentialBackoff) {
  TraceBuilder b;
  for (int i = 0; i < 5; ++i) b.call(kThreeFailures, {500, 1000, 2000}, {"gpt"});
  const RetryFit r = b.fit()[0].retry;
  EXPECT_EQ(r.backoff, Backoff::exponential);
  EXPECT_EQ(r.jitter, Jitter::none);
  EXPECT_EQ(r.base_delay, 500 * kMs);
  EXPECT_EQ(r.max_delay, 2000 * kMs);
}

TEST(PolicyFitTest, FullJitterExponentialBackoffWithinTwentyPercent) {
  TraceBuilder b;
  Xoshiro256 rng(42);
  for (int i = 0; i < 400; ++i) {
    const auto wait = [&](double bound_ms) { return static_cast<std::int64_t>(rng.uniform01() * bound_ms); };
    b.call(kThreeFailures, {wait(1000), wait(2000), wait(4000)}, {"gpt"});
  }
  const RetryFit r = b.fit()[0].retry;
  EXPECT_EQ(r.backoff, Backoff::exponential);
  EXPECT_EQ(r.jitter, Jitter::full);
  EXPECT_NEAR(static_cast<double>(r.base_delay), 1000.0 * kMs, 200.0 * kMs);
  EXPECT_NEAR(static_cast<double>(r.max_delay), 4000.0 * kMs, 800.0 * kMs);
}

// The OpenAI and Anthropic SDKs: min(0.5 * 2^n, 8) s times 1 - 0.25 u (openai-node's
// retryDelay, openai-python's _calculate_retry_timeout).
TEST(PolicyFitTest, TheSdksQuarterJitterIsProportionalFromThreeQuarters) {
  for (const int calls : {8, 400}) {
    TraceBuilder b;
    Xoshiro256 rng(7);
    for (int i = 0; i < calls; ++i) {
      const auto wait = [&](double d_ms) { return static_cast<std::int64_t>(d_ms * (1 - 0.25 * rng.uniform01())); };
      b.call(kThreeFailures, {wait(500), wait(1000), wait(2000)}, {"gpt"});
    }
    const RetryFit r = b.fit()[0].retry;
    EXPECT_EQ(r.backoff, Backoff::exponential) << calls;
    EXPECT_EQ(r.jitter, Jitter::proportional) << calls;
    EXPECT_NEAR(r.jitter_low, 0.75, 0.051) << calls;
    EXPECT_NEAR(static_cast<double>(r.base_delay), 500.0 * kMs, 50.0 * kMs) << calls;
    EXPECT_NEAR(static_cast<double>(r.max_delay), 2000.0 * kMs, 200.0 * kMs) << calls;
  }
}

TEST(PolicyFitTest, ATimeoutCeilingToleratesTheClientsOwnOverhead) {
  // openai-python's 400 ms timeout ended requests between 402.5 and 408.9 ms.
  TraceBuilder b;
  for (const std::int64_t ms : {402, 403, 403, 404, 405, 406, 407, 408, 409})
    b.call({OutcomeKind::timeout}, {}, {"gpt"}, ms);
  b.call({OutcomeKind::timeout}, {}, {"gpt"}, 2000);  // cut by something else
  const auto timeout = b.fit()[0].timeout;
  ASSERT_TRUE(timeout.has_value());
  EXPECT_EQ(timeout->per_attempt, 402 * kMs);
}

TEST(PolicyFitTest, RetryAfterWaitedOutIsHonouredAndNotABackoff) {
  TraceBuilder b;
  for (int i = 0; i < 4; ++i) b.call({OutcomeKind::rate_limited, OutcomeKind::success}, {20000}, {"gpt"}, 100, 20000);
  b.call({OutcomeKind::rate_limited, OutcomeKind::success}, {5000}, {"gpt"}, 100, 30000);  // cut short
  const RetryFit r = b.fit()[0].retry;
  ASSERT_TRUE(r.honour_retry_after.has_value());
  EXPECT_TRUE(*r.honour_retry_after);
  EXPECT_EQ(r.retry_after_samples, 5U);
  EXPECT_EQ(r.retry_after_honoured, 4U);
  EXPECT_EQ(r.max_retry_after, 20000 * kMs);
  EXPECT_EQ(r.backoff_samples, 1U);  // only the wait that did not honour it
}

TEST(PolicyFitTest, AProviderChangeIsAFallbackAfterItsOutcome) {
  TraceBuilder b;
  for (int i = 0; i < 3; ++i)
    b.call({OutcomeKind::server_error, OutcomeKind::server_error, OutcomeKind::success}, {0, 0},
           {"gpt", "gpt", "claude"});
  b.call({OutcomeKind::timeout, OutcomeKind::success}, {0}, {"gpt", "gemini"});
  const ToolPolicyFit f = b.fit()[0];
  ASSERT_TRUE(f.fallback.has_value());
  EXPECT_EQ(f.primary, "gpt");
  EXPECT_EQ(f.fallback->providers, (std::vector<std::string>{"claude", "gemini"}));
  EXPECT_EQ(f.fallback->on, (std::vector<OutcomeKind>{OutcomeKind::timeout, OutcomeKind::server_error}));
  EXPECT_EQ(f.fallback->moves, 4U);
  EXPECT_EQ(f.retry.max_attempts, 2);
}

TEST(PolicyFitTest, ATimeoutCeilingIsTheLengthMostTimeoutsShare) {
  TraceBuilder b;
  for (int i = 0; i < 3; ++i) b.call({OutcomeKind::timeout}, {}, {"gpt"}, 2000);
  b.call({OutcomeKind::timeout}, {}, {"gpt"}, 700);  // cut by a deadline
  ASSERT_TRUE(b.fit()[0].timeout.has_value());
  EXPECT_EQ(b.fit()[0].timeout->per_attempt, 2000 * kMs);
  EXPECT_EQ(b.fit()[0].timeout->samples, 4U);

  TraceBuilder scattered;
  for (int ms : {700, 1300, 2100, 4000}) scattered.call({OutcomeKind::timeout}, {}, {"gpt"}, ms);
  EXPECT_FALSE(scattered.fit()[0].timeout.has_value());
}

TEST(PolicyFitTest, RetriedTruncationsMakeTheFittedPolicyRejectCutAnswers) {
  // finish_reason "length" then a retry: the application rejects cut answers, which the
  // engine accepts unless validate says so; the fitted policy adds it inside the retry.
  TraceBuilder b;
  for (int i = 0; i < 4; ++i) b.call({OutcomeKind::truncated, OutcomeKind::success}, {200}, {"gpt"});
  const auto fits = b.fit();
  ASSERT_EQ(fits.size(), 1U);
  EXPECT_EQ(fits[0].retry.retry_on, std::vector<OutcomeKind>{OutcomeKind::truncated});
  FitSources sources;
  FittedEmitter e("as-deployed.yaml", sources);
  emit_policy(e, fits, "");
  const std::string yaml = e.out().c_str();
  const std::size_t retry = yaml.find("- retry:");
  const std::size_t validate = yaml.find("  - validate:\n      require: [complete]");
  ASSERT_NE(retry, std::string::npos) << yaml;
  ASSERT_NE(validate, std::string::npos) << yaml;
  EXPECT_LT(retry, validate) << yaml;  // inner: retry sees the rejection
}

TEST(PolicyFitTest, UnretriedTruncationsLeaveCutAnswersAccepted) {
  TraceBuilder b;
  for (int i = 0; i < 4; ++i) b.call(kThreeFailures, {300, 300, 300}, {"gpt"});
  b.call({OutcomeKind::truncated}, {}, {"gpt"});
  FitSources sources;
  FittedEmitter e("as-deployed.yaml", sources);
  emit_policy(e, b.fit(), "");
  EXPECT_EQ(std::string(e.out().c_str()).find("validate"), std::string::npos) << e.out().c_str();
}

}  // namespace
}  // namespace squall::replay

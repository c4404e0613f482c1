#include "engine/strategies/validate.hpp"

#include <gtest/gtest.h>

#include "engine/strategies/retry.hpp"
#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::Reply;
using test::ScriptedProvider;

constexpr Nanos ms = kMillisecond;

Response completion(bool malformed, std::int64_t tokens = 10) {
  Response r;
  r.body = Body::completion;
  r.output_tokens = tokens;
  r.malformed = malformed;
  return r;
}

Response cut(std::int64_t tokens) {
  Response r = completion(false, tokens);
  r.truncated = true;  // finish_reason "length"
  return r;
}

ValidateConfig requiring(std::vector<ValidateCheck> checks) {
  ValidateConfig c;
  c.require = std::move(checks);
  return c;
}

TEST(ValidateTest, AMalformedCompletionIsInvalidOutputAndRetried) {
  // The first completion is malformed (it arrives at 100 ms): validate makes it
  // invalid_output, which retry retries after its 1 s constant backoff; the second parses.
  Harness h;
  ScriptedProvider p(h.loop, {{completion(true), 100 * ms}, {completion(false), 100 * ms}});
  RetryConfig retry;
  retry.backoff = Backoff::constant;
  retry.base_delay = 1000 * ms;
  retry.jitter = Jitter::none;
  FixedRng rng(0);
  auto pipeline = test::make_pipeline(p, h.env, std::make_unique<RetryStrategy>(retry, h.env, rng),
                                      std::make_unique<ValidateStrategy>(ValidateConfig{}, h.env, "llm"));
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(p.start_times(), (std::vector<TimePoint>{0, 1100 * ms}));
  EXPECT_EQ(call.finished, 1200 * ms);
  // The history sees the malformed answer as a failed attempt.
  EXPECT_EQ(call.task.history.attempts, 2U);
  EXPECT_EQ(call.task.history.failed_attempts, 1U);
  EXPECT_TRUE(call.task.history.saw_failure(OutcomeKind::invalid_output));
  // The rejection says what the rejected attempt billed (its AttemptEvent said success).
  EXPECT_EQ(h.log.validations, (std::vector<std::string>{"100ms llm check=json in=0 out=10 $0"}));
}

TEST(ValidateTest, WithoutValidateAMalformedCompletionIsASuccess) {
  Harness h;
  ScriptedProvider p(h.loop, {{completion(true), 100 * ms}});
  auto pipeline = test::make_pipeline(p, h.env);
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
}

TEST(ValidateTest, NoErrorCatchesAMaskedError) {
  // A 200 whose body carries an error object: a success to classify(), invalid to no_error.
  Harness h;
  const ValidateStrategy no_error(requiring({ValidateCheck::no_error}), h.env, "web");
  Outcome masked{.kind = OutcomeKind::success, .response = test::results(2)};
  masked.response.error_details = test::kept({.body_error = R"({"error":{"type":"api_error"}})"});
  Outcome hits{.kind = OutcomeKind::success, .response = test::results(2)};
  EXPECT_EQ(no_error.failed_check(masked), ValidateCheck::no_error);
  EXPECT_EQ(no_error.failed_check(hits), std::nullopt);
  EXPECT_EQ(requiring({ValidateCheck::json}).require.size(), 1u);
  EXPECT_EQ(ValidateStrategy(requiring({ValidateCheck::json}), h.env, "web").failed_check(masked), std::nullopt);
}

TEST(ValidateTest, ChecksApplyToTheirBodiesOnly) {
  Harness h;
  const ValidateStrategy json(requiring({ValidateCheck::json}), h.env, "llm");
  const ValidateStrategy both(requiring({ValidateCheck::non_empty, ValidateCheck::json}), h.env, "llm");
  Outcome malformed{.kind = OutcomeKind::success, .response = completion(true)};
  Outcome good{.kind = OutcomeKind::success, .response = completion(false)};
  Outcome hits{.kind = OutcomeKind::success, .response = test::results(2)};
  Outcome empty{.kind = OutcomeKind::empty, .response = test::no_results()};
  Outcome failed{.kind = OutcomeKind::server_error, .response = test::status(500)};
  EXPECT_EQ(json.failed_check(malformed), ValidateCheck::json);
  EXPECT_EQ(json.failed_check(good), std::nullopt);
  EXPECT_EQ(json.failed_check(hits), std::nullopt);
  EXPECT_EQ(json.failed_check(empty), std::nullopt);  // json alone leaves empty as it is
  EXPECT_EQ(both.failed_check(empty), ValidateCheck::non_empty);
  EXPECT_EQ(both.failed_check(malformed), ValidateCheck::json);
  EXPECT_EQ(both.failed_check(failed), std::nullopt);
}

TEST(ValidateTest, NonEmptyTurnsAnEmptyAnswerIntoInvalidOutput) {
  Harness h;
  ScriptedProvider p(h.loop, {{completion(false, 0), 100 * ms}});
  auto pipeline = test::make_pipeline(
      p, h.env, std::make_unique<ValidateStrategy>(requiring({ValidateCheck::non_empty}), h.env, "web"));
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::invalid_output);
}

TEST(ValidateTest, ATruncatedAnswerIsAcceptedWithoutACheckForIt) {
  // no_error and non_empty say nothing about length: the cut answer is the call's success.
  Harness h;
  ScriptedProvider p(h.loop, {{cut(300), 100 * ms}});
  auto pipeline = test::make_pipeline(
      p, h.env,
      std::make_unique<ValidateStrategy>(requiring({ValidateCheck::no_error, ValidateCheck::non_empty}), h.env, "llm"));
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(call.task.history.failed_attempts, 0U);
  EXPECT_TRUE(h.log.validations.empty());
}

TEST(ValidateTest, CompleteRejectsATruncatedAnswerAsTruncatedAndRetryRetriesIt) {
  // Cut at 300 tokens, then a complete answer: `complete` makes the first `truncated`
  // (transient: retried after the 1 s backoff), the second passes.
  Harness h;
  ScriptedProvider p(h.loop, {{cut(300), 100 * ms}, {completion(false, 120), 100 * ms}});
  RetryConfig retry;
  retry.backoff = Backoff::constant;
  retry.base_delay = 1000 * ms;
  retry.jitter = Jitter::none;
  FixedRng rng(0);
  auto pipeline =
      test::make_pipeline(p, h.env, std::make_unique<RetryStrategy>(retry, h.env, rng),
                          std::make_unique<ValidateStrategy>(requiring({ValidateCheck::complete}), h.env, "llm"));
  Call call;
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(p.start_times(), (std::vector<TimePoint>{0, 1100 * ms}));
  EXPECT_TRUE(call.task.history.saw_failure(OutcomeKind::truncated));
  EXPECT_FALSE(call.task.history.saw_failure(OutcomeKind::invalid_output));
  EXPECT_EQ(h.log.validations, (std::vector<std::string>{"100ms llm check=complete in=0 out=300 $0"}));
}

TEST(ValidateTest, JsonRejectsACutAnswerAsTruncatedAndAMalformedOneAsInvalidOutput) {
  Harness h;
  ScriptedProvider cut_first(h.loop, {{cut(300), 100 * ms}});
  auto json = test::make_pipeline(cut_first, h.env, std::make_unique<ValidateStrategy>(ValidateConfig{}, h.env, "llm"));
  Call first;
  EXPECT_EQ(test::run(h, *json, first).kind, OutcomeKind::truncated);
  const ValidateStrategy complete(requiring({ValidateCheck::complete}), h.env, "llm");
  Outcome malformed{.kind = OutcomeKind::success, .response = completion(true)};
  Outcome hits{.kind = OutcomeKind::success, .response = test::results(2)};
  EXPECT_EQ(complete.failed_check(malformed), std::nullopt);  // whole, if unparseable
  EXPECT_EQ(complete.failed_check(hits), std::nullopt);       // search hits have no length cap
  EXPECT_EQ(ValidateStrategy(ValidateConfig{}, h.env, "llm")
                .failed_check(Outcome{.kind = OutcomeKind::success, .response = completion(true)}),
            ValidateCheck::json);
}

}  // namespace
}  // namespace squall

#include "mocks/llm.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/classify.hpp"
#include "sim/event_loop.hpp"
#include "tests/engine/test_runtime.hpp"
#include "tests/mocks/support.hpp"

namespace squall {
namespace {

using testing::run_call;

// TTFT 200 ms constant, 50 tokens/s, $2 / $8 per million input / output tokens.
LlmConfig config() {
  LlmConfig c;
  c.price_per_mtok = {2.0, 8.0};
  c.context_window = 128'000;
  c.time_to_first_token = {LatencyShape::constant, 200 * kMillisecond, 0, 0, 0};
  c.tokens_per_second = 50;
  c.mean_output_tokens = 100;
  return c;
}

// The constant TTFT draws nothing, so the one draw is the output length: with
// U = 1 - e^-1, -100 * ln(1 - U) = 100 tokens.
FixedRng hundred_tokens() { return FixedRng::at_fraction(1.0 - std::exp(-1.0)); }

Request prompt(std::int64_t prompt_tokens, std::int64_t max_output_tokens = 0) {
  Request r;
  r.prompt_tokens = prompt_tokens;
  r.max_output_tokens = max_output_tokens;
  return r;
}

TEST(LlmMockTest, LatencyIsTtftPlusStreamingTime) {
  // 200 ms + 100 tokens / 50 tokens/s = 200 ms + 2 s = 2.2 s.
  // Cost: (1000 * 2 + 100 * 8) / 1e6 = 0.0028 USD.
  EventLoop loop;
  FixedRng rng = hundred_tokens();
  LlmMock mock("gpt-4.1", config(), loop, loop, rng);
  const auto done = run_call(loop, mock, prompt(1000));
  EXPECT_EQ(done.at, 2200 * kMillisecond);
  EXPECT_EQ(done.response.transport, Transport::ok);
  EXPECT_EQ(done.response.status, 200);
  EXPECT_EQ(done.response.body, Body::completion);
  EXPECT_EQ(done.response.input_tokens, 1000);
  EXPECT_EQ(done.response.output_tokens, 100);
  EXPECT_FALSE(done.response.truncated);
  EXPECT_DOUBLE_EQ(done.response.cost_usd, 0.0028);
  EXPECT_EQ(classify(done.response), OutcomeKind::success);
}

TEST(LlmMockTest, MaxOutputTokensTruncates) {
  // 100 tokens drawn, capped at 40: 200 ms + 40 / 50 s = 1 s, truncated.
  EventLoop loop;
  FixedRng rng = hundred_tokens();
  LlmMock mock("m", config(), loop, loop, rng);
  const auto done = run_call(loop, mock, prompt(10, 40));
  EXPECT_EQ(done.at, kSecond);
  EXPECT_EQ(done.response.output_tokens, 40);
  EXPECT_TRUE(done.response.truncated);
  EXPECT_EQ(classify(done.response), OutcomeKind::success);
}

TEST(LlmMockTest, CapEqualToTheDrawnLengthIsNotTruncation) {
  EventLoop loop;
  FixedRng rng = hundred_tokens();
  LlmMock mock("m", config(), loop, loop, rng);
  const auto done = run_call(loop, mock, prompt(10, 100));
  EXPECT_EQ(done.response.output_tokens, 100);
  EXPECT_FALSE(done.response.truncated);
}

TEST(LlmMockTest, PromptOverTheContextWindowIsRefusedWithoutDrawsOrBilling) {
  EventLoop loop;
  Xoshiro256 rng(5);
  Xoshiro256 twin(5);
  LlmMock mock("m", config(), loop, loop, rng);
  const auto done = run_call(loop, mock, prompt(128'001));
  EXPECT_EQ(done.at, kContextRejectLatency);
  EXPECT_EQ(done.response.status, 400);
  EXPECT_EQ(done.response.details().error_code, "context_length_exceeded");
  EXPECT_EQ(done.response.input_tokens, 0);
  EXPECT_EQ(done.response.output_tokens, 0);
  EXPECT_EQ(done.response.cost_usd, 0);
  EXPECT_EQ(classify(done.response), OutcomeKind::context_length);
  EXPECT_EQ(rng.next_u64(), twin.next_u64());  // the stream did not move
}

TEST(LlmMockTest, PromptFillingTheContextWindowIsAccepted) {
  EventLoop loop;
  FixedRng rng = hundred_tokens();
  LlmMock mock("m", config(), loop, loop, rng);
  EXPECT_EQ(run_call(loop, mock, prompt(128'000)).response.status, 200);
}

TEST(LlmMockTest, ContextRejectionAfterTheDeadlineIsATimeout) {
  EventLoop loop;
  FixedRng rng = hundred_tokens();
  LlmMock mock("m", config(), loop, loop, rng);
  CallOptions options;
  options.deadline = 20 * kMillisecond;
  const auto done = run_call(loop, mock, prompt(200'000), options);
  EXPECT_EQ(done.at, 20 * kMillisecond);
  EXPECT_EQ(done.response.transport, Transport::timeout);
}

TEST(LlmMockTest, DeadlineMidGenerationBillsTokensGeneratedSoFar) {
  // The answer would come at 2.2 s; the deadline is 1.2 s. Streaming ran 1.0 s after the
  // first token at 200 ms: 1.0 s * 50 tokens/s = 50 tokens. The prompt is billed in full:
  // (1000 * 2 + 50 * 8) / 1e6 = 0.0024 USD.
  EventLoop loop;
  FixedRng rng = hundred_tokens();
  LlmMock mock("m", config(), loop, loop, rng);
  CallOptions options;
  options.deadline = 1200 * kMillisecond;
  const auto done = run_call(loop, mock, prompt(1000), options);
  EXPECT_EQ(done.at, 1200 * kMillisecond);
  EXPECT_EQ(done.response.transport, Transport::timeout);
  EXPECT_EQ(done.response.body, Body::completion);
  EXPECT_EQ(done.response.input_tokens, 1000);
  EXPECT_EQ(done.response.output_tokens, 50);
  EXPECT_DOUBLE_EQ(done.response.cost_usd, 0.0024);
  EXPECT_EQ(classify(done.response), OutcomeKind::timeout);
}

TEST(LlmMockTest, DeadlineOneNanosecondEarlyLeavesTheLastTokenUnbilled) {
  // Token 100 completes at 2.2 s; at 2.2 s - 1 ns only 99 are done.
  EventLoop loop;
  FixedRng rng = hundred_tokens();
  LlmMock mock("m", config(), loop, loop, rng);
  CallOptions options;
  options.deadline = 2200 * kMillisecond - 1;
  const auto done = run_call(loop, mock, prompt(1000), options);
  EXPECT_EQ(done.response.transport, Transport::timeout);
  EXPECT_EQ(done.response.output_tokens, 99);
}

TEST(LlmMockTest, DeadlineBeforeTheFirstTokenBillsThePromptOnly) {
  // (1000 * 2) / 1e6 = 0.002 USD.
  EventLoop loop;
  FixedRng rng = hundred_tokens();
  LlmMock mock("m", config(), loop, loop, rng);
  CallOptions options;
  options.deadline = 150 * kMillisecond;
  const auto done = run_call(loop, mock, prompt(1000), options);
  EXPECT_EQ(done.at, 150 * kMillisecond);
  EXPECT_EQ(done.response.output_tokens, 0);
  EXPECT_EQ(done.response.input_tokens, 1000);
  EXPECT_DOUBLE_EQ(done.response.cost_usd, 0.002);
}

TEST(LlmMockTest, CancelMidGenerationReturnsAtOnceAndBillsTokensGeneratedSoFar) {
  // The same rule as a deadline: the answer would come at 2.2 s, the caller cancels at
  // 1.2 s. Streaming ran 1.0 s after the first token at 200 ms: 50 tokens. The prompt is
  // billed in full: (1000 * 2 + 50 * 8) / 1e6 = 0.0024 USD. The call returns at 1.2 s.
  EventLoop loop;
  FixedRng rng = hundred_tokens();
  LlmMock mock("m", config(), loop, loop, rng);
  const auto done = testing::run_call_cancelled_at(loop, mock, 1200 * kMillisecond, prompt(1000));
  EXPECT_EQ(done.at, 1200 * kMillisecond);
  EXPECT_EQ(done.response.transport, Transport::cancelled);
  EXPECT_EQ(done.response.status, 0);
  EXPECT_EQ(done.response.body, Body::completion);
  EXPECT_EQ(done.response.input_tokens, 1000);
  EXPECT_EQ(done.response.output_tokens, 50);
  EXPECT_DOUBLE_EQ(done.response.cost_usd, 0.0024);
  EXPECT_EQ(classify(done.response), OutcomeKind::cancelled);
  EXPECT_TRUE(loop.empty());  // the 2.2 s answer timer was removed
}

TEST(LlmMockTest, CancelBeforeTheFirstTokenBillsThePromptOnly) {
  // Cancelled at 150 ms, before the first token at 200 ms: (1000 * 2) / 1e6 = 0.002 USD.
  EventLoop loop;
  FixedRng rng = hundred_tokens();
  LlmMock mock("m", config(), loop, loop, rng);
  const auto done = testing::run_call_cancelled_at(loop, mock, 150 * kMillisecond, prompt(1000));
  EXPECT_EQ(done.at, 150 * kMillisecond);
  EXPECT_EQ(done.response.transport, Transport::cancelled);
  EXPECT_EQ(done.response.output_tokens, 0);
  EXPECT_EQ(done.response.input_tokens, 1000);
  EXPECT_DOUBLE_EQ(done.response.cost_usd, 0.002);
}

TEST(LlmMockTest, CancelAfterTheAnswerChangesNothing) {
  EventLoop loop;
  FixedRng rng = hundred_tokens();
  LlmMock mock("m", config(), loop, loop, rng);
  const auto done = testing::run_call_cancelled_at(loop, mock, 3 * kSecond, prompt(1000));
  EXPECT_EQ(done.at, 2200 * kMillisecond);
  EXPECT_EQ(done.response.transport, Transport::ok);
  EXPECT_EQ(done.response.output_tokens, 100);
}

TEST(LlmMockTest, CallAlreadyCancelledIsNeverSentDrawsNothingAndBillsNothing) {
  EventLoop loop;
  Xoshiro256 rng(5);
  Xoshiro256 twin(5);
  LlmMock mock("m", config(), loop, loop, rng);
  CancellationSource source;
  source.cancel();
  CallOptions options;
  options.cancellation = source.token();
  const auto done = run_call(loop, mock, prompt(1000), options);
  EXPECT_EQ(done.at, 0);
  EXPECT_EQ(done.response.transport, Transport::cancelled);
  EXPECT_EQ(done.response.input_tokens, 0);
  EXPECT_EQ(done.response.cost_usd, 0);
  EXPECT_EQ(rng.next_u64(), twin.next_u64());
}

TEST(LlmMockTest, CancelDuringAContextRejectionIsCancelled) {
  // The 400 would come at 50 ms; the caller cancels at 20 ms. Nothing is billed.
  EventLoop loop;
  FixedRng rng = hundred_tokens();
  LlmMock mock("m", config(), loop, loop, rng);
  const auto done = testing::run_call_cancelled_at(loop, mock, 20 * kMillisecond, prompt(200'000));
  EXPECT_EQ(done.at, 20 * kMillisecond);
  EXPECT_EQ(done.response.transport, Transport::cancelled);
  EXPECT_EQ(done.response.cost_usd, 0);
}

TEST(LlmMockTest, OutputLengthIsExponentialAtLeastOne) {
  // Rounded exponential with mean 300: the sample mean of n = 20000 lies within four
  // standard errors (300 / sqrt(20000) = 2.1 tokens) of 300; rounding shifts it by < 0.01.
  EventLoop loop;
  Xoshiro256 rng(17);
  LlmConfig c = config();
  c.mean_output_tokens = 300;
  c.tokens_per_second = 1e6;
  LlmMock mock("m", c, loop, loop, rng);
  constexpr int n = 20'000;
  const auto calls = testing::run_calls(loop, mock, n, 0, 0, kNever, prompt(10));
  double sum = 0;
  std::int64_t smallest = INT64_MAX;
  for (const auto& call : calls) {
    sum += static_cast<double>(call.response.output_tokens);
    smallest = std::min(smallest, call.response.output_tokens);
  }
  EXPECT_NEAR(sum / n, 300.0, 4 * 300.0 / std::sqrt(static_cast<double>(n)));
  EXPECT_GE(smallest, 1);
}

TEST(LlmMockTest, ModelNameDefaultsToTheProviderName) {
  EventLoop loop;
  FixedRng rng(0);
  EXPECT_EQ(LlmMock("gpt-4.1-mini", config(), loop, loop, rng).config().model, "gpt-4.1-mini");
  LlmConfig named = config();
  named.model = "gpt-4o";
  EXPECT_EQ(LlmMock("fallback", named, loop, loop, rng).config().model, "gpt-4o");
}

}  // namespace
}  // namespace squall

namespace squall {
namespace {

TEST(LlmMockTest, MalformedOutputComesAtItsRateAndIsBilledInFull) {
  // With malformed_output_rate 0.2, the malformed share of n = 20000 completions lies
  // within four standard errors (sqrt(0.2 * 0.8 / 20000) = 0.0028) of 0.2. Each is a
  // 200 billed for its prompt and output like any other.
  EventLoop loop;
  Xoshiro256 rng(17);
  LlmConfig c = config();
  c.malformed_output_rate = 0.2;
  c.tokens_per_second = 1e6;
  LlmMock mock("m", c, loop, loop, rng);
  constexpr int n = 20'000;
  const auto calls = testing::run_calls(loop, mock, n, 0, 0, kNever, prompt(10));
  int malformed = 0;
  for (const auto& call : calls) {
    if (!call.response.malformed) continue;
    ++malformed;
    EXPECT_EQ(call.response.status, 200);
    EXPECT_EQ(call.response.input_tokens, 10);
    EXPECT_GT(call.response.cost_usd, 0);
  }
  EXPECT_NEAR(static_cast<double>(malformed) / n, 0.2, 4 * std::sqrt(0.2 * 0.8 / n));
}

TEST(LlmMockTest, MalformedOutputIsDrawnWhenTheAnswerArrives) {
  // Two completions started together: A of 100 tokens (back at 200 ms + 100 / 50 s =
  // 2.2 s) and B of 10 (-100 * ln(e^-0.1) = 10 tokens, back at 200 ms + 0.2 s = 0.4 s).
  // The constant TTFT draws nothing, so the stream gives A's length, B's length, then the
  // malformed-output draw of B, whose answer arrives first (0.25 < 0.5: malformed), then
  // A's (0.75: not). Drawn when the calls start, A would have taken 0.25.
  EventLoop loop;
  test::ScriptedRng rng({1.0 - std::exp(-1.0), 1.0 - std::exp(-0.1), 0.25, 0.75});
  LlmConfig c = config();
  c.malformed_output_rate = 0.5;
  LlmMock mock("m", c, loop, loop, rng);
  std::vector<testing::Finished> out;
  std::exception_ptr error;
  spawn(testing::call_into(mock, prompt(10), CallOptions{}, loop, out), &error);
  spawn(testing::call_into(mock, prompt(10), CallOptions{}, loop, out), &error);
  loop.run();
  ASSERT_FALSE(error);
  ASSERT_EQ(out.size(), 2U);
  EXPECT_EQ(out[0].at, 400 * kMillisecond);
  EXPECT_EQ(out[0].response.output_tokens, 10);
  EXPECT_TRUE(out[0].response.malformed);
  EXPECT_EQ(out[1].at, 2200 * kMillisecond);
  EXPECT_EQ(out[1].response.output_tokens, 100);
  EXPECT_FALSE(out[1].response.malformed);
  EXPECT_EQ(rng.draws(), 4U);
}

TEST(LlmMockTest, NoMalformedOutputDrawsNothingExtra) {
  // A rate of 0 takes no draw, so the stream (and every output length) is unchanged.
  EventLoop loop;
  FixedRng rng = hundred_tokens();
  LlmMock mock("m", config(), loop, loop, rng);
  const auto r = run_call(loop, mock, prompt(10));
  EXPECT_EQ(r.response.output_tokens, 100);
  EXPECT_FALSE(r.response.malformed);
}

TEST(LlmMockTest, TruncationRateIsTheShareOfDrawsTheMockCuts) {
  // The mock cuts a draw u when round(-mean ln(1 - u)) > cap, i.e. u >= 1 - rate: a draw
  // just below that boundary is whole, one just above is cut. mean 100, cap 40.
  const double rate = truncation_rate(config(), 40);
  EXPECT_DOUBLE_EQ(rate, std::exp(-40.5 / 100));
  for (const double offset : {-1e-9, 1e-9}) {
    EventLoop loop;
    FixedRng rng = FixedRng::at_fraction(1.0 - rate + offset);
    LlmMock mock("m", config(), loop, loop, rng);
    const auto done = run_call(loop, mock, prompt(10, 40));
    EXPECT_EQ(done.response.truncated, offset > 0) << offset;
  }
  // No step cap, or one above the model's: the model's own cap (16384) decides.
  EXPECT_DOUBLE_EQ(truncation_rate(config(), 0), std::exp(-16384.5 / 100));
  EXPECT_DOUBLE_EQ(truncation_rate(config(), 20'000), std::exp(-16384.5 / 100));
}

}  // namespace
}  // namespace squall

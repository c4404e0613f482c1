// race() over the mock LLM: the shape hedging will have ("send a second request after a
// delay, first answer wins"), checking that the loser's generated tokens are billed.
#include <gtest/gtest.h>

#include <cmath>
#include <exception>
#include <optional>

#include "engine/classify.hpp"
#include "engine/runtime/cancellable_sleep.hpp"
#include "engine/runtime/race.hpp"
#include "mocks/answer_time.hpp"
#include "mocks/llm.hpp"
#include "sim/event_loop.hpp"

namespace squall {
namespace {

// TTFT 200 ms constant, $2 / $8 per million input / output tokens, `tokens_per_second`.
LlmConfig model(double tokens_per_second) {
  LlmConfig c;
  c.price_per_mtok = {2.0, 8.0};
  c.time_to_first_token = {LatencyShape::constant, 200 * kMillisecond, 0, 0, 0};
  c.tokens_per_second = tokens_per_second;
  c.mean_output_tokens = 100;
  return c;
}

// With U = 1 - e^-1 the output length draw is -100 * ln(1 - U) = 100 tokens.
FixedRng hundred_tokens() { return FixedRng::at_fraction(1.0 - std::exp(-1.0)); }

Request prompt() {
  Request r;
  r.prompt_tokens = 1000;
  return r;
}

// One child of the race: waits `delay` (cancellably), then calls `provider` with the
// child's token. Each child owns its Request and CallOptions (race.hpp's rule).
Task<Response> attempt(EventLoop& loop, Provider& provider, Nanos delay, CancellationToken token) {
  if (delay > 0 && co_await sleep_until(loop, loop.now() + delay, token) == Wake::cancelled) {
    co_return cancelled_response(Body::completion);  // never sent
  }
  const Request request = prompt();
  CallOptions options;
  options.cancellation = token;
  co_return co_await provider.call(request, options);
}

struct Hedged {
  std::optional<RaceResult<Response>> result;
  TimePoint at = -1;
};

Task<void> hedged_call(EventLoop& loop, Provider& primary, Provider& backup, Nanos hedge_delay, Hedged& out) {
  out.result = co_await race(
      CancellationToken{}, [&](CancellationToken t) { return attempt(loop, primary, 0, t); },
      [&](CancellationToken t) { return attempt(loop, backup, hedge_delay, t); });
  out.at = loop.now();
}

TEST(RaceTest, LoserIsCancelledAndBillsGeneratedTokens) {
  // Primary: 20 tokens/s, so its 100 tokens would arrive at 0.2 + 100 / 20 = 5.2 s.
  // Backup, sent after a 500 ms hedge delay at 50 tokens/s: 0.5 + 0.2 + 100 / 50 = 2.7 s.
  // The backup wins at 2.7 s: (1000 * 2 + 100 * 8) / 1e6 = 0.0028 USD. The primary is
  // cancelled then, having streamed 2.7 - 0.2 = 2.5 s * 20 tokens/s = 50 tokens, and bills
  // the prompt and those: (1000 * 2 + 50 * 8) / 1e6 = 0.0024 USD.
  EventLoop loop;
  FixedRng primary_rng = hundred_tokens();
  FixedRng backup_rng = hundred_tokens();
  LlmMock primary("slow", model(20), loop, loop, primary_rng);
  LlmMock backup("fast", model(50), loop, loop, backup_rng);
  Hedged h;
  std::exception_ptr error;
  spawn(hedged_call(loop, primary, backup, 500 * kMillisecond, h), &error);
  loop.run();
  ASSERT_FALSE(error);
  ASSERT_TRUE(h.result);
  EXPECT_EQ(h.at, 2700 * kMillisecond);
  EXPECT_EQ(h.result->winner, 1U);

  const Response& won = h.result->won;
  EXPECT_EQ(classify(won), OutcomeKind::success);
  EXPECT_EQ(won.output_tokens, 100);
  EXPECT_DOUBLE_EQ(won.cost_usd, 0.0028);

  const Response& lost = h.result->lost;
  EXPECT_EQ(lost.transport, Transport::cancelled);
  EXPECT_EQ(classify(lost), OutcomeKind::cancelled);
  EXPECT_EQ(lost.input_tokens, 1000);
  EXPECT_EQ(lost.output_tokens, 50);
  EXPECT_DOUBLE_EQ(lost.cost_usd, 0.0024);

  EXPECT_TRUE(loop.empty());  // the primary's 5.2 s answer timer was removed
  EXPECT_EQ(loop.now(), 2700 * kMillisecond);
}

TEST(RaceTest, HedgeCancelledDuringItsDelayIsNeverSent) {
  // The primary (50 tokens/s) answers at 2.2 s, before the 3 s hedge delay ends: the
  // backup is cancelled in its delay, makes no call and bills nothing; its mock draws
  // nothing.
  EventLoop loop;
  FixedRng primary_rng = hundred_tokens();
  Xoshiro256 backup_rng(9);
  Xoshiro256 backup_twin(9);
  LlmMock primary("primary", model(50), loop, loop, primary_rng);
  LlmMock backup("backup", model(50), loop, loop, backup_rng);
  Hedged h;
  std::exception_ptr error;
  spawn(hedged_call(loop, primary, backup, 3 * kSecond, h), &error);
  loop.run();
  ASSERT_TRUE(h.result);
  EXPECT_EQ(h.at, 2200 * kMillisecond);
  EXPECT_EQ(h.result->winner, 0U);
  EXPECT_DOUBLE_EQ(h.result->won.cost_usd, 0.0028);
  EXPECT_EQ(h.result->lost.transport, Transport::cancelled);
  EXPECT_EQ(h.result->lost.cost_usd, 0);
  EXPECT_EQ(backup_rng.next_u64(), backup_twin.next_u64());
  EXPECT_TRUE(loop.empty());
}

}  // namespace
}  // namespace squall

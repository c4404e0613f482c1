// The LLM mock's query rewrites (mocks/llm.hpp): what a rewrite answers, how it is
// decided, timed and billed.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/classify.hpp"
#include "mocks/llm.hpp"
#include "sim/event_loop.hpp"
#include "tests/mocks/support.hpp"

namespace squall {
namespace {

using testing::run_call;

// TTFT 200 ms constant (no draw), 50 tokens/s, $2 / $8 per million input / output tokens.
LlmConfig config(double rewrite_success_rate) {
  LlmConfig c;
  c.price_per_mtok = {2.0, 8.0};
  c.time_to_first_token = {LatencyShape::constant, 200 * kMillisecond, 0, 0, 0};
  c.tokens_per_second = 50;
  c.rewrite_success_rate = rewrite_success_rate;
  return c;
}

PoolQuery pool_query() {
  PoolQuery q;
  q.text = "acme revenue";
  q.rewrite = "acme corp annual revenue";  // 24 bytes: 6 tokens
  q.paraphrase = "revenue acme";           // 12 bytes: 3 tokens
  return q;
}

Request rewrite_request(const PoolQuery* origin, std::uint32_t n = 1) {
  Request r;
  r.query = "acme revenue";
  r.origin = origin;
  r.prompt_tokens = 203;
  r.max_output_tokens = 100;
  r.rewrite_attempt = n;
  return r;
}

CallOptions task(std::uint64_t id) {
  CallOptions o;
  o.task_id = id;
  return o;
}

TEST(LlmRewriteTest, ASuccessfulRewriteAnswersTheIntendedFormTimedAndBilledLikeAnyCall) {
  // 6 output tokens (the answer's, not a drawn length): 200 ms + 6 / 50 s = 320 ms;
  // (203 * 2 + 6 * 8) / 1e6 = 0.000454 USD. The answer is a view into the PoolQuery.
  EventLoop loop;
  FixedRng rng(0);
  const PoolQuery origin = pool_query();
  LlmMock mock("mini", config(1.0), loop, loop, rng, 7);
  const auto done = run_call(loop, mock, rewrite_request(&origin), task(1));
  EXPECT_EQ(done.at, 320 * kMillisecond);
  EXPECT_EQ(done.response.tool_result(), "acme corp annual revenue");
  EXPECT_EQ(done.response.tool_result().data(), origin.rewrite.data());
  EXPECT_EQ(done.response.input_tokens, 203);
  EXPECT_EQ(done.response.output_tokens, 6);
  EXPECT_DOUBLE_EQ(done.response.cost_usd, 0.000454);
  EXPECT_FALSE(done.response.malformed);
  EXPECT_EQ(classify(done.response), OutcomeKind::success);
}

TEST(LlmRewriteTest, AnUnhelpfulRewriteAnswersTheParaphrase) {
  // Rate 0, or a query without an intended form: the paraphrase, 3 tokens.
  EventLoop loop;
  FixedRng rng(0);
  PoolQuery origin = pool_query();
  LlmMock never("mini", config(0.0), loop, loop, rng, 7);
  EXPECT_EQ(run_call(loop, never, rewrite_request(&origin), task(1)).response.tool_result(), "revenue acme");
  origin.rewrite.clear();
  LlmMock always("mini", config(1.0), loop, loop, rng, 7);
  const auto done = run_call(loop, always, rewrite_request(&origin), task(1));
  EXPECT_EQ(done.response.tool_result(), "revenue acme");
  EXPECT_EQ(done.response.output_tokens, 3);
}

TEST(LlmRewriteTest, WithoutAnOriginTheQueryComesBackUnchanged) {
  // An empty answer; billed as the query's 3 tokens.
  EventLoop loop;
  FixedRng rng(0);
  LlmMock mock("mini", config(1.0), loop, loop, rng, 7);
  const auto done = run_call(loop, mock, rewrite_request(nullptr), task(1));
  EXPECT_TRUE(done.response.tool_result().empty());
  EXPECT_EQ(done.response.output_tokens, 3);
  EXPECT_EQ(classify(done.response), OutcomeKind::success);
}

TEST(LlmRewriteTest, ARewriteCutByTheOutputCapIsTruncated) {
  EventLoop loop;
  FixedRng rng(0);
  const PoolQuery origin = pool_query();
  LlmMock mock("mini", config(1.0), loop, loop, rng, 7);
  Request r = rewrite_request(&origin);
  r.max_output_tokens = 4;
  const auto done = run_call(loop, mock, r, task(1));
  EXPECT_EQ(done.response.output_tokens, 4);
  EXPECT_TRUE(done.response.truncated);
  EXPECT_EQ(classify(done.response), OutcomeKind::success);
}

TEST(LlmRewriteTest, TheOutcomeIsAFunctionOfTaskQueryAndAttempt) {
  // Re-sending the same rewrite request (an SDK retry) gets the same answer; the key, the
  // task and the attempt each change decisions somewhere among 64 tasks.
  EventLoop loop;
  FixedRng rng(0);
  const PoolQuery origin = pool_query();
  LlmMock mock("mini", config(0.5), loop, loop, rng, 7);
  LlmMock other("mini", config(0.5), loop, loop, rng, 8);
  bool keys_differ = false;
  bool attempts_differ = false;
  bool queries_differ = false;
  int intended = 0;
  for (std::uint64_t id = 0; id < 64; ++id) {
    const bool first = mock.rewrite_reaches_intended(id, "acme revenue", 1);
    const auto done = run_call(loop, mock, rewrite_request(&origin, 1), task(id));
    EXPECT_EQ(done.response.tool_result(), first ? origin.rewrite : origin.paraphrase);
    EXPECT_EQ(run_call(loop, mock, rewrite_request(&origin, 1), task(id)).response.tool_result(),
              done.response.tool_result());
    intended += first ? 1 : 0;
    keys_differ = keys_differ || first != other.rewrite_reaches_intended(id, "acme revenue", 1);
    attempts_differ = attempts_differ || first != mock.rewrite_reaches_intended(id, "acme revenue", 2);
    queries_differ = queries_differ || first != mock.rewrite_reaches_intended(id, "acme revenues", 1);
  }
  EXPECT_TRUE(keys_differ);
  EXPECT_TRUE(attempts_differ);
  EXPECT_TRUE(queries_differ);
  EXPECT_GT(intended, 0);
  EXPECT_LT(intended, 64);
}

TEST(LlmRewriteTest, TheSuccessRateHoldsWithinFourStandardErrors) {
  // n = 20000 tasks at 0.3: standard error sqrt(0.3 * 0.7 / n) = 0.0032.
  EventLoop loop;
  Xoshiro256 rng(11);
  LlmMock mock("mini", config(0.3), loop, loop, rng, 12345);
  constexpr int n = 20'000;
  int intended = 0;
  for (int id = 0; id < n; ++id) {
    if (mock.rewrite_reaches_intended(static_cast<std::uint64_t>(id), "acme revenue", 1)) ++intended;
  }
  EXPECT_NEAR(static_cast<double>(intended) / n, 0.3, 4 * std::sqrt(0.3 * 0.7 / n));
}

}  // namespace
}  // namespace squall

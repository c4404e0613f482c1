#include "mocks/vector_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "engine/classify.hpp"
#include "engine/strategies/retry.hpp"
#include "mocks/chaos/chaos_provider.hpp"
#include "sim/event_loop.hpp"
#include "tests/mocks/support.hpp"

namespace squall {
namespace {

using testing::Finished;
using testing::run_call;

std::shared_ptr<const VectorIndex> index() {
  static const auto shared = std::make_shared<const VectorIndex>(std::make_shared<const Corpus>(std::vector<Document>{
      {"Reset your password", "https://kb.example/reset", "Choose Forgot password on the sign-in page.", 0, ""},
      {"Two-factor authentication", "https://kb.example/2fa", "Scan the QR code with an authenticator app.", 0, ""},
      {"Refund policy", "https://kb.example/refund", "Annual plans are refunded within 30 days.", 0, ""},
      {"Password rules", "https://kb.example/rules", "A password has at least 12 characters.", 0, ""},
  }));
  return shared;
}

VectorSearchConfig config(Nanos latency, std::int32_t top_k = 10) {
  VectorSearchConfig c;
  c.latency = {LatencyShape::constant, latency, 0, 0, 0};
  c.top_k = top_k;
  return c;
}

VectorSearchConfig limited(Nanos latency, ReadUnitConfig units) {
  VectorSearchConfig c = config(latency);
  c.read_units = units;
  return c;
}

Request query(std::string_view q, SearchMode mode = SearchMode::dense, double min_score = 0, std::int32_t top_k = 0) {
  Request r;
  r.query = q;
  r.mode = mode;
  r.min_score = min_score;
  r.top_k = top_k;
  return r;
}

// Calls `provider` at each of `times` (virtual, ascending) with `request`; returns what
// came back, in the order the calls were made.
std::vector<Finished> calls_at(EventLoop& loop, Provider& provider, const std::vector<TimePoint>& times,
                               const Request& request) {
  std::vector<Finished> out(times.size());
  std::exception_ptr error;
  const auto one = [](EventLoop& l, Provider& p, TimePoint at, const Request& r, Finished& into) -> Task<void> {
    co_await sleep_until(l, at);
    into.response = co_await p.call(r, CallOptions{});
    into.at = l.now();
  };
  for (std::size_t i = 0; i < times.size(); ++i) spawn(one(loop, provider, times[i], request, out[i]), &error);
  loop.run();
  if (error) std::rethrow_exception(error);
  return out;
}

TEST(VectorSearchMockTest, AnswersScoredHitsBestFirstAfterItsLatency) {
  EventLoop loop;
  Xoshiro256 rng(1);
  VectorSearchMock mock("kb", config(40 * kMillisecond), index(), loop, loop, rng);
  EXPECT_EQ(mock.name(), "kb");
  const auto done = run_call(loop, mock, query("how do I reset my password"));
  EXPECT_EQ(done.at, 40 * kMillisecond);
  EXPECT_EQ(done.response.status, 200);
  ASSERT_EQ(done.response.results().size(), 2U);
  EXPECT_EQ(done.response.results()[0].link, "https://kb.example/reset");
  EXPECT_EQ(done.response.results()[1].link, "https://kb.example/rules");
  EXPECT_GT(done.response.results()[0].score, done.response.results()[1].score);
  EXPECT_EQ(classify(done.response), OutcomeKind::success);
}

TEST(VectorSearchMockTest, ReadsTopKMinScoreAndModeFromTheRequest) {
  EventLoop loop;
  Xoshiro256 rng(1);
  VectorSearchMock mock("kb", config(kMillisecond, 1), index(), loop, loop, rng);
  // top_k 0: the provider's (1).
  EXPECT_EQ(run_call(loop, mock, query("password")).response.results().size(), 1U);
  EXPECT_EQ(run_call(loop, mock, query("password", SearchMode::dense, 0, 5)).response.results().size(), 2U);
  // A threshold above every score: 200 with nothing, the engine's `empty`.
  const auto filtered = run_call(loop, mock, query("password", SearchMode::dense, 0.99, 5));
  EXPECT_EQ(filtered.response.status, 200);
  EXPECT_TRUE(filtered.response.results().empty());
  EXPECT_EQ(classify(filtered.response), OutcomeKind::empty);
  // Keyword mode ignores the threshold.
  EXPECT_EQ(run_call(loop, mock, query("password", SearchMode::keyword, 0.99, 5)).response.results().size(), 2U);
}

// Capacity 1 RU, refill 0.1 RU/s, 0.4 RU per query, latency 10 ms. Calls at 0, 0, 0:
// the first two take 1000 -> 600 -> 200 mRU; the third finds 200 of 400 and gets 429 with
// Retry-After ceil(200 / 100 s) = "2". At 2 s the bucket holds 200 + 200 = 400: served.
// At 2.5 s it holds 50: 350 short, 3.5 s, so Retry-After "4".
TEST(VectorSearchMockTest, ReadUnitsRunOutWith429AndRetryAfterFromTheBucket) {
  EventLoop loop;
  Xoshiro256 rng(1);
  VectorSearchMock mock("kb", limited(10 * kMillisecond, ReadUnitConfig{1000, 100, 400}), index(), loop, loop, rng);
  EXPECT_EQ(mock.per_query_mru(), 400);
  const auto done = calls_at(loop, mock, {0, 0, 0, 2 * kSecond, 2'500 * kMillisecond}, query("refund"));
  EXPECT_EQ(done[0].response.status, 200);
  EXPECT_EQ(done[1].response.status, 200);
  EXPECT_EQ(done[2].response.status, 429);
  EXPECT_EQ(done[2].at, 10 * kMillisecond);  // a rejection takes the latency too
  EXPECT_EQ(done[2].response.details().retry_after, "2");
  EXPECT_EQ(done[2].response.details().error_code, "rate_limit_exceeded");
  EXPECT_EQ(done[2].response.details().error_message,
            "read units exhausted for index \"kb\": 1 RU available, refilling at 0.1 RU/s; a query costs 0.4 RU");
  EXPECT_TRUE(done[2].response.results().empty());
  EXPECT_EQ(classify(done[2].response), OutcomeKind::rate_limited);
  EXPECT_EQ(done[3].response.status, 200);
  EXPECT_EQ(done[4].response.status, 429);
  EXPECT_EQ(done[4].response.details().retry_after, "4");
  EXPECT_EQ(mock.rate_limited(), 2U);
}

// Without per_query, a query costs what Pinecone's rule gives: 0.25 RU for this corpus.
TEST(VectorSearchMockTest, DefaultQueryCostIsPineconesMinimum) {
  EventLoop loop;
  Xoshiro256 rng(1);
  VectorSearchMock mock("kb", limited(kMillisecond, ReadUnitConfig{500, 0, std::nullopt}), index(), loop, loop, rng);
  EXPECT_EQ(mock.per_query_mru(), 250);
  const auto done = calls_at(loop, mock, {0, 0, 0}, query("refund"));
  EXPECT_EQ(done[1].response.status, 200);
  EXPECT_EQ(done[2].response.status, 429);
  EXPECT_EQ(done[2].response.details().retry_after, "");  // a quota that does not refill: no Retry-After
}

TEST(VectorSearchMockTest, IndexNotReadyIsA503ClassifiedOverloadedAndRetried) {
  EventLoop loop;
  Xoshiro256 rng(1);
  Xoshiro256 chaos_rng(2);
  FaultConfig fault;
  fault.kind = FaultKind::index_not_ready;
  fault.probability = 1;
  fault.to = kMinute;
  ChaosProvider chaos(std::make_unique<VectorSearchMock>("kb", config(20 * kMillisecond), index(), loop, loop, rng),
                      {fault}, config(20 * kMillisecond).latency, Body::search_results, loop, loop, chaos_rng);
  const auto early = run_call(loop, chaos, query("refund"));
  EXPECT_EQ(early.response.status, 503);
  EXPECT_EQ(early.response.details().error_code, "index_not_ready");
  EXPECT_EQ(classify(early.response), OutcomeKind::overloaded);
  EXPECT_EQ(chaos.injected()[index_of(FaultKind::index_not_ready)], 1U);
  // Systemic and retryable: in the retry strategy's and the breaker's defaults.
  const auto retry_on = RetryConfig{}.retry_on;
  EXPECT_NE(std::find(retry_on.begin(), retry_on.end(), OutcomeKind::overloaded), retry_on.end());
  // Once the window has passed, the index answers.
  const auto later = calls_at(loop, chaos, {2 * kMinute}, query("refund"));
  EXPECT_EQ(later[0].response.status, 200);
  EXPECT_EQ(later[0].response.results().size(), 1U);
}

// Same seed, same calls: the same answers at the same times.
TEST(VectorSearchMockTest, DeterministicForASeed) {
  const auto run = [] {
    EventLoop loop;
    Xoshiro256 rng(7);
    VectorSearchConfig c;  // lognormal latency: draws
    c.read_units = ReadUnitConfig{1000, 500, std::nullopt};
    VectorSearchMock mock("kb", c, index(), loop, loop, rng);
    std::vector<std::pair<TimePoint, int>> out;
    for (const Finished& f : calls_at(loop, mock, {0, 0, 0, 0, 0, kSecond, kSecond}, query("password reset"))) {
      out.emplace_back(f.at, f.response.status);
    }
    return out;
  };
  const auto first = run();
  EXPECT_EQ(first, run());
  EXPECT_EQ(first[4].second, 429);  // 1000 mRU hold four 250 mRU queries
}

TEST(VectorSearchMockTest, CancelledBeforeSendingCostsNothing) {
  EventLoop loop;
  Xoshiro256 rng(1);
  VectorSearchMock mock("kb", limited(kMillisecond, ReadUnitConfig{250, 0, std::nullopt}), index(), loop, loop, rng);
  CancellationSource source;
  source.cancel();
  CallOptions options;
  options.cancellation = source.token();
  EXPECT_EQ(run_call(loop, mock, query("refund"), options).response.transport, Transport::cancelled);
  EXPECT_EQ(run_call(loop, mock, query("refund")).response.status, 200);  // the units were still there
}

TEST(VectorSearchMockTest, FactoryNeedsTheIndex) {
  EventLoop loop;
  Xoshiro256 rng(1);
  const MockBuild build{"kb", loop, loop, rng, nullptr, nullptr, {}};
  EXPECT_THROW(make_mock(VectorSearchConfig{}, build), std::invalid_argument);
}

}  // namespace
}  // namespace squall

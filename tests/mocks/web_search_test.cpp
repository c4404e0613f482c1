#include "mocks/web_search.hpp"

#include <gtest/gtest.h>

#include "engine/classify.hpp"
#include "sim/event_loop.hpp"
#include "tests/mocks/support.hpp"

namespace squall {
namespace {

using testing::run_call;

std::shared_ptr<const Corpus> corpus() {
  return std::make_shared<const Corpus>(std::vector<Document>{
      {"Acme Corp Series B", "https://acme.example/b", "Acme Corp closed a $45M Series B.", 0, ""},
      {"Acme pricing", "https://acme.example/pricing", "Acme Corp plans start at $499 per month.", 0, ""},
      {"Globex news", "https://globex.example/news", "Globex Systems partners with Acme Corp.", 0, ""},
  });
}

WebSearchConfig config(Nanos latency, std::int32_t max_results = 10) {
  WebSearchConfig c;
  c.latency = {LatencyShape::constant, latency, 0, 0, 0};
  c.max_results = max_results;
  return c;
}

Request query(std::string_view q) {
  Request r;
  r.query = q;
  return r;
}

TEST(WebSearchMockTest, AnswersAfterItsLatencyWithHitsInCorpusOrder) {
  EventLoop loop;
  Xoshiro256 rng(1);
  WebSearchMock mock("web_search", config(180 * kMillisecond), corpus(), loop, loop, rng);
  EXPECT_EQ(mock.name(), "web_search");
  const auto done = run_call(loop, mock, query("acme corp"));
  EXPECT_EQ(done.at, 180 * kMillisecond);
  EXPECT_EQ(done.response.transport, Transport::ok);
  EXPECT_EQ(done.response.status, 200);
  EXPECT_EQ(done.response.body, Body::search_results);
  ASSERT_EQ(done.response.results().size(), 3U);
  EXPECT_EQ(done.response.results()[0].link, "https://acme.example/b");
  EXPECT_EQ(done.response.results()[2].link, "https://globex.example/news");
  EXPECT_EQ(classify(done.response), OutcomeKind::success);
}

TEST(WebSearchMockTest, OverSpecificQueryIsEmpty) {
  EventLoop loop;
  Xoshiro256 rng(1);
  WebSearchMock mock("web_search", config(100 * kMillisecond), corpus(), loop, loop, rng);
  const auto done = run_call(loop, mock, query("\"Acme Corp\" Series B 2023 lead investor"));
  EXPECT_EQ(done.at, 100 * kMillisecond);
  EXPECT_EQ(done.response.status, 200);
  EXPECT_TRUE(done.response.results().empty());
  EXPECT_EQ(classify(done.response), OutcomeKind::empty);
}

TEST(WebSearchMockTest, MaxResultsCapsHits) {
  EventLoop loop;
  Xoshiro256 rng(1);
  WebSearchMock mock("web_search", config(kMillisecond, 2), corpus(), loop, loop, rng);
  const auto done = run_call(loop, mock, query("acme"));
  ASSERT_EQ(done.response.results().size(), 2U);
  EXPECT_EQ(done.response.results()[1].link, "https://acme.example/pricing");
}

TEST(WebSearchMockTest, LateAnswerTimesOutExactlyAtTheDeadline) {
  // Latency 500 ms, deadline 300 ms after the start: the caller sees a timeout at 300 ms.
  EventLoop loop;
  Xoshiro256 rng(1);
  WebSearchMock mock("web_search", config(500 * kMillisecond), corpus(), loop, loop, rng);
  CallOptions options;
  options.deadline = 300 * kMillisecond;
  const auto done = run_call(loop, mock, query("acme"), options);
  EXPECT_EQ(done.at, 300 * kMillisecond);
  EXPECT_EQ(done.response.transport, Transport::timeout);
  EXPECT_EQ(done.response.status, 0);
  EXPECT_TRUE(done.response.results().empty());
  EXPECT_EQ(classify(done.response), OutcomeKind::timeout);
}

TEST(WebSearchMockTest, AnswerDueAtTheDeadlineArrives) {
  EventLoop loop;
  Xoshiro256 rng(1);
  WebSearchMock mock("web_search", config(300 * kMillisecond), corpus(), loop, loop, rng);
  CallOptions options;
  options.deadline = 300 * kMillisecond;
  const auto done = run_call(loop, mock, query("acme"), options);
  EXPECT_EQ(done.at, 300 * kMillisecond);
  EXPECT_EQ(done.response.transport, Transport::ok);
  EXPECT_EQ(done.response.results().size(), 3U);
}

TEST(WebSearchMockTest, LatencyDrawsDoNotDependOnTheQuery) {
  // Two mocks on equal streams answer different queries at the same lognormal times.
  WebSearchConfig c;
  c.latency = {LatencyShape::lognormal, 0, 0, 100 * kMillisecond, kSecond};
  EventLoop loop_a;
  EventLoop loop_b;
  Xoshiro256 rng_a(9);
  Xoshiro256 rng_b(9);
  WebSearchMock a("a", c, corpus(), loop_a, loop_a, rng_a);
  WebSearchMock b("b", c, corpus(), loop_b, loop_b, rng_b);
  const auto hits = testing::run_calls(loop_a, a, 20, 0, 0, kNever, query("acme"));
  const auto misses = testing::run_calls(loop_b, b, 20, 0, 0, kNever, query("no such words"));
  for (std::size_t i = 0; i < hits.size(); ++i) EXPECT_EQ(hits[i].at, misses[i].at);
  EXPECT_GT(hits.back().at, hits.front().at);
}

TEST(WebSearchMockTest, CancelReturnsAtTheCancelTimeWithoutHits) {
  // The answer is due at 180 ms; the caller cancels at 50 ms.
  EventLoop loop;
  Xoshiro256 rng(1);
  WebSearchMock mock("web_search", config(180 * kMillisecond), corpus(), loop, loop, rng);
  const auto done = testing::run_call_cancelled_at(loop, mock, 50 * kMillisecond, query("acme corp"));
  EXPECT_EQ(done.at, 50 * kMillisecond);
  EXPECT_EQ(done.response.transport, Transport::cancelled);
  EXPECT_EQ(done.response.body, Body::search_results);
  EXPECT_TRUE(done.response.results().empty());
  EXPECT_EQ(classify(done.response), OutcomeKind::cancelled);
  EXPECT_TRUE(loop.empty());
}

// The links of a search answer, in order.
std::vector<std::string_view> links(const Response& response) {
  std::vector<std::string_view> out;
  for (const SearchResult& hit : response.results()) out.push_back(hit.link);
  return out;
}

TEST(WebSearchMockTest, KeptAnswersAreTheAnswersOfAFreshMock) {
  // The mock keeps its answer per query text and the last query's answer: repeats,
  // alternations, the empty query and queries that match nothing each get what a mock
  // that never saw a query answers.
  // ("acme" and "news", and "acme corp" and "acme news", are as long and answer apart;
  // so are the two queries of 24 bytes, which also share their first and last eight bytes
  // and so the slot of the recent answers.)
  const std::string series_b = "acme    corp    series b";
  const std::string no_hits = "acme    xxxx    series b";
  const std::vector<std::string> queries{"acme",          "acme",      "news",      "acme",   "globex",
                                         "acme",          "acme corp", "acme news", "globex", "",
                                         "no such words", "acme",      "ACME",      "acme",   "\"acme corp\" series b",
                                         "acme corp",     "acme",      series_b,    no_hits,  series_b,
                                         series_b,        no_hits,     "acme corp", series_b};
  EventLoop loop;
  Xoshiro256 rng(1);
  WebSearchMock kept("web_search", config(kMillisecond), corpus(), loop, loop, rng);
  for (const std::string& q : queries) {
    EventLoop fresh_loop;
    Xoshiro256 fresh_rng(1);
    WebSearchMock fresh("web_search", config(kMillisecond), corpus(), fresh_loop, fresh_loop, fresh_rng);
    EXPECT_EQ(links(run_call(loop, kept, query(q)).response), links(run_call(fresh_loop, fresh, query(q)).response))
        << q;
  }
}

TEST(WebSearchMockTest, QueriesPastTheMemosCapAreAnsweredAsTheFirst) {
  // More distinct texts than the memo keeps (TextMemo's 4,096): "acme" and "globex" with
  // i % 64 spaces before and i / 64 after match as the bare words do (whitespace runs
  // collapse); 8,400 texts, so the later ones are matched afresh each time, and early ones
  // are still answered.
  EventLoop loop;
  Xoshiro256 rng(1);
  WebSearchMock mock("web_search", config(kMillisecond), corpus(), loop, loop, rng);
  const std::vector<std::string_view> acme{"https://acme.example/b", "https://acme.example/pricing",
                                           "https://globex.example/news"};
  const std::vector<std::string_view> globex{"https://globex.example/news"};
  const auto padded = [](std::string_view word, std::size_t i) {
    return std::string(i % 64, ' ') + std::string(word) + std::string(i / 64, ' ');
  };
  for (std::size_t i = 0; i < 4200; ++i) {
    ASSERT_EQ(links(run_call(loop, mock, query(padded("acme", i))).response), acme) << i;
    ASSERT_EQ(links(run_call(loop, mock, query(padded("globex", i))).response), globex) << i;
  }
  EXPECT_EQ(links(run_call(loop, mock, query("acme")).response), acme);
  EXPECT_EQ(links(run_call(loop, mock, query(padded("globex", 4199))).response), globex);
  EXPECT_EQ(links(run_call(loop, mock, query(padded("acme", 4199))).response), acme);
}

}  // namespace
}  // namespace squall

#include "mocks/capacity/capacity_provider.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "engine/runtime/rng.hpp"
#include "mocks/llm.hpp"
#include "sim/event_loop.hpp"
#include "tests/mocks/support.hpp"

namespace squall {
namespace {

using testing::FakeProvider;
using testing::Finished;

// A capacity layer around a FakeProvider that serves each request in `service`.
struct Fixture {
  explicit Fixture(CapacityConfig config, Nanos service = 100 * kMillisecond, Body body = Body::search_results) {
    auto fake = std::make_unique<FakeProvider>(loop, loop, service);
    inner = fake.get();
    capacity = std::make_unique<CapacityProvider>(std::move(fake), std::move(config), body, loop, loop,
                                                  CapacitySeriesOptions{kSecond, 1000});
  }
  EventLoop loop;
  FakeProvider* inner = nullptr;
  std::unique_ptr<CapacityProvider> capacity;
};

CapacityConfig slots(std::int64_t n, std::int64_t queue = 1024, Nanos queue_timeout = 15 * kSecond) {
  CapacityConfig c;
  c.limits.max_concurrency = n;
  c.queue_size = queue;
  c.queue_timeout = queue_timeout;
  return c;
}

// One call started at `at` with a deadline `timeout` after it; returns into `out`.
Task<void> call_at(EventLoop& loop, Provider& p, TimePoint at, Nanos timeout, std::vector<Finished>& out,
                   Request request = {}) {
  co_await sleep_until(loop, at);
  CallOptions options;
  options.deadline = add_saturating(loop.now(), timeout);
  Response r = co_await p.call(request, options);
  out.push_back(Finished{std::move(r), loop.now()});
}

// Starts calls at the given times (all with `timeout`), runs the loop dry, and returns the
// results in the order of the start times.
std::vector<Finished> run_at(Fixture& f, const std::vector<TimePoint>& starts, Nanos timeout = kNever,
                             Request request = {}) {
  std::vector<std::vector<Finished>> outs(starts.size());
  std::exception_ptr error;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    spawn(call_at(f.loop, *f.capacity, starts[i], timeout, outs[i], request), &error);
  }
  f.loop.run();
  if (error) std::rethrow_exception(error);
  std::vector<Finished> results;
  for (auto& o : outs) {
    EXPECT_EQ(o.size(), 1U);
    if (!o.empty()) results.push_back(std::move(o.front()));
  }
  return results;
}

TEST(CapacityProviderTest, RequestsBeyondTheSlotsQueueInArrivalOrder) {
  // 2 slots, 100 ms service, 4 requests at t = 0: two finish at 100 ms, the queued two
  // take the freed slots then and finish at 200 ms.
  Fixture f(slots(2));
  const auto r = run_at(f, {0, 0, 0, 0});
  EXPECT_EQ(r[0].at, 100 * kMillisecond);
  EXPECT_EQ(r[1].at, 100 * kMillisecond);
  EXPECT_EQ(r[2].at, 200 * kMillisecond);
  EXPECT_EQ(r[3].at, 200 * kMillisecond);
  for (const auto& x : r) EXPECT_EQ(x.response.status, 200);
  const CapacityTotals& t = f.capacity->stats().totals();
  EXPECT_EQ(t.arrivals, 4U);
  EXPECT_EQ(t.queued, 2U);
  EXPECT_EQ(t.goodput, 4U);
  EXPECT_EQ(t.max_queue, 2);
  EXPECT_EQ(t.max_in_flight, 2);
}

TEST(CapacityProviderTest, AFullQueueRejectsAtOnceWithTheRejectStatus) {
  // 1 slot, a queue of 1: the third request at t = 0 finds both taken.
  Fixture f(slots(1, 1));
  const auto r = run_at(f, {0, 0, 0});
  EXPECT_EQ(r[0].at, 100 * kMillisecond);
  EXPECT_EQ(r[1].at, 200 * kMillisecond);
  EXPECT_EQ(r[2].at, 0);
  EXPECT_EQ(r[2].response.status, 503);
  EXPECT_EQ(r[2].response.details().error_code, "overloaded");
  EXPECT_EQ(f.capacity->stats().totals().queue_full, 1U);
  EXPECT_EQ(f.inner->calls(), 2);
}

TEST(CapacityProviderTest, NoQueueRejectsWhenEverySlotIsBusy) {
  CapacityConfig c = slots(1, 0);
  c.reject_status = 529;
  Fixture f(c);
  const auto r = run_at(f, {0, 50 * kMillisecond, 100 * kMillisecond, 101 * kMillisecond});
  EXPECT_EQ(r[1].response.status, 529);
  EXPECT_EQ(r[1].at, 50 * kMillisecond);
  // Events at equal times run in scheduling order: the third caller's wake-up at 100 ms
  // was scheduled at t = 0, before the first request's service, so it still finds the
  // slot busy. At 101 ms the slot is free.
  EXPECT_EQ(r[2].response.status, 529);
  EXPECT_EQ(r[3].response.status, 200);
  EXPECT_EQ(r[3].at, 201 * kMillisecond);
}

TEST(CapacityProviderTest, AQueuedRequestTimesOutAtItsQueueTimeout) {
  // 1 slot, service 1 s, queue timeout 300 ms: the second request, queued at 0, is
  // answered 503 "queue_timeout" at 300 ms and never served.
  Fixture f(slots(1, 10, 300 * kMillisecond), kSecond);
  const auto r = run_at(f, {0, 0});
  EXPECT_EQ(r[0].at, kSecond);
  EXPECT_EQ(r[1].at, 300 * kMillisecond);
  EXPECT_EQ(r[1].response.status, 503);
  EXPECT_EQ(r[1].response.details().error_code, "queue_timeout");
  EXPECT_EQ(f.capacity->stats().totals().queue_timeouts, 1U);
  EXPECT_EQ(f.inner->calls(), 1);
}

TEST(CapacityProviderTest, AnAbandonedRequestKeepsItsPlaceAndSlotUntilServed) {
  // 1 slot, service 100 ms, client timeouts 150 ms. Requests at 0, 0 and 0:
  // - A is served 0-100 ms and answered.
  // - B queues, gets the slot at 100 ms; its client gives up at 150 ms (timeout), but the
  //   server serves it to 200 ms: 100 ms of wasted service.
  // - C queues behind B; its client gives up at 150 ms while it is still queued; the
  //   server still serves it 200-300 ms: wasted too.
  // - D arrives at 160 ms and waits for C's slot to be free at 300 ms: answered at 400 ms,
  //   past its own deadline at 310 ms, so it is abandoned as well.
  Fixture f(slots(1));
  const auto r = run_at(f, {0, 0, 0, 160 * kMillisecond}, 150 * kMillisecond);
  EXPECT_EQ(r[0].at, 100 * kMillisecond);
  EXPECT_EQ(r[0].response.status, 200);
  EXPECT_EQ(r[1].at, 150 * kMillisecond);
  EXPECT_EQ(r[1].response.transport, Transport::timeout);
  EXPECT_EQ(r[2].at, 150 * kMillisecond);
  EXPECT_EQ(r[2].response.transport, Transport::timeout);
  EXPECT_EQ(r[3].at, 310 * kMillisecond);
  EXPECT_EQ(r[3].response.transport, Transport::timeout);
  EXPECT_EQ(f.inner->calls(), 4);
  EXPECT_EQ(f.loop.now(), 400 * kMillisecond);  // the server worked on to the end
  const CapacityTotals& t = f.capacity->stats().totals();
  EXPECT_EQ(t.abandoned, 3U);
  EXPECT_EQ(t.wasted_requests, 3U);
  EXPECT_EQ(t.wasted_service, 300 * kMillisecond);
  EXPECT_EQ(t.goodput, 1U);
  EXPECT_EQ(t.served, 4U);
}

TEST(CapacityProviderTest, ACancelledClientReturnsAtOnceWhileTheServerWorksOn) {
  Fixture f(slots(1));
  const Finished r = testing::run_call_cancelled_at(f.loop, *f.capacity, 40 * kMillisecond);
  EXPECT_EQ(r.at, 40 * kMillisecond);
  EXPECT_EQ(r.response.transport, Transport::cancelled);
  EXPECT_EQ(f.loop.now(), 100 * kMillisecond);
  EXPECT_EQ(f.capacity->stats().totals().wasted_service, 100 * kMillisecond);
}

TEST(CapacityProviderTest, RequestBucketAnswers429WithRetryAfterFromTheBucket) {
  // 60 requests per minute: one per second, burst 60. 61 requests at t = 0: the 61st
  // finds the bucket empty; one request refills in 1 s, so Retry-After: 1. At t = 2.5 s
  // the bucket has refilled 2.5 requests: two more pass, the third waits 0.5 s -> "1".
  CapacityConfig c;
  c.limits.requests_per_minute = 60;
  Fixture f(c);
  std::vector<TimePoint> starts(61, 0);
  for (int i = 0; i < 3; ++i) starts.push_back(2500 * kMillisecond);
  const auto r = run_at(f, starts);
  for (int i = 0; i < 60; ++i) EXPECT_EQ(r[i].response.status, 200) << i;
  EXPECT_EQ(r[60].response.status, 429);
  EXPECT_EQ(r[60].at, 0);
  EXPECT_EQ(r[60].response.details().retry_after, "1");
  EXPECT_EQ(r[60].response.details().error_code, "rate_limit_exceeded");
  EXPECT_EQ(r[61].response.status, 200);
  EXPECT_EQ(r[62].response.status, 200);
  EXPECT_EQ(r[63].response.status, 429);
  EXPECT_EQ(f.capacity->stats().totals().rate_limited_requests, 2U);
  // Headers: the 60th request left 0; full again in 60 s (60 units at 1 per second).
  EXPECT_EQ(r[59].response.rate_limit.limit_requests, 60);
  EXPECT_EQ(r[59].response.rate_limit.remaining_requests, 0);
  EXPECT_EQ(r[59].response.rate_limit.reset_requests, 60 * kSecond);
  EXPECT_EQ(r[0].response.rate_limit.remaining_requests, 59);
  EXPECT_EQ(r[0].response.rate_limit.reset_requests, kSecond);
  EXPECT_EQ(r[0].response.rate_limit.limit_tokens, -1);
  // At 2.5 s, after taking two: 0.5 left, whole requests 0; full in 59.5 s.
  EXPECT_EQ(r[62].response.rate_limit.remaining_requests, 0);
  EXPECT_EQ(r[62].response.rate_limit.reset_requests, 59500 * kMillisecond);
}

TEST(CapacityProviderTest, TokenBucketCountsPromptAndMaxOutputTokensOfLlmRequests) {
  // 6000 tokens per minute (100 per second); requests of 1000 + 500 tokens: four pass at
  // t = 0 (6000), the fifth needs 1500 more: 15 s -> Retry-After: 15.
  CapacityConfig c;
  c.limits.tokens_per_minute = 6000;
  Fixture f(c, 100 * kMillisecond, Body::completion);
  Request request;
  request.prompt_tokens = 1000;
  request.max_output_tokens = 500;
  const auto r = run_at(f, {0, 0, 0, 0, 0}, kNever, request);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(r[i].response.status, 200);
  EXPECT_EQ(r[4].response.status, 429);
  EXPECT_EQ(r[4].response.details().retry_after, "15");
  EXPECT_EQ(r[3].response.rate_limit.remaining_tokens, 0);
  EXPECT_EQ(f.capacity->stats().totals().rate_limited_tokens, 1U);
}

TEST(CapacityProviderTest, ARequestLargerThanTheTokenLimitGetsNoRetryAfter) {
  CapacityConfig c;
  c.limits.tokens_per_minute = 1000;
  Fixture f(c, 100 * kMillisecond, Body::completion);
  Request request;
  request.prompt_tokens = 2000;
  const auto r = run_at(f, {0}, kNever, request);
  EXPECT_EQ(r[0].response.status, 429);
  EXPECT_EQ(r[0].response.details().retry_after, "");
}

TEST(CapacityProviderTest, ADropLowersSlotsAndRatesForItsWindowOnly) {
  // 2 slots, 60 rpm; a drop [1 s, 3 s) to 1 slot and 6 rpm. Service 500 ms.
  CapacityConfig c = slots(2);
  c.limits.requests_per_minute = 60;
  CapacityDrop drop;
  drop.from = kSecond;
  drop.to = 3 * kSecond;
  drop.limits.max_concurrency = 1;
  drop.limits.requests_per_minute = 6;
  c.drops.push_back(drop);
  Fixture f(c, 500 * kMillisecond);
  // Two at 1 s: one slot, so the second queues and finishes at 2 s. The bucket, capped at
  // 6 at 1 s, is down to 4.
  // Two at 3 s: 2 slots again, both finish at 3.5 s.
  const auto r = run_at(f, {kSecond, kSecond, 3 * kSecond, 3 * kSecond});
  EXPECT_EQ(r[0].at, 1500 * kMillisecond);
  EXPECT_EQ(r[1].at, 2 * kSecond);
  EXPECT_EQ(r[0].response.rate_limit.limit_requests, 6);
  EXPECT_EQ(r[1].response.rate_limit.remaining_requests, 4);
  EXPECT_EQ(r[2].at, 3500 * kMillisecond);
  EXPECT_EQ(r[3].at, 3500 * kMillisecond);
  EXPECT_EQ(r[2].response.rate_limit.limit_requests, 60);
  // From 1 s (level 4 after two) to 3 s at 6 per minute: + 0.2 -> 4.2; then 60 per
  // minute: at 3 s, two taken -> 2.2 -> 2 whole.
  EXPECT_EQ(r[3].response.rate_limit.remaining_requests, 2);
}

TEST(CapacityProviderTest, QueuedRequestsTakeRestoredSlotsAtTheDropsEndExactly) {
  // 2 slots; a drop [1 s, 2 s) to 1 slot. Service 1.5 s. Two requests at 1 s: A is served
  // 1-2.5 s; B queues. At 2 s the drop ends and the second slot is back: B starts then
  // (not at 2.5 s, when A's slot frees) and is answered at 3.5 s.
  CapacityConfig c = slots(2);
  CapacityDrop drop;
  drop.from = kSecond;
  drop.to = 2 * kSecond;
  drop.limits.max_concurrency = 1;
  c.drops.push_back(drop);
  Fixture f(c, 1500 * kMillisecond);
  const auto r = run_at(f, {kSecond, kSecond});
  EXPECT_EQ(r[0].at, 2500 * kMillisecond);
  EXPECT_EQ(r[1].at, 3500 * kMillisecond);
  EXPECT_EQ(f.capacity->stats().totals().queued, 1U);
}

TEST(CapacityProviderTest, SeriesIntegrateQueueAndInFlightPerWindow) {
  // 1 slot, 1 s windows, service 1.5 s, two requests at 0: in flight 1 over [0, 3 s);
  // queue 1 over [0, 1.5 s).
  Fixture f(slots(1), 1500 * kMillisecond);
  run_at(f, {0, 0});
  f.capacity->finish(4 * kSecond);
  const auto& w = f.capacity->stats().windows();
  ASSERT_GE(w.size(), 4U);
  EXPECT_EQ(w[0].in_flight_ns, kSecond);
  EXPECT_EQ(w[1].in_flight_ns, kSecond);
  EXPECT_EQ(w[2].in_flight_ns, kSecond);
  EXPECT_EQ(w[0].queue_ns, kSecond);
  EXPECT_EQ(w[1].queue_ns, 500 * kMillisecond);
  EXPECT_EQ(w[0].queue_max, 1);
  EXPECT_EQ(w[0].arrivals, 2U);
  EXPECT_EQ(w[1].goodput, 1U);
  EXPECT_EQ(w[3].goodput, 1U);  // the second is answered at 3 s, the start of window 3
}

// An LLM mock behind one slot: TTFT 200 ms, 50 tokens/s, $2 / $8 per million tokens, and
// a rng whose one draw makes every answer 100 tokens long (2.2 s).
struct LlmFixture {
  LlmFixture() : rng(FixedRng::at_fraction(1.0 - std::exp(-1.0))) {
    LlmConfig c;
    c.price_per_mtok = {2.0, 8.0};
    c.time_to_first_token = {LatencyShape::constant, 200 * kMillisecond, 0, 0, 0};
    c.tokens_per_second = 50;
    c.mean_output_tokens = 100;
    capacity = std::make_unique<CapacityProvider>(std::make_unique<LlmMock>("gpt", c, loop, loop, rng), slots(1),
                                                  Body::completion, loop, loop, CapacitySeriesOptions{kSecond, 1000});
  }
  EventLoop loop;
  FixedRng rng;
  std::unique_ptr<CapacityProvider> capacity;
};

TEST(CapacityProviderTest, ACancelledLlmCallInServiceBillsWhatWasGenerated) {
  // Cancelled at 1.2 s: the server streamed from the first token at 200 ms, 50 tokens by
  // then, billed with the 1000-token prompt as the LLM mock bills its own cancels:
  // (1000 * 2 + 50 * 8) / 1e6 = 0.0024 USD. The server works on to 2.2 s.
  LlmFixture f;
  Request request;
  request.prompt_tokens = 1000;
  const Finished r = testing::run_call_cancelled_at(f.loop, *f.capacity, 1200 * kMillisecond, request);
  EXPECT_EQ(r.at, 1200 * kMillisecond);
  EXPECT_EQ(r.response.transport, Transport::cancelled);
  EXPECT_EQ(r.response.input_tokens, 1000);
  EXPECT_EQ(r.response.output_tokens, 50);
  EXPECT_DOUBLE_EQ(r.response.cost_usd, 0.0024);
  EXPECT_EQ(f.loop.now(), 2200 * kMillisecond);
}

TEST(CapacityProviderTest, ATimedOutLlmCallBillsThePromptBeforeTheFirstTokenAndNothingWhileQueued) {
  // One slot. A (deadline 150 ms) is in service from 0: it bills its prompt only, the
  // first token being due at 200 ms: 1000 * 2 / 1e6 = 0.002 USD. B, queued behind A and
  // timing out at 150 ms too, never reached the model: nothing billed.
  LlmFixture f;
  Request request;
  request.prompt_tokens = 1000;
  std::vector<std::vector<Finished>> outs(2);
  std::exception_ptr error;
  for (auto& out : outs) spawn(call_at(f.loop, *f.capacity, 0, 150 * kMillisecond, out, request), &error);
  f.loop.run();
  ASSERT_FALSE(error);
  ASSERT_EQ(outs[0].size(), 1U);
  ASSERT_EQ(outs[1].size(), 1U);
  EXPECT_EQ(outs[0][0].response.transport, Transport::timeout);
  EXPECT_EQ(outs[0][0].response.output_tokens, 0);
  EXPECT_DOUBLE_EQ(outs[0][0].response.cost_usd, 0.002);
  EXPECT_EQ(outs[1][0].response.transport, Transport::timeout);
  EXPECT_EQ(outs[1][0].response.input_tokens, 0);
  EXPECT_EQ(outs[1][0].response.cost_usd, 0);
}

}  // namespace
}  // namespace squall

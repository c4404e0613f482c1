#include "mocks/chaos/chaos_provider.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "engine/classify.hpp"
#include "sim/event_loop.hpp"
#include "tests/mocks/support.hpp"

namespace squall {
namespace {

using testing::FakeProvider;
using testing::run_call;
using testing::run_calls;

constexpr LatencyConfig constant(Nanos d) { return {LatencyShape::constant, d, 0, 0, 0}; }

FaultConfig fault(FaultKind kind, double probability) {
  FaultConfig f;
  f.kind = kind;
  f.probability = probability;
  return f;
}

// A decorator around a FakeProvider (10 ms) whose faulty answers take 100 ms by default.
struct Fixture {
  explicit Fixture(std::vector<FaultConfig> faults, Rng& rng, Body body = Body::search_results) {
    auto fake = std::make_unique<FakeProvider>(loop, loop, 10 * kMillisecond);
    inner = fake.get();
    chaos = std::make_unique<ChaosProvider>(std::move(fake), std::move(faults), constant(100 * kMillisecond), body,
                                            loop, loop, rng);
  }
  EventLoop loop;
  FakeProvider* inner = nullptr;
  std::unique_ptr<ChaosProvider> chaos;
};

bool from_inner(const testing::Finished& f) { return f.response.output_tokens == 7; }

TEST(ChaosProviderTest, CumulativeProbabilitiesGiveEachFaultItsShare) {
  // p = 0.2 and 0.3 over n = 20000 calls: expected 4000, 6000 and 10000 clean; standard
  // errors sqrt(n p (1 - p)) = 56.6, 64.8 and 70.7.
  Xoshiro256 rng(2024);
  Fixture f({fault(FaultKind::server_error, 0.2), fault(FaultKind::rate_limited, 0.3)}, rng);
  constexpr int n = 20'000;
  const auto calls = run_calls(f.loop, *f.chaos, n);
  const auto& injected = f.chaos->injected();
  const auto expect_share = [](double count, double p) {
    EXPECT_NEAR(count, n * p, 4 * std::sqrt(n * p * (1 - p))) << "p = " << p;
  };
  expect_share(static_cast<double>(injected[index_of(FaultKind::server_error)]), 0.2);
  expect_share(static_cast<double>(injected[index_of(FaultKind::rate_limited)]), 0.3);
  expect_share(f.inner->calls(), 0.5);
  EXPECT_EQ(injected[index_of(FaultKind::server_error)] + injected[index_of(FaultKind::rate_limited)] +
                static_cast<std::uint64_t>(f.inner->calls()),
            static_cast<std::uint64_t>(n));
  EXPECT_EQ(f.chaos->calls(), static_cast<std::uint64_t>(n));
  int status_500 = 0;
  for (const auto& c : calls) status_500 += c.response.status == 500 ? 1 : 0;
  EXPECT_EQ(static_cast<std::uint64_t>(status_500), injected[index_of(FaultKind::server_error)]);
}

TEST(ChaosProviderTest, ProbabilitiesOverOneLeaveTheRemainderToLaterFaults) {
  // 0.7 then 0.6: the second gets 1 - 0.7 = 0.3, nothing is left for the inner provider.
  Xoshiro256 rng(99);
  Fixture f({fault(FaultKind::overloaded, 0.7), fault(FaultKind::empty, 0.6)}, rng);
  constexpr int n = 10'000;
  run_calls(f.loop, *f.chaos, n);
  const auto& injected = f.chaos->injected();
  EXPECT_NEAR(static_cast<double>(injected[index_of(FaultKind::overloaded)]), n * 0.7, 4 * std::sqrt(n * 0.21));
  EXPECT_NEAR(static_cast<double>(injected[index_of(FaultKind::empty)]), n * 0.3, 4 * std::sqrt(n * 0.21));
  EXPECT_EQ(f.inner->calls(), 0);
}

TEST(ChaosProviderTest, DrawPicksTheFaultWhoseCumulativeSumExceedsIt) {
  // u = 0.25: 0.25 >= 0.2 (server_error's sum), 0.25 < 0.5 (rate_limited's): rate_limited.
  FixedRng rng = FixedRng::at_fraction(0.25);
  Fixture f({fault(FaultKind::server_error, 0.2), fault(FaultKind::rate_limited, 0.3)}, rng);
  EXPECT_EQ(run_call(f.loop, *f.chaos).response.status, 429);
  // u = 0.5 is not below 0.5: no fault.
  FixedRng half = FixedRng::at_fraction(0.5);
  Fixture g({fault(FaultKind::server_error, 0.2), fault(FaultKind::rate_limited, 0.3)}, half);
  EXPECT_TRUE(from_inner(run_call(g.loop, *g.chaos)));
}

TEST(ChaosProviderTest, TimeWindowIsHalfOpen) {
  // One call per second at t = 0, 1, ..., 29 s; the fault covers [10 s, 20 s).
  Xoshiro256 rng(1);
  FaultConfig f503 = fault(FaultKind::overloaded, 1.0);
  f503.from = seconds(10);
  f503.to = seconds(20);
  f503.status = 503;
  Fixture f({f503}, rng);
  const auto calls = run_calls(f.loop, *f.chaos, 30, 0, kSecond);
  for (int i = 0; i < 30; ++i) {
    const bool inside = i >= 10 && i < 20;
    EXPECT_EQ(calls[i].response.status, inside ? 503 : 200) << "call at " << i << " s";
  }
  EXPECT_EQ(f.chaos->injected()[index_of(FaultKind::overloaded)], 10U);
}

TEST(ChaosProviderTest, ScriptedCallsGetTheirFaultAndAreCounted) {
  // "Calls 3-7 return 429 with Retry-After: 20".
  Xoshiro256 rng(1);
  FaultConfig scripted = fault(FaultKind::rate_limited, 1.0);
  scripted.first_call = 3;
  scripted.last_call = 7;
  scripted.retry_after = "20";
  Fixture f({scripted}, rng);
  const auto calls = run_calls(f.loop, *f.chaos, 10);
  for (int i = 0; i < 10; ++i) {
    const int number = i + 1;
    const bool scripted_call = number >= 3 && number <= 7;
    EXPECT_EQ(calls[i].response.status, scripted_call ? 429 : 200) << "call " << number;
    EXPECT_EQ(calls[i].response.details().retry_after, scripted_call ? "20" : "") << "call " << number;
  }
  EXPECT_EQ(f.chaos->injected()[index_of(FaultKind::rate_limited)], 5U);
  EXPECT_EQ(f.inner->calls(), 5);
}

TEST(ChaosProviderTest, RetryAfterIsPassedVerbatim) {
  for (const std::string value : {"0.5", "Wed, 21 Oct 2015 07:28:00 GMT", "soon"}) {
    Xoshiro256 rng(1);
    FaultConfig limited = fault(FaultKind::rate_limited, 1.0);
    limited.retry_after = value;
    Fixture f({limited}, rng);
    const auto done = run_call(f.loop, *f.chaos);
    EXPECT_EQ(done.response.status, 429);
    EXPECT_EQ(done.response.details().retry_after, value);
    EXPECT_EQ(classify(done.response), OutcomeKind::rate_limited);
  }
  Xoshiro256 rng(1);
  Fixture bare({fault(FaultKind::rate_limited, 1.0)}, rng);
  EXPECT_EQ(run_call(bare.loop, *bare.chaos).response.details().retry_after, "");
}

TEST(ChaosProviderTest, TimeoutReturnsExactlyAtTheDeadline) {
  Xoshiro256 rng(1);
  Fixture f({fault(FaultKind::timeout, 1.0)}, rng);
  CallOptions options;
  options.deadline = 3 * kSecond;
  const auto done = run_call(f.loop, *f.chaos, {}, options);
  EXPECT_EQ(done.at, 3 * kSecond);
  EXPECT_EQ(done.response.transport, Transport::timeout);
  EXPECT_EQ(classify(done.response), OutcomeKind::timeout);
  EXPECT_EQ(f.inner->calls(), 0);
  EXPECT_EQ(f.chaos->injected()[index_of(FaultKind::timeout)], 1U);
}

TEST(ChaosProviderTest, TimeoutWithoutADeadlineEndsAtTheHangCap) {
  Xoshiro256 rng(1);
  Fixture f({fault(FaultKind::timeout, 1.0)}, rng);
  const auto done = run_call(f.loop, *f.chaos);
  EXPECT_EQ(done.at, kDefaultHangCap);
  EXPECT_EQ(done.at, 10 * kMinute);
  EXPECT_EQ(done.response.transport, Transport::timeout);
}

TEST(ChaosProviderTest, ATimeoutsLatencyIsWhenTheServerClosesTheSilentConnection) {
  Xoshiro256 rng(1);
  FaultConfig idle = fault(FaultKind::timeout, 1.0);
  idle.latency = constant(90 * kSecond);  // a load balancer's idle timeout
  Fixture f({idle}, rng);
  CallOptions options;
  options.deadline = 2 * kMinute;
  const auto done = run_call(f.loop, *f.chaos, {}, options);
  EXPECT_EQ(done.at, 90 * kSecond);
  EXPECT_EQ(classify(done.response), OutcomeKind::timeout);
  Fixture g({idle}, rng);
  options.deadline = 30 * kSecond;  // the client gives up first
  EXPECT_EQ(run_call(g.loop, *g.chaos, {}, options).at, 30 * kSecond);
  Fixture h({idle}, rng);  // no deadline: the latency, not the 10 minute cap
  EXPECT_EQ(run_call(h.loop, *h.chaos).at, 90 * kSecond);
}

TEST(ChaosProviderTest, FaultyAnswersTakeTheProviderLatencyUnlessOverridden) {
  Xoshiro256 rng(1);
  FaultConfig slow = fault(FaultKind::server_error, 1.0);
  slow.latency = constant(300 * kMillisecond);
  Fixture f({slow}, rng);
  EXPECT_EQ(run_call(f.loop, *f.chaos).at, 300 * kMillisecond);
  Fixture g({fault(FaultKind::server_error, 1.0)}, rng);
  EXPECT_EQ(run_call(g.loop, *g.chaos).at, 100 * kMillisecond);  // the provider's 100 ms
}

TEST(ChaosProviderTest, SlowFaultyAnswerTimesOutAtTheDeadlineAndStillCounts) {
  Xoshiro256 rng(1);
  FaultConfig slow = fault(FaultKind::server_error, 1.0);
  slow.latency = constant(5 * kSecond);
  Fixture f({slow}, rng);
  CallOptions options;
  options.deadline = 2 * kSecond;
  const auto done = run_call(f.loop, *f.chaos, {}, options);
  EXPECT_EQ(done.at, 2 * kSecond);
  EXPECT_EQ(done.response.transport, Transport::timeout);
  EXPECT_EQ(f.chaos->injected()[index_of(FaultKind::server_error)], 1U);
}

TEST(ChaosProviderTest, StatusDefaultsAndOverrides) {
  Xoshiro256 rng(1);
  Fixture overloaded({fault(FaultKind::overloaded, 1.0)}, rng);
  EXPECT_EQ(run_call(overloaded.loop, *overloaded.chaos).response.status, 529);
  Fixture server({fault(FaultKind::server_error, 1.0)}, rng);
  const auto done = run_call(server.loop, *server.chaos);
  EXPECT_EQ(done.response.status, 500);
  EXPECT_EQ(classify(done.response), OutcomeKind::server_error);
  FaultConfig bad_gateway = fault(FaultKind::server_error, 1.0);
  bad_gateway.status = 502;
  Fixture gateway({bad_gateway}, rng);
  EXPECT_EQ(run_call(gateway.loop, *gateway.chaos).response.status, 502);
}

TEST(ChaosProviderTest, EmptyAnswerHasTheProviderBodyKind) {
  Xoshiro256 rng(1);
  Fixture search({fault(FaultKind::empty, 1.0)}, rng, Body::search_results);
  const auto hits = run_call(search.loop, *search.chaos);
  EXPECT_EQ(hits.response.body, Body::search_results);
  EXPECT_EQ(classify(hits.response), OutcomeKind::empty);
  Fixture llm({fault(FaultKind::empty, 1.0)}, rng, Body::completion);
  const auto completion = run_call(llm.loop, *llm.chaos);
  EXPECT_EQ(completion.response.status, 200);
  EXPECT_EQ(completion.response.body, Body::completion);
  EXPECT_EQ(completion.response.output_tokens, 0);
  EXPECT_EQ(classify(completion.response), OutcomeKind::empty);
}

TEST(ChaosProviderTest, CleanCallsReachTheInnerProvider) {
  Xoshiro256 rng(1);
  Fixture f({fault(FaultKind::server_error, 0.0)}, rng);
  const auto done = run_call(f.loop, *f.chaos);
  EXPECT_TRUE(from_inner(done));
  EXPECT_EQ(done.at, 10 * kMillisecond);
  EXPECT_EQ(f.chaos->name(), "fake");
  EXPECT_EQ(f.chaos->injected(), FaultCounts{});
}

TEST(ChaosProviderTest, OneDrawPerCallEvenWithoutActiveFaults) {
  // The fault's window opens after the first call: the second call's draw must be the
  // stream's second value either way, so it is injected exactly when a decorator whose
  // fault was always active would inject it.
  FaultConfig later = fault(FaultKind::server_error, 0.5);
  later.from = kSecond;
  Xoshiro256 rng_a(77);
  Fixture a({later}, rng_a);
  Xoshiro256 rng_b(77);
  Fixture b({fault(FaultKind::server_error, 0.5)}, rng_b);
  const auto calls_a = run_calls(a.loop, *a.chaos, 40, kSecond, kSecond);
  const auto calls_b = run_calls(b.loop, *b.chaos, 40, kSecond, kSecond);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(calls_a[i].response.status, calls_b[i].response.status);
  // With the first call at t = 0 instead, window a is closed for it but it still draws.
  Xoshiro256 rng_c(77);
  Fixture c({later}, rng_c);
  const auto calls_c = run_calls(c.loop, *c.chaos, 40, 0, kSecond);
  EXPECT_EQ(calls_c[0].response.status, 200);
  for (int i = 1; i < 40; ++i) EXPECT_EQ(calls_c[i].response.status, calls_b[i].response.status) << i;
}

TEST(ChaosProviderTest, CancelledHangReturnsAtTheCancelTime) {
  // An injected hang would last until the deadline at 10 s; the caller cancels at 3 s.
  FixedRng rng = FixedRng::at_fraction(0.0);
  Fixture f({fault(FaultKind::timeout, 1.0)}, rng);
  CallOptions options;
  options.deadline = 10 * kSecond;
  const auto done = testing::run_call_cancelled_at(f.loop, *f.chaos, 3 * kSecond, {}, options);
  EXPECT_EQ(done.at, 3 * kSecond);
  EXPECT_EQ(done.response.transport, Transport::cancelled);
  EXPECT_EQ(classify(done.response), OutcomeKind::cancelled);
  EXPECT_EQ(f.chaos->injected()[index_of(FaultKind::timeout)], 1U);
  EXPECT_TRUE(f.loop.empty());
}

TEST(ChaosProviderTest, CancelledFaultyAnswerReturnsAtTheCancelTime) {
  // The 500 would come after the fault latency, 100 ms; the caller cancels at 40 ms.
  FixedRng rng = FixedRng::at_fraction(0.0);
  Fixture f({fault(FaultKind::server_error, 1.0)}, rng);
  const auto done = testing::run_call_cancelled_at(f.loop, *f.chaos, 40 * kMillisecond);
  EXPECT_EQ(done.at, 40 * kMillisecond);
  EXPECT_EQ(done.response.transport, Transport::cancelled);
  EXPECT_EQ(done.response.status, 0);
  EXPECT_EQ(f.chaos->injected()[index_of(FaultKind::server_error)], 1U);
}

TEST(ChaosProviderTest, CallAlreadyCancelledIsPassedOnWithoutANumberOrADraw) {
  Xoshiro256 rng(3);
  Xoshiro256 twin(3);
  Fixture f({fault(FaultKind::server_error, 1.0)}, rng);
  CancellationSource source;
  source.cancel();
  CallOptions options;
  options.cancellation = source.token();
  run_call(f.loop, *f.chaos, {}, options);
  EXPECT_EQ(f.chaos->calls(), 0U);
  EXPECT_EQ(f.chaos->injected()[index_of(FaultKind::server_error)], 0U);
  EXPECT_EQ(f.inner->calls(), 1);  // the inner provider says it was never sent
  EXPECT_EQ(rng.next_u64(), twin.next_u64());
}

}  // namespace
}  // namespace squall

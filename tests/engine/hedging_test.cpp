// hedging: exact virtual-time timelines of hedges, winners, cancelled losers and the
// budget; and the analytic check that a hedged call's latency is the minimum of the
// attempts' (delay-shifted) latencies.
#include "engine/strategies/hedging.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/provider_registry.hpp"
#include "engine/runtime/cancellable_sleep.hpp"
#include "engine/runtime/rng.hpp"
#include "engine/strategies/budget.hpp"
#include "engine/strategies/refused.hpp"
#include "engine/strategies/retry_budget.hpp"
#include "tests/engine/test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;

constexpr Nanos kMs = kMillisecond;

// A provider whose call i takes latency(i) and answers status(i); it observes its
// cancellation token like the mocks: a cancelled call returns at once, billed for the
// time it ran at 1e-3 USD and 1 output token per millisecond (an LLM's partial output).
// A finished call bills 1 USD.
class CancellableProvider final : public Provider {
 public:
  using Script = std::function<std::pair<Nanos, int>(std::size_t call_index)>;
  // `retry_after`: the Retry-After of its error answers (none when empty).
  CancellableProvider(EventLoop& loop, Script script, std::string_view retry_after = {})
      : loop_(loop), script_(std::move(script)), retry_after_(retry_after) {}
  std::string_view name() const override { return "hedged"; }

  Task<Response> call(Request request, CallOptions options) override {
    const TimePoint started = loop_.now();
    starts_.push_back(started);
    queries_.emplace_back(request.query);
    const std::size_t index = starts_.size() - 1;
    const std::pair<Nanos, int> scripted = script_(index);
    const Nanos latency = scripted.first;
    const int code = scripted.second;
    const TimePoint due = std::min(add_saturating(started, latency), options.deadline);
    const Wake wake = co_await sleep_until(loop_, due, options.cancellation);
    const std::string_view retry_after =
        index < retry_after_by_call_.size() ? retry_after_by_call_[index] : retry_after_;
    Response r = code == 200 ? test::results() : test::status(code, retry_after);
    const Nanos ran = loop_.now() - started;
    if (wake == Wake::cancelled) {
      r = Response{};
      r.transport = Transport::cancelled;
      r.status = 0;
      r.output_tokens = ran / kMs;
      r.cost_usd = 1e-3 * static_cast<double>(ran / kMs);
    } else if (due < add_saturating(started, latency)) {
      r = Response{};
      r.transport = Transport::timeout;
      r.status = 0;
    } else {
      r.cost_usd = 1;
    }
    co_return r;
  }
  const std::vector<TimePoint>& starts() const { return starts_; }
  const std::vector<std::string>& queries() const { return queries_; }
  // The Retry-After of call i's error answer, for the calls listed (literals).
  void set_retry_after_by_call(std::vector<std::string_view> values) { retry_after_by_call_ = std::move(values); }

 private:
  std::vector<std::string_view> retry_after_by_call_;
  EventLoop& loop_;
  Script script_;
  std::string_view retry_after_;
  std::vector<TimePoint> starts_;
  std::vector<std::string> queries_;
};

HedgingConfig hedging(std::int32_t hedges, Nanos delay, std::optional<double> budget = std::nullopt) {
  HedgingConfig c;
  c.max_hedged_attempts = hedges;
  c.delay = delay;
  c.budget = budget;
  return c;
}

// Latencies by call index; every call answers 200.
CancellableProvider::Script latencies(std::vector<Nanos> ms) {
  return [ms = std::move(ms)](std::size_t i) { return std::pair{ms.at(std::min(i, ms.size() - 1)), 200}; };
}

TEST(HedgingTest, DefaultsArePollys) {
  const HedgingConfig c;
  EXPECT_EQ(c.max_hedged_attempts, 1);
  EXPECT_EQ(c.delay, 2 * kSecond);
  EXPECT_FALSE(c.budget.has_value());
}

TEST(HedgingTest, FastPrimarySendsNoHedge) {
  Harness h;
  CancellableProvider provider(h.loop, latencies({100 * kMs}));
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(1, 200 * kMs), h.env, "web"));
  Call call;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(call.finished, 100 * kMs);
  EXPECT_EQ(provider.starts(), (std::vector<TimePoint>{0}));
  EXPECT_EQ(h.log.hedges, (std::vector<std::string>{"0ms primary #0 $0"}));
}

TEST(HedgingTest, SlowPrimaryLosesToTheHedgeAndIsCancelledWithItsCostKept) {
  // Primary 1 s, hedge 100 ms sent at the 200 ms delay: the hedge answers at 300 ms and
  // the primary, cancelled then, bills its 300 ms: 0.3 USD. Task spend: 1 + 0.3 USD.
  Harness h;
  CancellableProvider provider(h.loop, latencies({1000 * kMs, 100 * kMs}));
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(1, 200 * kMs), h.env, "web"));
  Call call;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(call.finished, 300 * kMs);
  EXPECT_EQ(provider.starts(), (std::vector<TimePoint>{0, 200 * kMs}));
  EXPECT_EQ(h.log.hedges, (std::vector<std::string>{"0ms primary #0 $0", "200ms launched #1 $0",
                                                    "300ms loser_cancelled #0 $0.3", "300ms won #1 $0"}));
  EXPECT_DOUBLE_EQ(call.task.cost_spent_usd, 1.3);
  EXPECT_EQ(call.task.tokens_spent, 300 + 0);
  ASSERT_EQ(h.log.attempts.size(), 2u);
  EXPECT_EQ(h.log.attempts[0].attempt, 2);  // the hedge, numbered after the primary
  EXPECT_EQ(h.log.attempts[1].attempt, 1);
  EXPECT_EQ(h.log.attempts[1].kind, OutcomeKind::cancelled);
  EXPECT_EQ(call.ctx.attempts, 2);
}

// Changes the query while its attempt runs, to a text in its own frame, and restores it
// before returning, as rewrite_query and simplify_query do.
class QueryInOwnFrame final : public Strategy {
 public:
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override {
    const std::string changed = "rewritten " + std::string(request.query);
    const std::string_view given = request.query;
    request.query = changed;
    Outcome outcome = co_await next(ctx, request);
    request.query = given;
    co_return outcome;
  }
};

TEST(HedgingTest, AHedgeResendsTheCallersRequestNotTheOneAnAttemptChanged) {
  // The primary's request views "rewritten acme revenue" in the inner strategy's frame when
  // the hedge goes at 200 ms; the hedge must copy the caller's request, whose text outlives
  // both attempts, and not the primary's (whose text dies with the primary's frame: the
  // fuzzed runs of tests/sim/whole_run_property_test.cpp read it after it was freed).
  Harness h;
  CancellableProvider provider(h.loop, latencies({1000 * kMs, 100 * kMs}));
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(1, 200 * kMs), h.env, "web"),
                               std::make_unique<QueryInOwnFrame>());
  Call call;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.queries(), (std::vector<std::string>{"rewritten acme revenue", "rewritten acme revenue"}));
  EXPECT_EQ(call.request.query, "acme revenue");
}

TEST(HedgingTest, HandledFailureSendsTheNextHedgeAtOnce) {
  // The primary answers 503 at 50 ms: the hedge goes then, not at the 200 ms delay.
  Harness h;
  CancellableProvider provider(h.loop, [](std::size_t i) {
    return i == 0 ? std::pair{50 * kMs, 503} : std::pair{100 * kMs, 200};
  });
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(1, 200 * kMs), h.env, "web"));
  Call call;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.starts(), (std::vector<TimePoint>{0, 50 * kMs}));
  EXPECT_EQ(call.finished, 150 * kMs);
  EXPECT_EQ(h.log.hedges, (std::vector<std::string>{"0ms primary #0 $0", "50ms launched #1 $0", "150ms won #1 $0"}));
}

TEST(HedgingTest, AFailureOfAnEarlierAttemptSendsTheHedgeInLineAtOnce) {
  // Hedge 1 goes at the 200 ms delay; the primary answers 503 at 300 ms while hedge 1
  // runs: hedge 2 goes then (gRFC A6: the next hedged request in line is sent at once),
  // not at 400 ms, and hedge 3 follows it by the delay, at 500 ms.
  Harness h;
  CancellableProvider provider(h.loop, [](std::size_t i) {
    return i == 0 ? std::pair{300 * kMs, 503} : std::pair{1000 * kMs, 200};
  });
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(3, 200 * kMs), h.env, "web"));
  Call call;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.starts(), (std::vector<TimePoint>{0, 200 * kMs, 300 * kMs, 500 * kMs}));
  EXPECT_EQ(call.finished, 1200 * kMs);  // hedge 1's answer
}

TEST(HedgingTest, AnEarlierAttemptsRetryAfterHoldsTheHedgeInLine) {
  // The primary's 429 with Retry-After: 1 at 300 ms, while hedge 1 runs, holds hedge 2
  // until 1.3 s.
  Harness h;
  CancellableProvider provider(
      h.loop,
      [](std::size_t i) {
        return i == 0 ? std::pair{300 * kMs, 429} : std::pair{5000 * kMs, 200};
      },
      "1");
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(2, 200 * kMs), h.env, "web"));
  Call call;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.starts(), (std::vector<TimePoint>{0, 200 * kMs, 1300 * kMs}));
}

TEST(HedgingTest, ALaterLongerRetryAfterHoldsTheHedgeAlreadyHeld) {
  // Hedge 1 (sent at 300 ms) fails at 400 ms with Retry-After 1 s: hedge 2 is held until
  // 1.4 s. The primary fails at 1 s with Retry-After 3 s: hedge 2 is held until 4 s, and
  // hedge 3 follows it by the delay, at 4.3 s.
  Harness h;
  CancellableProvider provider(h.loop, [](std::size_t i) {
    if (i == 0) return std::pair{1000 * kMs, 429};
    if (i == 1) return std::pair{100 * kMs, 429};
    return std::pair{10000 * kMs, 200};
  });
  const std::vector<std::string_view> retry_after{"3", "1"};
  provider.set_retry_after_by_call(retry_after);
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(3, 300 * kMs), h.env, "web"));
  Call call;
  test::run(h, *p, call);
  EXPECT_EQ(provider.starts(), (std::vector<TimePoint>{0, 300 * kMs, 4000 * kMs, 4300 * kMs}));
}

TEST(HedgingTest, FailuresAtOneInstantMoveTheHedgeInLineOnce) {
  // The primary and hedge 1 both fail at 500 ms: hedge 2 goes then, once; hedge 3 follows
  // by the delay (grpc-java reschedules its one scheduled hedge).
  Harness h;
  CancellableProvider provider(h.loop, [](std::size_t i) {
    if (i == 0) return std::pair{500 * kMs, 500};
    if (i == 1) return std::pair{200 * kMs, 500};
    return std::pair{10000 * kMs, 200};
  });
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(3, 300 * kMs), h.env, "web"));
  Call call;
  test::run(h, *p, call);
  EXPECT_EQ(provider.starts(), (std::vector<TimePoint>{0, 300 * kMs, 500 * kMs, 800 * kMs}));
}

TEST(HedgingTest, PermanentFailureWinsAndCancelsTheHedges) {
  // A 400 is not handled: it is the answer, like a success (gRPC's fatal status codes).
  Harness h;
  CancellableProvider provider(h.loop, [](std::size_t i) {
    return i == 0 ? std::pair{300 * kMs, 400} : std::pair{1000 * kMs, 200};
  });
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(1, 200 * kMs), h.env, "web"));
  Call call;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::bad_request);
  EXPECT_EQ(call.finished, 300 * kMs);
  EXPECT_EQ(h.log.hedges,
            (std::vector<std::string>{"0ms primary #0 $0", "200ms launched #1 $0", "300ms loser_cancelled #1 $0.1"}));
}

TEST(HedgingTest, WhenEveryAttemptFailsTheLastToEndGivesTheOutcome) {
  Harness h;
  CancellableProvider provider(h.loop, [](std::size_t i) {
    return i == 0 ? std::pair{500 * kMs, 503} : std::pair{100 * kMs, 429};
  });
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(1, 200 * kMs), h.env, "web"));
  Call call;
  // Hedge at 200 ms ends 429 at 300 ms and waits (it is the last hedge, so it ends the
  // level); the primary's 503 at 500 ms is the last to end.
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::overloaded);
  EXPECT_EQ(call.finished, 500 * kMs);
  EXPECT_EQ(provider.starts(), (std::vector<TimePoint>{0, 200 * kMs}));
}

TEST(HedgingTest, HedgesFollowEachOtherByTheDelay) {
  Harness h;
  CancellableProvider provider(h.loop, latencies({1000 * kMs, 1000 * kMs, 50 * kMs}));
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(2, 200 * kMs), h.env, "web"));
  Call call;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.starts(), (std::vector<TimePoint>{0, 200 * kMs, 400 * kMs}));
  EXPECT_EQ(call.finished, 450 * kMs);
  EXPECT_EQ(h.log.hedges, (std::vector<std::string>{"0ms primary #0 $0", "200ms launched #1 $0", "400ms launched #2 $0",
                                                    "450ms loser_cancelled #1 $0.25", "450ms loser_cancelled #0 $0.45",
                                                    "450ms won #2 $0"}));
  EXPECT_EQ(call.ctx.attempts, 3);
}

TEST(HedgingTest, BudgetCapsHedgedAttemptsAsAFractionOfPrimaries) {
  // Budget 0.5: a hedge may go while hedged + 1 <= 0.5 * primaries, so calls 2 and 4 of
  // four slow calls in a row hedge, calls 1 and 3 are refused.
  Harness h;
  CancellableProvider provider(h.loop, latencies({1000 * kMs}));
  auto strategy = std::make_unique<HedgingStrategy>(hedging(1, 200 * kMs, 0.5), h.env, "web");
  const HedgingStrategy* hs = strategy.get();
  auto p = test::make_pipeline(provider, h.env, std::move(strategy));
  std::vector<std::string> per_call;
  for (int i = 0; i < 4; ++i) {
    Call call;
    h.log.hedges.clear();
    EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
    per_call.push_back(h.log.hedges.at(1).substr(h.log.hedges.at(1).find(' ') + 1));
  }
  EXPECT_EQ(per_call, (std::vector<std::string>{"budget_denied #1 $0", "launched #1 $0", "budget_denied #1 $0",
                                                "launched #1 $0"}));
  EXPECT_EQ(hs->primaries(), 4u);
  EXPECT_EQ(hs->hedged(), 2u);
}

TEST(HedgingTest, NoHedgeAtOrAfterTheDeadline) {
  Harness h;
  CancellableProvider provider(h.loop, latencies({1000 * kMs}));
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(1, 200 * kMs), h.env, "web"));
  Call call;
  call.task.deadline = 150 * kMs;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::timeout);
  EXPECT_EQ(call.finished, 150 * kMs);
  EXPECT_EQ(provider.starts(), (std::vector<TimePoint>{0}));
}

// The analytic check (Dean and Barroso's model): with attempt latencies X1, X2 drawn
// independently from one distribution F, a call hedged after delay d takes
// T = min(X1, d + X2), so P(T <= t) = 1 - (1 - F(t)) (1 - F(t - d)), F(t - d) = 0 for t < d.
// With exponential latencies of mean m: P(T <= t) = 1 - exp(-t/m) exp(-max(0, t - d)/m).
// The empirical CDF of n hedged calls at a fixed seed must be within the
// Kolmogorov-Smirnov critical value 1.63 / sqrt(n) of it (the 1% level); the check is
// deterministic (fixed seed) and independent of machine speed (virtual time).
double ks_statistic(std::vector<double> samples, const std::function<double(double)>& cdf) {
  std::sort(samples.begin(), samples.end());
  const double n = static_cast<double>(samples.size());
  double d = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double f = cdf(samples[i]);
    d = std::max({d, static_cast<double>(i + 1) / n - f, f - static_cast<double>(i) / n});
  }
  return d;
}

std::vector<double> hedged_latencies_ms(Nanos delay, std::size_t n) {
  Harness h;
  Xoshiro256 rng(stream_seed(42, "hedging_test/latency"));
  constexpr double kMeanNs = 100.0 * kMs;
  CancellableProvider provider(h.loop, [&rng](std::size_t) {
    return std::pair{static_cast<Nanos>(std::llround(rng.exponential(kMeanNs))), 200};
  });
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(1, delay), h.env, "web"));
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i) {
    const TimePoint start = h.loop.now();
    Call call;
    test::run(h, *p, call);
    out.push_back(to_millis(call.finished - start));
  }
  return out;
}

TEST(HedgingTest, HedgedLatencyIsTheMinimumOfTwoDrawsWithoutDelay) {
  constexpr std::size_t kN = 20'000;
  const auto samples = hedged_latencies_ms(0, kN);
  const double d = ks_statistic(samples, [](double t) { return 1 - std::exp(-2 * t / 100.0); });
  EXPECT_LT(d, 1.63 / std::sqrt(static_cast<double>(kN))) << "KS statistic " << d;
}

TEST(HedgingTest, HedgedLatencyIsTheMinimumOfTheDrawAndDelayPlusADraw) {
  constexpr std::size_t kN = 20'000;
  constexpr double kDelayMs = 80;
  const auto samples = hedged_latencies_ms(80 * kMs, kN);
  const double d = ks_statistic(
      samples, [](double t) { return 1 - std::exp(-t / 100.0) * std::exp(-std::max(0.0, t - kDelayMs) / 100.0); });
  EXPECT_LT(d, 1.63 / std::sqrt(static_cast<double>(kN))) << "KS statistic " << d;
  // And the tail falls: the unhedged p99 of Exp(100 ms) is 460.5 ms; hedged, P(T > t) =
  // exp(-(2t - 80)/100) = 0.01 gives t = 270.3 ms.
  auto sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  const double p99 = sorted[kN * 99 / 100];
  EXPECT_NEAR(p99, 270.3, 15.0);
}

TEST(HedgingTest, AnExhaustedGrpcRetryThrottleRefusesTheHedge) {
  // gRFC A6: hedged RPCs are sent only while token_count > max_tokens / 2. A grpc
  // retry_budget of 3 tokens (3000 milli, threshold 1500) inside the hedging:
  //   call A at 0: the primary answers 503 at 50 ms (3000 -> 2000): 2000 > 1500, so the
  //     hedge goes at once, and answers 503 at 150 ms (-> 1000): both attempts drew on it;
  //   call B at 150 ms: the primary is slow (1 s); at the 200 ms delay, 350 ms, the count
  //     1000 <= 1500 refuses the hedge, and the primary answers alone at 1150 ms.
  Harness h;
  CancellableProvider provider(h.loop, [](std::size_t i) {
    return i == 0 ? std::pair{50 * kMs, 503} : i == 1 ? std::pair{100 * kMs, 503} : std::pair{1000 * kMs, 200};
  });
  RetryBudgetConfig grpc;
  grpc.mode = RetryBudgetMode::grpc;
  grpc.max_milli_tokens = 3000;
  auto budget = std::make_unique<RetryBudgetStrategy>(grpc, h.env);
  const RetryBudgetStrategy* rb = budget.get();
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(1, 200 * kMs), h.env, "web"),
                               std::move(budget));
  Call a;
  EXPECT_EQ(test::run(h, *p, a).kind, OutcomeKind::overloaded);
  EXPECT_EQ(rb->state().milli_tokens, 1000);
  Call b;
  EXPECT_EQ(test::run(h, *p, b).kind, OutcomeKind::success);
  EXPECT_EQ(b.finished, 1150 * kMs);
  EXPECT_EQ(provider.starts(), (std::vector<TimePoint>{0, 50 * kMs, 150 * kMs}));
  EXPECT_EQ(h.log.hedges, (std::vector<std::string>{"0ms primary #0 $0", "50ms launched #1 $0", "150ms primary #0 $0",
                                                    "350ms retry_budget_denied #1 $0"}));
  EXPECT_EQ(h.log.refusals, (std::vector<std::string>{"350ms grpc level=1000 limit=1500"}));
}

TEST(HedgingTest, AHedgeInFlightIsAnActiveRetryOfAnEnvoyBudget) {
  // Envoy: a hedge is a retry. budget_percent 0 and min_retry_concurrency 1 allow one
  // active retry. Two calls start at 0 with slow primaries (1 s): at 200 ms the first
  // call's hedge goes (0 active retries < 1) and is in flight when the second call's
  // hedge is due, which the budget refuses (1 active retry, limit 1).
  Harness h;
  CancellableProvider provider(h.loop, [](std::size_t i) {
    return i < 2 ? std::pair{1000 * kMs, 200} : std::pair{100 * kMs, 200};
  });
  RetryBudgetConfig envoy;
  envoy.budget_percent = 0;
  envoy.min_retry_concurrency = 1;
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(1, 200 * kMs), h.env, "web"),
                               std::make_unique<RetryBudgetStrategy>(envoy, h.env));
  Call first;
  Call second;
  std::exception_ptr error;
  test::start(h, *p, first, &error);
  test::start(h, *p, second, &error);
  test::drain(h);
  if (error) std::rethrow_exception(error);
  EXPECT_EQ(first.finished, 300 * kMs);    // the hedge won
  EXPECT_EQ(second.finished, 1000 * kMs);  // the primary alone
  EXPECT_EQ(provider.starts(), (std::vector<TimePoint>{0, 0, 200 * kMs}));
  EXPECT_EQ(h.log.refusals, (std::vector<std::string>{"200ms envoy level=1 limit=1"}));
}

// A registry of LLM providers over the harness, and a tool pipeline [hedging] ending in it.
struct Registry {
  explicit Registry(Harness& h) : registry(EngineEnv{h.loop, h.loop, h.log}) {}
  ProviderId add(std::string name, Provider& p, std::int64_t window = 128'000,
                 std::vector<std::unique_ptr<Strategy>> stack = {}, bool idempotent = true) {
    ProviderDescriptor d;
    d.name = std::move(name);
    d.kind = ProviderKind::llm;
    d.context_window = window;
    d.max_output_tokens = 16'384;
    d.idempotent = idempotent;
    return registry.add(std::move(d), p, std::move(stack));
  }
  // A provider with side effects (an e-mail, a payment): `idempotent: false`.
  ProviderId add_non_idempotent(std::string name, Provider& p) { return add(std::move(name), p, 128'000, {}, false); }
  // A provider whose stack refuses every call locally with `kind`, without calling.
  ProviderId add_refusing(std::string name, Provider& p, OutcomeKind kind);
  std::unique_ptr<Pipeline> tool(HedgingConfig config) {
    std::vector<std::unique_ptr<Strategy>> chain;
    chain.push_back(std::make_unique<HedgingStrategy>(std::move(config), registry.env(), "answer"));
    return std::make_unique<Pipeline>(registry, std::move(chain));
  }
  ProviderRegistry registry;
};

// A provider stack's strategy that refuses every call without calling (an open breaker, a
// full bulkhead...).
class Refuse final : public Strategy {
 public:
  explicit Refuse(OutcomeKind kind) : kind_(kind) {}
  Task<Outcome> execute(CallContext&, Request&, Next) override { co_return refused(kind_); }

 private:
  OutcomeKind kind_;
};

ProviderId Registry::add_refusing(std::string name, Provider& p, OutcomeKind kind) {
  std::vector<std::unique_ptr<Strategy>> stack;
  stack.push_back(std::make_unique<Refuse>(kind));
  return add(std::move(name), p, 128'000, std::move(stack));
}

TEST(HedgingTest, AHedgeGoesToTheListedProviderAndTheLoserIsCancelled) {
  // gpt (the tool's provider) takes 1 s, claude 100 ms. The hedge goes to claude at the
  // 200 ms delay and answers at 300 ms; gpt's primary, cancelled then, bills its 300 ms
  // (0.3 USD). The success came from another provider: the task is degraded.
  Harness h;
  CancellableProvider gpt(h.loop, latencies({1000 * kMs}));
  CancellableProvider claude(h.loop, latencies({100 * kMs}));
  Registry r(h);
  const ProviderId primary = r.add("gpt", gpt);
  r.add("claude", claude);
  HedgingConfig config = hedging(1, 200 * kMs);
  config.providers = {"claude"};
  auto p = r.tool(config);
  Call call;
  call.ctx.provider = primary;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(call.finished, 300 * kMs);
  EXPECT_EQ(gpt.starts(), (std::vector<TimePoint>{0}));
  EXPECT_EQ(claude.starts(), (std::vector<TimePoint>{200 * kMs}));
  EXPECT_EQ(h.log.hedge_providers, (std::vector<std::string>{"primary #0 gpt", "launched #1 claude",
                                                             "loser_cancelled #0 gpt", "won #1 claude"}));
  EXPECT_EQ(h.log.hedges[2], "300ms loser_cancelled #0 $0.3");
  EXPECT_DOUBLE_EQ(call.task.cost_spent_usd, 1.3);
  EXPECT_TRUE(call.task.has(Degradation::fallback_provider));
  ASSERT_EQ(h.log.attempts.size(), 2U);
  EXPECT_EQ(h.log.attempts[0].provider, "claude");
  EXPECT_EQ(h.log.attempts[1].provider, "gpt");
  EXPECT_EQ(call.ctx.provider, primary);
}

TEST(HedgingTest, HedgesCycleThroughTheListedProviders) {
  // Three hedges 100 ms apart over [claude, gpt], gpt being the tool's own provider: hedge
  // 1 to claude at 100 ms, 2 to gpt at 200 ms, 3 to claude at 300 ms. Every call takes 1 s:
  // the primary answers first, at 1 s, and the three hedges are cancelled then. A win on
  // the tool's own provider degrades nothing.
  Harness h;
  CancellableProvider gpt(h.loop, latencies({1000 * kMs}));
  CancellableProvider claude(h.loop, latencies({1000 * kMs}));
  Registry r(h);
  const ProviderId primary = r.add("gpt", gpt);
  r.add("claude", claude);
  HedgingConfig config = hedging(3, 100 * kMs);
  config.providers = {"claude", "gpt"};
  auto p = r.tool(config);
  Call call;
  call.ctx.provider = primary;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(call.finished, 1000 * kMs);
  EXPECT_EQ(gpt.starts(), (std::vector<TimePoint>{0, 200 * kMs}));
  EXPECT_EQ(claude.starts(), (std::vector<TimePoint>{100 * kMs, 300 * kMs}));
  std::vector<std::string> launched;
  for (const std::string& e : h.log.hedge_providers) {
    if (e.starts_with("launched") || e.starts_with("loser")) launched.push_back(e);
  }
  std::sort(launched.begin(), launched.end());
  EXPECT_EQ(launched, (std::vector<std::string>{"launched #1 claude", "launched #2 gpt", "launched #3 claude",
                                                "loser_cancelled #1 claude", "loser_cancelled #2 gpt",
                                                "loser_cancelled #3 claude"}));
  EXPECT_FALSE(call.task.has(Degradation::fallback_provider));
}

TEST(HedgingTest, NoHedgeToAProviderThatCannotFitThePrompt) {
  // claude's 4,000-token window cannot hold a 5,000-token prompt: the hedge due at 200 ms
  // is not sent, counted as unservable, and the primary answers at 1 s.
  Harness h;
  CancellableProvider gpt(h.loop, latencies({1000 * kMs}));
  CancellableProvider claude(h.loop, latencies({100 * kMs}));
  Registry r(h);
  const ProviderId primary = r.add("gpt", gpt);
  r.add("claude", claude, 4'000);
  HedgingConfig config = hedging(1, 200 * kMs);
  config.providers = {"claude"};
  auto p = r.tool(config);
  Call call;
  call.ctx.provider = primary;
  call.request.prompt_tokens = 5'000;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(call.finished, 1000 * kMs);
  EXPECT_TRUE(claude.starts().empty());
  EXPECT_EQ(h.log.hedge_providers, (std::vector<std::string>{"primary #0 gpt", "unservable #1 claude"}));
  EXPECT_EQ(h.log.hedges, (std::vector<std::string>{"0ms primary #0 $0", "200ms unservable #1 $0"}));
}

TEST(HedgingTest, NoHedgeWhileANonIdempotentRequestMayBeRunning) {
  // An e-mail send takes 1 s. At the 200 ms delay it may be under way: a hedge would send
  // the e-mail twice, so none is sent (engine/retry_safety.hpp), counted as not_idempotent.
  Harness h;
  CancellableProvider email(h.loop, latencies({1000 * kMs}));
  Registry r(h);
  const ProviderId id = r.add_non_idempotent("email", email);
  auto p = r.tool(hedging(2, 200 * kMs));
  Call call;
  call.ctx.provider = id;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(call.finished, 1000 * kMs);
  EXPECT_EQ(email.starts(), (std::vector<TimePoint>{0}));
  EXPECT_EQ(h.log.hedges, (std::vector<std::string>{"0ms primary #0 $0", "200ms not_idempotent #1 $0"}));
}

TEST(HedgingTest, ANonIdempotentRequestIsHedgedOnlyAfterAnOutcomeThatProvesItUnprocessed) {
  // A 500 may have come after the send: the call ends with it. A 429 proves the request
  // was refused unprocessed: the hedge goes at once, as a retry would.
  {
    Harness h;
    CancellableProvider email(h.loop, [](std::size_t) { return std::pair{100 * kMs, 500}; });
    Registry r(h);
    const ProviderId id = r.add_non_idempotent("email", email);
    auto p = r.tool(hedging(2, 200 * kMs));
    Call call;
    call.ctx.provider = id;
    EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::server_error);
    EXPECT_EQ(call.finished, 100 * kMs);
    EXPECT_EQ(email.starts(), (std::vector<TimePoint>{0}));
    EXPECT_EQ(h.log.hedges, (std::vector<std::string>{"0ms primary #0 $0", "100ms not_idempotent #1 $0"}));
  }
  {
    Harness h;
    CancellableProvider email(h.loop, [](std::size_t i) {
      return i == 0 ? std::pair{50 * kMs, 429} : std::pair{100 * kMs, 200};
    });
    Registry r(h);
    const ProviderId id = r.add_non_idempotent("email", email);
    auto p = r.tool(hedging(2, 200 * kMs));
    Call call;
    call.ctx.provider = id;
    EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
    EXPECT_EQ(email.starts(), (std::vector<TimePoint>{0, 50 * kMs}));
    EXPECT_EQ(call.finished, 150 * kMs);
  }
}

TEST(HedgingTest, ARetryAfterHoldsTheNextHedgeUntilItEnds) {
  // gRFC A6, pushback: the primary's 429 at 50 ms says Retry-After 1 s, so the hedge goes
  // at 1.05 s, not at once; it answers at 1.15 s.
  Harness h;
  CancellableProvider provider(
      h.loop,
      [](std::size_t i) {
        return i == 0 ? std::pair{50 * kMs, 429} : std::pair{100 * kMs, 200};
      },
      "1");
  auto p =
      test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(2, 2000 * kMs), h.env, "web"));
  Call call;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.starts(), (std::vector<TimePoint>{0, 1050 * kMs}));
  EXPECT_EQ(call.finished, 1150 * kMs);
  EXPECT_EQ(h.log.hedges, (std::vector<std::string>{"0ms primary #0 $0", "1050ms launched #1 $0", "1150ms won #1 $0"}));
}

TEST(HedgingTest, ARetryAfterPastTheDeadlineEndsTheCallAtOnce) {
  // Retry-After 10 s against a 5 s deadline: no hedge can go, and the call does not wait
  // for one; it ends with the 429 at 50 ms.
  Harness h;
  CancellableProvider provider(
      h.loop,
      [](std::size_t) {
        return std::pair{50 * kMs, 429};
      },
      "10");
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(2, 200 * kMs), h.env, "web"));
  Call call;
  call.task.deadline = 5 * kSecond;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::rate_limited);
  EXPECT_EQ(call.finished, 50 * kMs);
  EXPECT_EQ(provider.starts(), (std::vector<TimePoint>{0}));
}

TEST(HedgingTest, ABudgetInsideHoldsEachRunningAttemptsWorstCase) {
  // max_tokens 2,500 and a request whose worst case is 1,500 tokens (1,000 prompt + 500
  // output). The primary is admitted and holds 1,500; each hedge, due at once (delay 0),
  // would make 3,000 with it and is refused (budget_exhausted, a local refusal, so the
  // next is tried at once and refused too). The primary alone answers, and nothing can
  // have spent past 2,500. Without the hold, all three were admitted against a spend of 0.
  Harness h;
  CancellableProvider provider(h.loop, latencies({100 * kMs}));
  BudgetConfig budget;
  budget.max_tokens = 2'500;
  auto p = test::make_pipeline(provider, h.env, std::make_unique<HedgingStrategy>(hedging(2, 0), h.env, "web"),
                               std::make_unique<BudgetStrategy>(budget, h.env));
  Call call;
  call.request.prompt_tokens = 1'000;
  call.request.max_output_tokens = 500;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.starts(), (std::vector<TimePoint>{0}));
  ASSERT_EQ(h.log.budgets.size(), 2U);
  EXPECT_EQ(h.log.budgets[0].limit, "max_tokens");
  EXPECT_EQ(h.log.budgets[0].projected, 3'000);
  // Once the primary has settled its hold is gone: the next call may use the whole room.
  EXPECT_EQ(call.task.reserved_tokens, 0);
  EXPECT_EQ(call.task.reserved_nano_usd, 0);
}

class HedgeRefusedLocally : public ::testing::TestWithParam<OutcomeKind> {};

TEST_P(HedgeRefusedLocally, DoesNotWinNorCancelThePrimary) {
  // gpt (the tool's provider) answers in 1 s; claude's stack refuses every call at once
  // (an open breaker, a full bulkhead...). Hedge 1 goes to claude at the 200 ms delay and
  // is refused there: a handled failure, so hedge 2 goes at once (200 ms), refused too.
  // The primary is not cancelled and answers at 1 s; no hedge won, nothing degraded.
  Harness h;
  CancellableProvider gpt(h.loop, latencies({1000 * kMs}));
  CancellableProvider claude(h.loop, latencies({100 * kMs}));
  Registry r(h);
  const ProviderId primary = r.add("gpt", gpt);
  r.add_refusing("claude", claude, GetParam());
  HedgingConfig config = hedging(2, 200 * kMs);
  config.providers = {"claude"};
  auto p = r.tool(config);
  Call call;
  call.ctx.provider = primary;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(call.finished, 1000 * kMs);
  EXPECT_EQ(gpt.starts(), (std::vector<TimePoint>{0}));
  EXPECT_TRUE(claude.starts().empty());
  EXPECT_EQ(h.log.hedges,
            (std::vector<std::string>{"0ms primary #0 $0", "200ms launched #1 $0", "200ms launched #2 $0"}));
  EXPECT_EQ(h.log.hedge_providers,
            (std::vector<std::string>{"primary #0 gpt", "launched #1 claude", "launched #2 claude"}));
  EXPECT_FALSE(call.task.has(Degradation::fallback_provider));
}

INSTANTIATE_TEST_SUITE_P(LocalRefusals, HedgeRefusedLocally,
                         ::testing::Values(OutcomeKind::circuit_open, OutcomeKind::bulkhead_full,
                                           OutcomeKind::rate_limiter_rejected, OutcomeKind::throttled,
                                           OutcomeKind::budget_exhausted),
                         [](const ::testing::TestParamInfo<OutcomeKind>& param) {
                           return std::string(to_string(param.param));
                         });

TEST(HedgingTest, WhenEveryAttemptIsRefusedLocallyTheLastGivesTheOutcome) {
  // Both gpt and claude refuse at once: the primary's refusal sends the hedge at 0 ms
  // (not at the delay), refused too; the call ends at 0 ms with the hedge's refusal.
  Harness h;
  CancellableProvider gpt(h.loop, latencies({1000 * kMs}));
  CancellableProvider claude(h.loop, latencies({100 * kMs}));
  Registry r(h);
  const ProviderId primary = r.add_refusing("gpt", gpt, OutcomeKind::circuit_open);
  r.add_refusing("claude", claude, OutcomeKind::bulkhead_full);
  HedgingConfig config = hedging(1, 200 * kMs);
  config.providers = {"claude"};
  auto p = r.tool(config);
  Call call;
  call.ctx.provider = primary;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::bulkhead_full);
  EXPECT_EQ(call.finished, 0);
  EXPECT_EQ(h.log.hedges, (std::vector<std::string>{"0ms primary #0 $0", "0ms launched #1 $0"}));
}

}  // namespace
}  // namespace squall

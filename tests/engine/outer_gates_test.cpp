// Gates before a strategy that does not fuse, run in that strategy's frame (OuterGates,
// Strategy::execute_gated in engine/pipeline.hpp), against the same gates each in a
// Gate::execute frame of its own: the same attempts, query changes, backoffs, give-ups,
// breaker transitions and budget refusals, at the same virtual times, with the same
// outcomes. Both simplify_query's own execute_gated and the default one are compared.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "concurrent_calls.hpp"
#include "engine/pipeline.hpp"
#include "engine/strategies/budget.hpp"
#include "engine/strategies/circuit_breaker.hpp"
#include "engine/strategies/retry.hpp"
#include "engine/strategies/simplify_query.hpp"
#include "engine/strategies/timeout.hpp"
#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Harness;
using test::Reply;
using test::ScriptedProvider;

// A gate run as a strategy that is not one: the pipeline cannot see that it is a gate, so
// it runs in Gate::execute's frame, nested, as every gate did before OuterGates.
class Nested final : public Strategy {
 public:
  explicit Nested(std::unique_ptr<Gate> gate) : gate_(std::move(gate)) {}
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override {
    return gate_->execute(ctx, request, next);
  }

 private:
  std::unique_ptr<Gate> gate_;
};

RetryConfig retry_config() {
  RetryConfig c;
  c.max_attempts = 3;
  c.base_delay = 100 * kMillisecond;
  c.max_delay = kSecond;
  c.jitter = Jitter::full;
  c.max_retry_after = 2 * kSecond;
  c.retry_on = {OutcomeKind::timeout, OutcomeKind::rate_limited, OutcomeKind::server_error, OutcomeKind::circuit_open};
  return c;
}

CircuitBreakerConfig breaker_config(std::int32_t failure_threshold = 4) {
  CircuitBreakerConfig c;
  c.failure_threshold = failure_threshold;
  c.open_duration = 400 * kMillisecond;
  c.half_open_probes = 2;
  return c;
}

TimeoutConfig timeout_config() {
  TimeoutConfig c;
  c.per_attempt = kSecond;
  c.total = 5 * kSecond;
  return c;
}

BudgetConfig budget_config() {
  BudgetConfig c;
  c.max_tokens = 250;  // two attempts of 100 tokens, not a third
  return c;
}

// Reply i: by a fixed hash of i, successes, empty answers (which the ladder simplifies),
// 500s, 429s with a Retry-After of 1 s, and answers slower than the attempt timeout; each
// bills 100 tokens.
Reply mixed_reply(std::size_t i) {
  std::uint64_t state = i;
  const std::uint64_t h = splitmix64(state);
  Reply reply;
  switch (h % 7) {
    case 0:
    case 1: reply.response = test::results(); break;
    case 2:
    case 3: reply.response = test::no_results(); break;
    case 4: reply.response = test::status(500); break;
    case 5: reply.response = test::status(429, "1"); break;
    default:
      reply.response = test::results();
      reply.latency = 3 * kSecond;
      break;
  }
  if (h % 7 != 6) reply.latency = static_cast<Nanos>(20 + (h >> 32) % 300) * kMillisecond;
  reply.response.input_tokens = 100;
  return reply;
}

struct Trace {
  test::EventTrace events;
  std::vector<std::tuple<OutcomeKind, TimePoint, std::string, Nanos, TimePoint>> calls;
};

// The strategies of one pipeline; `nested` wraps its gates in Nested.
using Build = std::function<std::vector<std::unique_ptr<Strategy>>(Harness&, Rng&, bool nested)>;

// Runs test::run_rounds through the strategies `build` gives, half the calls with a query
// that the ladder can simplify.
Trace run_calls(const Build& build, bool nested) {
  Harness h;
  Xoshiro256 rng(42);
  ScriptedProvider provider(h.loop, [](std::size_t i, const Request&) { return mixed_reply(i); });
  Pipeline pipeline(provider, h.env, build(h, rng, nested));
  const auto calls = test::run_rounds(h, pipeline, [](int i) {
    return std::make_unique<test::Call>(i % 2 == 0 ? "\"acme corp\" pricing 2024 enterprise tier" : "acme revenue");
  });
  Trace t{test::trace_of(h.log), {}};
  // The context's deadline and attempt timeout after the call: the timeout gate restored them.
  for (const auto& c : calls) {
    t.calls.emplace_back(c->outcome.value().kind, c->finished, c->request.query, c->ctx.attempt_timeout,
                         c->ctx.deadline);
  }
  return t;
}

std::unique_ptr<Strategy> gate(std::unique_ptr<Gate> g, bool nested) {
  if (nested) return std::make_unique<Nested>(std::move(g));
  return g;
}

void expect_same_as_nested(const Build& build) {
  const Trace gated = run_calls(build, /*nested=*/false);
  const Trace nested = run_calls(build, /*nested=*/true);
  // The mix must exercise what it compares.
  EXPECT_GT(gated.events.attempts.size(), gated.calls.size());
  EXPECT_FALSE(gated.events.backoffs.empty());
  EXPECT_FALSE(gated.events.give_ups.empty());
  EXPECT_FALSE(gated.events.transitions.empty());
  test::expect_same_events(gated.events, nested.events);
  EXPECT_EQ(gated.calls, nested.calls);
}

// The flagship's web_search policy with a breaker outside the ladder too, so that an
// outer gate refuses (circuit_open) before the ladder runs.
TEST(OuterGatesTest, TimeoutAndBreakerAroundTheLadderMatchNestedGates) {
  const Build build = [](Harness& h, Rng& rng, bool nested) {
    std::vector<std::unique_ptr<Strategy>> s;
    s.push_back(gate(std::make_unique<TimeoutStrategy>(timeout_config(), h.loop), nested));
    // Outside the retry it sees only calls' last outcomes: a low threshold, so that it opens.
    s.push_back(gate(std::make_unique<CircuitBreakerStrategy>(breaker_config(2), h.env, "web_search"), nested));
    s.push_back(std::make_unique<SimplifyQueryStrategy>(SimplifyQueryConfig{}, h.env));
    s.push_back(std::make_unique<RetryStrategy>(retry_config(), h.env, rng));
    s.push_back(std::make_unique<BudgetStrategy>(budget_config(), h.env));
    return s;
  };
  expect_same_as_nested(build);
  const Trace t = run_calls(build, false);
  EXPECT_FALSE(t.events.query_changes.empty());
  EXPECT_FALSE(t.events.budgets.empty());
  bool refused = false;
  for (const auto& c : t.calls) refused = refused || std::get<0>(c) == OutcomeKind::circuit_open;
  EXPECT_TRUE(refused);
}

// Three gates before a strategy with the default execute_gated, and a retry after it.
TEST(OuterGatesTest, GatesBeforeAnyStrategyMatchNestedGates) {
  expect_same_as_nested([](Harness& h, Rng& rng, bool nested) {
    std::vector<std::unique_ptr<Strategy>> s;
    s.push_back(gate(std::make_unique<TimeoutStrategy>(timeout_config(), h.loop), nested));
    s.push_back(gate(std::make_unique<BudgetStrategy>(budget_config(), h.env), nested));
    s.push_back(gate(std::make_unique<CircuitBreakerStrategy>(breaker_config(), h.env, "web_search"), nested));
    s.push_back(std::make_unique<test::Opaque>());
    s.push_back(std::make_unique<RetryStrategy>(retry_config(), h.env, rng));
    return s;
  });
}

}  // namespace
}  // namespace squall

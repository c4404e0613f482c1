// Seed 001's recovery loop, composed from its strategies: semantic failures (an empty
// vector search) go up to the ladder (relax_threshold, then rewrite_query); systemic
// ones (a 503) go to retry; both within the budget's iteration cap, and the end is a
// deterministic empty outcome, which the task runner makes a safe-fail no_records_found.
#include <gtest/gtest.h>

#include "engine/strategies/budget.hpp"
#include "engine/strategies/relax_threshold.hpp"
#include "engine/strategies/retry.hpp"
#include "engine/strategies/rewrite_query.hpp"
#include "engine/strategies/timeout.hpp"
#include "search_agent.hpp"

namespace squall {
namespace {

using test::Call;
using test::FakeIndex;
using test::Harness;
using test::Reply;
using test::SearchAgent;

constexpr Nanos ms = kMillisecond;

// The query finds nothing at any threshold nor by keyword; its intended form's best
// document scores 0.72 (found at the floor). Search call 1 (the first rung) answers 503.
struct Loop {
  explicit Loop(Harness& h)
      : agent(h,
              test::vector_search(FakeIndex{{{"acme corp annual revenue", 0.72}}, {}}, sent, {{1, test::status(503)}}),
              [this](std::size_t, const Request&) {
                return Reply{test::rewritten(origin.rewrite, 203, 6, 0.0000908), 500 * ms};
              }) {
    origin.text = "acme revenue";
    origin.rewrite = "acme corp annual revenue";
    origin.paraphrase = "revenue acme";
  }
  std::vector<std::string> sent;
  PoolQuery origin;
  SearchAgent agent;
};

RetryConfig constant_retry() {
  RetryConfig r;
  r.max_attempts = 3;
  r.backoff = Backoff::constant;
  r.base_delay = 100 * ms;
  r.jitter = Jitter::none;
  return r;
}

TimeoutConfig per_attempt(Nanos timeout) {
  TimeoutConfig t;
  t.per_attempt = timeout;
  return t;
}

BudgetConfig max_iterations(std::int32_t n) {
  BudgetConfig b;
  b.max_iterations = n;
  return b;
}

TEST(RecoveryLoopTest, SemanticAndSystemicFailuresShareTheIterationCap) {
  // [rewrite_query, relax_threshold, retry, budget(max_iterations), timeout]: every
  // provider attempt is a round. Timeline (100 ms per search, 100 ms backoff, 500 ms
  // rewrite):
  //   round 1   0 ms    acme revenue dense 0.85             empty      -> relax
  //   round 2   100 ms  acme revenue dense 0.75             503        -> retry, 100 ms
  //   round 3   300 ms  acme revenue dense 0.75             empty      -> relax
  //   round 4   400 ms  acme revenue dense 0.7              empty      -> relax
  //   round 5   500 ms  acme revenue keyword                empty      -> rewrite
  //             600 ms  the LLM rewrites (until 1100 ms): the intended form
  //   round 6   1100 ms acme corp annual revenue dense 0.85 empty      -> relax
  //   round 7   1200 ms acme corp annual revenue dense 0.75 empty      -> relax
  //   round 8   1300 ms acme corp annual revenue dense 0.7  found
  // With a cap of 8 the rewrite is found at the floor; with 6, the budget would refuse
  // round 7, so the ladder stops there and the call ends empty at 1200 ms; with 5, the
  // rewrite is not even bought (no round is left to search it).
  const std::vector<std::string> all{"acme revenue dense 0.85",
                                     "acme revenue dense 0.75",
                                     "acme revenue dense 0.75",
                                     "acme revenue dense 0.7",
                                     "acme revenue keyword",
                                     "acme corp annual revenue dense 0.85",
                                     "acme corp annual revenue dense 0.75",
                                     "acme corp annual revenue dense 0.7"};
  struct Case {
    std::int32_t cap;
    OutcomeKind kind;
    std::size_t searches;
    std::size_t rewrites;
    TimePoint finished;
  };
  for (const Case& c : {Case{8, OutcomeKind::success, 8, 1, 1400 * ms}, Case{6, OutcomeKind::empty, 6, 1, 1200 * ms},
                        Case{5, OutcomeKind::empty, 5, 0, 600 * ms}}) {
    SCOPED_TRACE(c.cap);
    Harness h;
    Loop loop(h);
    FixedRng rng(0);
    const EngineEnv env = loop.agent.registry.env();
    loop.agent.pipeline_of(std::make_unique<RewriteQueryStrategy>(RewriteQueryConfig{"mini"}, env),
                           std::make_unique<RelaxThresholdStrategy>(RelaxThresholdConfig{}, env),
                           std::make_unique<RetryStrategy>(constant_retry(), env, rng),
                           std::make_unique<BudgetStrategy>(max_iterations(c.cap), env),
                           std::make_unique<TimeoutStrategy>(per_attempt(kSecond), h.loop));
    Call call;
    call.request.origin = &loop.origin;
    EXPECT_EQ(loop.agent.run(h, call).kind, c.kind);
    EXPECT_EQ(loop.sent, std::vector<std::string>(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(c.searches)));
    EXPECT_EQ(loop.agent.llm_requests.size(), c.rewrites);
    EXPECT_EQ(call.finished, c.finished);
    EXPECT_EQ(h.log.backoffs.size(), 1U);
    EXPECT_TRUE(h.log.budgets.empty());  // the ladder asks first: no refusal is made
    // The rewrite's tokens are the task's; the searches bill nothing.
    EXPECT_EQ(call.task.tokens_spent, c.rewrites == 1 ? 209 : 0);
    if (c.kind == OutcomeKind::success) {
      EXPECT_TRUE(call.task.has(Degradation::rewritten_query));
      EXPECT_TRUE(call.task.has(Degradation::relaxed_threshold));
    } else {
      EXPECT_EQ(call.task.degradations, 0U);
    }
  }
}

TEST(RecoveryLoopTest, ABudgetOutsideTheLadderCountsOneRoundPerCall) {
  // [budget(max_iterations 2), rewrite_query, relax_threshold, retry, timeout]: the
  // budget is entered once per logical call (CallContext::iterations counts entries into
  // it), so its cap cannot bound the ladder below it: all eight searches are made. To
  // cap the loop, place budget inside the ladder (the test above).
  Harness h;
  Loop loop(h);
  FixedRng rng(0);
  const EngineEnv env = loop.agent.registry.env();
  loop.agent.pipeline_of(std::make_unique<BudgetStrategy>(max_iterations(2), env),
                         std::make_unique<RewriteQueryStrategy>(RewriteQueryConfig{"mini"}, env),
                         std::make_unique<RelaxThresholdStrategy>(RelaxThresholdConfig{}, env),
                         std::make_unique<RetryStrategy>(constant_retry(), env, rng),
                         std::make_unique<TimeoutStrategy>(per_attempt(kSecond), h.loop));
  Call call;
  call.request.origin = &loop.origin;
  EXPECT_EQ(loop.agent.run(h, call).kind, OutcomeKind::success);
  EXPECT_EQ(loop.sent.size(), 8U);
  EXPECT_EQ(call.ctx.iterations, 1);
}

}  // namespace
}  // namespace squall

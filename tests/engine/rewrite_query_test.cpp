#include "engine/strategies/rewrite_query.hpp"

#include <gtest/gtest.h>

#include "engine/strategies/budget.hpp"
#include "engine/strategies/relax_threshold.hpp"
#include "search_agent.hpp"

namespace squall {
namespace {

using test::Call;
using test::FakeIndex;
using test::Harness;
using test::Reply;
using test::SearchAgent;

constexpr Nanos ms = kMillisecond;

RewriteQueryConfig rewrite_with(std::int32_t max_rewrites = 1) {
  RewriteQueryConfig c;
  c.provider = "mini";
  c.max_rewrites = max_rewrites;
  return c;
}

// An LLM that answers rewrite n (1-based) with answers[n - 1] after 500 ms.
test::ScriptedProvider::Responder llm_answers(std::vector<Response> answers) {
  return [answers = std::move(answers)](std::size_t i, const Request&) {
    return Reply{answers.at(std::min(i, answers.size() - 1)), 500 * ms};
  };
}

// A pool entry whose intended form the index knows.
PoolQuery pool_query() {
  PoolQuery q;
  q.text = "acme revenue";
  q.rewrite = "acme corp annual revenue";
  q.paraphrase = "revenue acme";
  return q;
}

TEST(RewriteQueryTest, ARewriteIsBilledAndTimedThenTheRewrittenQueryIsSearched) {
  // The query finds nothing (0-100 ms). The rewrite prompt is 200 + ceil(12 / 4) = 203
  // tokens; the LLM answers at 600 ms with the intended form, billed 203 + 6 tokens and
  // 0.0000908 USD (203 * 0.4 + 6 * 1.6 per million). The rewritten query is searched at
  // 600 ms and found at 700 ms.
  Harness h;
  std::vector<std::string> sent;
  const PoolQuery origin = pool_query();
  SearchAgent a(h, test::vector_search(FakeIndex{{{"acme corp annual revenue", 0.9}}, {}}, sent),
                llm_answers({test::rewritten(origin.rewrite, 203, 6, 0.0000908)}));
  a.pipeline_of(std::make_unique<RewriteQueryStrategy>(rewrite_with(), a.registry.env()));
  Call call;
  call.request.origin = &origin;
  EXPECT_EQ(a.run(h, call).kind, OutcomeKind::success);
  EXPECT_EQ(sent, (std::vector<std::string>{"acme revenue dense 0", "acme corp annual revenue dense 0"}));
  EXPECT_EQ(a.search_provider.start_times(), (std::vector<TimePoint>{0, 600 * ms}));
  ASSERT_EQ(a.llm_requests.size(), 1U);
  EXPECT_EQ(a.llm_requests[0].query, "acme revenue");
  EXPECT_EQ(a.llm_requests[0].origin, &origin);
  EXPECT_EQ(a.llm_requests[0].rewrite_attempt, 1U);
  EXPECT_EQ(a.llm_requests[0].prompt_tokens, 203);
  EXPECT_EQ(a.llm_requests[0].max_output_tokens, 100);
  EXPECT_EQ(h.log.rewrites,
            (std::vector<std::string>{
                "100ms-600ms mini #1: success intended \"acme revenue\" -> \"acme corp annual revenue\""}));
  ASSERT_EQ(h.log.query_changes.size(), 1U);
  EXPECT_EQ(h.log.query_changes[0].step, "llm_rewrite");
  EXPECT_EQ(h.log.query_changes[0].to, "acme corp annual revenue");
  // The rewrite is charged to the task; it is not one of the search call's attempts.
  EXPECT_EQ(call.task.tokens_spent, 209);
  EXPECT_DOUBLE_EQ(call.task.cost_spent_usd, 0.0000908);
  EXPECT_EQ(call.ctx.attempts, 2);
  EXPECT_TRUE(call.task.has(Degradation::rewritten_query));
  EXPECT_EQ(call.request.query, "acme revenue");  // the caller's query, restored
}

TEST(RewriteQueryTest, AFailedRewriteIsBilledAndEndsTheLadderWithTheSearchsOutcome) {
  // The LLM's answer is a timeout at 600 ms that billed its 203-token prompt: the task
  // pays for it, the query is not searched again although two more rewrites were
  // allowed, and the call ends with the search's empty outcome.
  Harness h;
  std::vector<std::string> sent;
  Response timed_out;
  timed_out.transport = Transport::timeout;
  timed_out.status = 0;
  timed_out.body = Body::completion;
  timed_out.input_tokens = 203;
  timed_out.cost_usd = 0.0000812;
  SearchAgent a(h, test::vector_search(FakeIndex{}, sent), llm_answers({timed_out}));
  a.pipeline_of(std::make_unique<RewriteQueryStrategy>(rewrite_with(3), a.registry.env()));
  Call call;
  EXPECT_EQ(a.run(h, call).kind, OutcomeKind::empty);
  EXPECT_EQ(sent.size(), 1U);
  EXPECT_EQ(h.log.rewrites, (std::vector<std::string>{"100ms-600ms mini #1: timeout failed \"acme revenue\" -> \"\""}));
  EXPECT_EQ(call.task.tokens_spent, 203);
  EXPECT_DOUBLE_EQ(call.task.cost_spent_usd, 0.0000812);
  EXPECT_EQ(call.task.degradations, 0U);
}

TEST(RewriteQueryTest, AQueryAlreadyIssuedIsNeverIssuedAgain) {
  // Rewrite 1 returns the query with different spacing, rewrite 2 the query unchanged
  // (an empty answer): neither is searched. Rewrite 3 is new and is searched.
  Harness h;
  std::vector<std::string> sent;
  SearchAgent a(h, test::vector_search(FakeIndex{}, sent),
                llm_answers({test::rewritten(" acme   revenue ", 203, 4, 0), test::rewritten("", 203, 3, 0),
                             test::rewritten("revenue acme", 203, 3, 0)}));
  a.pipeline_of(std::make_unique<RewriteQueryStrategy>(rewrite_with(3), a.registry.env()));
  Call call;
  EXPECT_EQ(a.run(h, call).kind, OutcomeKind::empty);
  EXPECT_EQ(sent, (std::vector<std::string>{"acme revenue dense 0", "revenue acme dense 0"}));
  EXPECT_EQ(h.log.rewrites, (std::vector<std::string>{
                                "100ms-600ms mini #1: success repeated \"acme revenue\" -> \" acme   revenue \"",
                                "600ms-1100ms mini #2: success repeated \"acme revenue\" -> \"acme revenue\"",
                                "1100ms-1600ms mini #3: success paraphrase \"acme revenue\" -> \"revenue acme\""}));
  // Each rewrite asks for the call's query, and the LLM sees which rewrite it is.
  ASSERT_EQ(a.llm_requests.size(), 3U);
  EXPECT_EQ(a.llm_requests[2].query, "acme revenue");
  EXPECT_EQ(a.llm_requests[2].rewrite_attempt, 3U);
  EXPECT_EQ(call.task.tokens_spent, 3 * 203 + 4 + 3 + 3);
}

TEST(RewriteQueryTest, OnlyAnEmptySearchAsksForARewrite) {
  for (const bool found : {true, false}) {
    Harness h;
    std::vector<std::string> sent;
    const std::map<std::size_t, Response> failures =
        found ? std::map<std::size_t, Response>{} : std::map<std::size_t, Response>{{0, test::status(500)}};
    SearchAgent a(h, test::vector_search(FakeIndex{{{"acme revenue", 0.9}}, {}}, sent, failures),
                  llm_answers({test::rewritten("x", 1, 1, 0)}));
    a.pipeline_of(std::make_unique<RewriteQueryStrategy>(rewrite_with(), a.registry.env()));
    Call call;
    EXPECT_EQ(a.run(h, call).kind, found ? OutcomeKind::success : OutcomeKind::server_error);
    EXPECT_TRUE(a.llm_requests.empty());
    EXPECT_EQ(call.task.degradations, 0U);
  }
}

TEST(RewriteQueryTest, NoRewriteTheTasksBudgetCannotAfford) {
  // budget(max_tokens 300) inside: the LLM's worst case is 203 prompt tokens + 100
  // output = 303 > 300, so the rewrite is not bought and the call ends empty.
  Harness h;
  std::vector<std::string> sent;
  SearchAgent a(h, test::vector_search(FakeIndex{}, sent), llm_answers({test::rewritten("x", 1, 1, 0)}));
  BudgetConfig budget;
  budget.max_tokens = 300;
  a.pipeline_of(std::make_unique<RewriteQueryStrategy>(rewrite_with(), a.registry.env()),
                std::make_unique<BudgetStrategy>(budget, a.registry.env()));
  Call call;
  EXPECT_EQ(a.run(h, call).kind, OutcomeKind::empty);
  EXPECT_TRUE(a.llm_requests.empty());
  EXPECT_EQ(sent.size(), 1U);
}

TEST(RewriteQueryTest, TheRewrittenQueryRestartsTheRelaxLadderBelow) {
  // [rewrite_query, relax_threshold]: the query walks the whole ladder; the rewrite (a
  // paraphrase here) starts again at 0.85 and is found at 0.75.
  Harness h;
  std::vector<std::string> sent;
  const PoolQuery origin = pool_query();
  SearchAgent a(h, test::vector_search(FakeIndex{{{"revenue acme", 0.8}}, {}}, sent),
                llm_answers({test::rewritten(origin.paraphrase, 203, 3, 0)}));
  a.pipeline_of(std::make_unique<RewriteQueryStrategy>(rewrite_with(), a.registry.env()),
                std::make_unique<RelaxThresholdStrategy>(RelaxThresholdConfig{}, a.registry.env()));
  Call call;
  call.request.origin = &origin;
  EXPECT_EQ(a.run(h, call).kind, OutcomeKind::success);
  EXPECT_EQ(sent,
            (std::vector<std::string>{"acme revenue dense 0.85", "acme revenue dense 0.75", "acme revenue dense 0.7",
                                      "acme revenue keyword", "revenue acme dense 0.85", "revenue acme dense 0.75"}));
  EXPECT_EQ(h.log.rewrites.size(), 1U);
  EXPECT_NE(h.log.rewrites[0].find("paraphrase"), std::string::npos);
  EXPECT_TRUE(call.task.has(Degradation::rewritten_query));
  EXPECT_TRUE(call.task.has(Degradation::relaxed_threshold));
}

}  // namespace
}  // namespace squall

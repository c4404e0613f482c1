#include "engine/strategies/relax_threshold.hpp"

#include <gtest/gtest.h>

#include "engine/strategies/budget.hpp"
#include "engine/strategies/timeout.hpp"
#include "search_agent.hpp"

namespace squall {
namespace {

using test::Call;
using test::FakeIndex;
using test::Harness;
using test::ScriptedProvider;

constexpr Nanos ms = kMillisecond;

std::vector<std::string> labels(const std::vector<RelaxRung>& ladder) {
  std::vector<std::string> out;
  for (const RelaxRung& r : ladder) out.push_back(r.label);
  return out;
}

TEST(RelaxThresholdTest, TheDefaultLadderIsSeed001s) {
  // 0.85 - 0.10 = 0.75; 0.85 - 0.20 = 0.65 is below the floor, so the floor 0.70 is the
  // last dense rung; then keyword.
  const std::vector<RelaxRung> ladder = relax_ladder(RelaxThresholdConfig{});
  EXPECT_EQ(labels(ladder), (std::vector<std::string>{"dense 0.85", "dense 0.75", "dense 0.7", "keyword"}));
  EXPECT_EQ(ladder[1].min_score, 0.75);
  EXPECT_EQ(ladder[2].min_score, 0.70);
  EXPECT_EQ(ladder[3].min_score, 0);
  EXPECT_EQ(ladder[3].mode, SearchMode::keyword);
}

TEST(RelaxThresholdTest, StepFloorAndKeywordShapeTheLadder) {
  RelaxThresholdConfig c;
  c.step = 0.05;  // 0.85 - 2 * 0.05 would be 0.7499999999999999 without the 1e-9 grid
  EXPECT_EQ(labels(relax_ladder(c)),
            (std::vector<std::string>{"dense 0.85", "dense 0.8", "dense 0.75", "dense 0.7", "keyword"}));
  c.keyword = false;
  c.floor = 0.85;  // the floor is the first threshold: nothing to relax
  EXPECT_EQ(labels(relax_ladder(c)), (std::vector<std::string>{"dense 0.85"}));
  c.floor = 0.0;
  c.initial = 0.3;
  c.step = 0.15;
  EXPECT_EQ(labels(relax_ladder(c)), (std::vector<std::string>{"dense 0.3", "dense 0.15", "dense 0"}));
  c.step = 0.1;  // 0.3 - 3 x 0.1 is -5.6e-17: the last rung is 0, not -0
  EXPECT_EQ(labels(relax_ladder(c)), (std::vector<std::string>{"dense 0.3", "dense 0.2", "dense 0.1", "dense 0"}));
}

TEST(RelaxThresholdTest, EveryLadderLabelIsARelaxLabelAndOthersAreNot) {
  RelaxThresholdConfig c;
  for (const double step : {0.01, 0.05, 0.1, 0.15, 0.3}) {
    c.step = step;
    c.floor = 0;
    for (const RelaxRung& rung : relax_ladder(c)) EXPECT_TRUE(is_relax_label(rung.label)) << rung.label;
  }
  for (const char* other : {"dense 0.750", "kewyord", "dense", "dense ", "dense 1.5", "dense -0", "Dense 0.7",
                            "dense 0.7 ", "dense 7e-1"}) {
    EXPECT_FALSE(is_relax_label(other)) << other;
  }
}

// The search tool's pipeline [relax_threshold, extra...] over a vector search fake.
template <class... S>
std::unique_ptr<Pipeline> relax_over(ScriptedProvider& search, Harness& h, RelaxThresholdConfig config,
                                     std::unique_ptr<S>... extra) {
  return test::make_pipeline(search, h.env, std::make_unique<RelaxThresholdStrategy>(config, h.env),
                             std::move(extra)...);
}

TEST(RelaxThresholdTest, WalksDownToTheFirstThresholdThatFindsADocument) {
  // The query's best document scores 0.72: empty at 0.85 (0-100 ms) and 0.75 (100-200 ms),
  // found at the floor 0.70 (200-300 ms). Two rungs, each an event before its attempt.
  Harness h;
  std::vector<std::string> sent;
  ScriptedProvider search(h.loop, test::vector_search(FakeIndex{{{"acme revenue", 0.72}}, {}}, sent));
  const auto p = relax_over(search, h, {});
  Call call;
  const Outcome outcome = test::run(h, *p, call);
  EXPECT_EQ(outcome.kind, OutcomeKind::success);
  ASSERT_EQ(outcome.response.results().size(), 1U);
  EXPECT_EQ(outcome.response.results()[0].score, 0.72);
  EXPECT_EQ(sent,
            (std::vector<std::string>{"acme revenue dense 0.85", "acme revenue dense 0.75", "acme revenue dense 0.7"}));
  EXPECT_EQ(h.log.relaxations, (std::vector<std::string>{"100ms rung 1 dense 0.75", "200ms rung 2 dense 0.7"}));
  EXPECT_EQ(call.finished, 300 * ms);
  EXPECT_TRUE(call.task.has(Degradation::relaxed_threshold));
  EXPECT_FALSE(call.task.has(Degradation::keyword_fallback));
}

TEST(RelaxThresholdTest, TheCallerGetsTheRequestBackAsItGaveIt) {
  // The ladder ends in keyword mode (threshold 0); the caller's request came dense at 0.5,
  // as it is again when the strategy returns.
  Harness h;
  std::vector<std::string> sent;
  ScriptedProvider search(h.loop, test::vector_search(FakeIndex{{}, {"acme revenue"}}, sent));
  const auto p = relax_over(search, h, {});
  Call call;
  call.request.min_score = 0.5;
  call.request.mode = SearchMode::dense;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(sent.back(), "acme revenue keyword");
  EXPECT_EQ(call.request.min_score, 0.5);
  EXPECT_EQ(call.request.mode, SearchMode::dense);
  EXPECT_EQ(call.request.query, call.text);
}

TEST(RelaxThresholdTest, SwitchesToKeywordBelowTheFloor) {
  // Best dense score 0.4, below the floor; BM25 finds the query's words.
  Harness h;
  std::vector<std::string> sent;
  ScriptedProvider search(h.loop, test::vector_search(FakeIndex{{{"acme revenue", 0.4}}, {"acme revenue"}}, sent));
  const auto p = relax_over(search, h, {});
  Call call;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(sent, (std::vector<std::string>{"acme revenue dense 0.85", "acme revenue dense 0.75",
                                            "acme revenue dense 0.7", "acme revenue keyword"}));
  EXPECT_EQ(h.log.relaxations.back(), "300ms rung 3 keyword");
  EXPECT_TRUE(call.task.has(Degradation::keyword_fallback));
  EXPECT_FALSE(call.task.has(Degradation::relaxed_threshold));
}

TEST(RelaxThresholdTest, AnExhaustedLadderEndsEmptyAndUndegraded) {
  Harness h;
  std::vector<std::string> sent;
  ScriptedProvider search(h.loop, test::vector_search(FakeIndex{}, sent));
  const auto p = relax_over(search, h, {});
  Call call;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::empty);
  EXPECT_EQ(sent.size(), 4U);
  EXPECT_EQ(call.task.degradations, 0U);
}

TEST(RelaxThresholdTest, OwnsTheThresholdAndModeWhateverTheRequestCarried) {
  Harness h;
  std::vector<std::string> sent;
  ScriptedProvider search(h.loop, test::vector_search(FakeIndex{{{"acme revenue", 0.9}}, {}}, sent));
  const auto p = relax_over(search, h, {});
  Call call;
  call.request.min_score = 0.2;
  call.request.mode = SearchMode::keyword;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::success);
  EXPECT_EQ(sent, (std::vector<std::string>{"acme revenue dense 0.85"}));
  EXPECT_TRUE(h.log.relaxations.empty());
  EXPECT_EQ(call.task.degradations, 0U);
}

TEST(RelaxThresholdTest, SystemicFailuresPassThroughUntouched) {
  // A 503 at the first rung and a timeout at the second end the ladder as they are: they
  // are retry's and fallback's business, not the semantic ladder's.
  for (const int failing_call : {0, 1}) {
    SCOPED_TRACE(failing_call);
    Harness h;
    std::vector<std::string> sent;
    Response timed_out;
    timed_out.transport = Transport::timeout;
    timed_out.status = 0;
    const Response failure = failing_call == 0 ? test::status(503) : timed_out;
    ScriptedProvider search(h.loop, test::vector_search(FakeIndex{}, sent, {{failing_call, failure}}));
    const auto p = relax_over(search, h, {});
    Call call;
    EXPECT_EQ(test::run(h, *p, call).kind, failing_call == 0 ? OutcomeKind::overloaded : OutcomeKind::timeout);
    EXPECT_EQ(sent.size(), static_cast<std::size_t>(failing_call + 1));
  }
}

TEST(RelaxThresholdTest, NoRungWhenTheBudgetWouldRefuseIt) {
  // budget(max_iterations 2) inside: the first search and one rung are admitted; the
  // rung at 0.70 would be round 3, so the ladder ends with the empty outcome (a
  // safe-fail no_records_found for the task), and no refusal is made or recorded.
  Harness h;
  std::vector<std::string> sent;
  ScriptedProvider search(h.loop, test::vector_search(FakeIndex{}, sent));
  BudgetConfig budget;
  budget.max_iterations = 2;
  const auto p = relax_over(search, h, {}, std::make_unique<BudgetStrategy>(budget, h.env));
  Call call;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::empty);
  EXPECT_EQ(sent, (std::vector<std::string>{"acme revenue dense 0.85", "acme revenue dense 0.75"}));
  EXPECT_TRUE(h.log.budgets.empty());
  EXPECT_EQ(call.request.min_score, 0);  // as it came: no rung outlives the call, the refused one included
}

TEST(RelaxThresholdTest, NoRungStartsAtOrAfterTheDeadline) {
  // A total of 300 ms: rungs at 0, 100 and 200 ms; at 300 ms the deadline has come, so
  // the keyword rung is not sent and the call ends empty, not as a timeout.
  Harness h;
  std::vector<std::string> sent;
  ScriptedProvider search(h.loop, test::vector_search(FakeIndex{}, sent));
  TimeoutConfig timeout;
  timeout.total = 300 * ms;
  const auto p = test::make_pipeline(search, h.env, std::make_unique<TimeoutStrategy>(timeout, h.loop),
                                     std::make_unique<RelaxThresholdStrategy>(RelaxThresholdConfig{}, h.env));
  Call call;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::empty);
  EXPECT_EQ(sent.size(), 3U);
  EXPECT_EQ(call.finished, 300 * ms);
}

TEST(RelaxThresholdTest, NeverResendsARequestAlreadySentInTheCall) {
  // With initial == floor and no keyword rung, the ladder is one rung: an empty result is
  // returned at once instead of sending the same request again.
  Harness h;
  std::vector<std::string> sent;
  ScriptedProvider search(h.loop, test::vector_search(FakeIndex{}, sent));
  RelaxThresholdConfig c;
  c.floor = c.initial;
  c.keyword = false;
  const auto p = relax_over(search, h, c);
  Call call;
  EXPECT_EQ(test::run(h, *p, call).kind, OutcomeKind::empty);
  EXPECT_EQ(sent, (std::vector<std::string>{"acme revenue dense 0.85"}));
}

}  // namespace
}  // namespace squall

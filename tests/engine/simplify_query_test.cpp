#include "engine/strategies/simplify_query.hpp"

#include <gtest/gtest.h>

#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::Reply;
using test::ScriptedProvider;

std::string apply(SimplifyStep step, std::string_view query) {
  return apply_simplify_step(step, query, SimplifyQueryConfig{}.filler_words);
}

TEST(SimplifyQueryTest, DropQuotes) {
  EXPECT_EQ(apply(SimplifyStep::drop_quotes, R"("acme corp" revenue 2023)"), "acme corp revenue 2023");
  EXPECT_EQ(apply(SimplifyStep::drop_quotes, R"(a "" b)"), "a b");
  EXPECT_EQ(apply(SimplifyStep::drop_quotes, "  no   quotes "), "no quotes");  // whitespace normalised
  EXPECT_EQ(apply(SimplifyStep::drop_quotes, R"("")"), "");
}

TEST(SimplifyQueryTest, DropYears) {
  EXPECT_EQ(apply(SimplifyStep::drop_years, "acme revenue 2023 (2024), 1900 2099"), "acme revenue");
  // Not years: outside 1900-2099, other lengths, mixed with letters, inside a quote.
  EXPECT_EQ(apply(SimplifyStep::drop_years, "1899 2100 202 20245 2023q1 \"2023\""),
            "1899 2100 202 20245 2023q1 \"2023\"");
}

TEST(SimplifyQueryTest, FirstFiveAndFirstThreeWords) {
  EXPECT_EQ(apply(SimplifyStep::first_5_words, "one two three four five six seven"), "one two three four five");
  EXPECT_EQ(apply(SimplifyStep::first_5_words, "one two"), "one two");
  EXPECT_EQ(apply(SimplifyStep::first_3_words, "one two three four five"), "one two three");
  EXPECT_EQ(apply(SimplifyStep::first_3_words, " one\ttwo "), "one two");
}

TEST(SimplifyQueryTest, DropFillerWords) {
  EXPECT_EQ(apply(SimplifyStep::drop_filler_words, "What is THE latest revenue of Acme?"), "revenue Acme?");
  EXPECT_EQ(apply(SimplifyStep::drop_filler_words, "the of a"), "");
  EXPECT_EQ(apply_simplify_step(SimplifyStep::drop_filler_words, "acme corp news", {"corp"}), "acme news");
}

TEST(SimplifyQueryTest, StepNames) {
  EXPECT_EQ(to_string(SimplifyStep::drop_quotes), "drop_quotes");
  EXPECT_EQ(to_string(SimplifyStep::drop_years), "drop_years");
  EXPECT_EQ(to_string(SimplifyStep::first_5_words), "first_5_words");
  EXPECT_EQ(to_string(SimplifyStep::first_3_words), "first_3_words");
  EXPECT_EQ(to_string(SimplifyStep::drop_filler_words), "drop_filler_words");
}

std::unique_ptr<Pipeline> simplify_pipeline(Harness& h, Provider& provider, SimplifyQueryConfig config = {}) {
  return test::make_pipeline(provider, h.env, std::make_unique<SimplifyQueryStrategy>(std::move(config), h.env));
}

TEST(SimplifyQueryTest, WalksTheWholeLadderCumulativelyUntilExhausted) {
  // Every query comes back empty, so every rung is tried once, each on the previous output.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::no_results()}});
  auto pipeline = simplify_pipeline(h, provider);
  Call call(R"("latest acme corp" quarterly revenue report 2023 for investors)");
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::empty);

  const std::vector<std::string> expected{
      R"("latest acme corp" quarterly revenue report 2023 for investors)",
      "latest acme corp quarterly revenue report 2023 for investors",  // drop_quotes
      "latest acme corp quarterly revenue report for investors",       // drop_years
      "latest acme corp quarterly revenue",                            // first_5_words
      "latest acme corp",                                              // first_3_words
      "acme corp",                                                     // drop_filler_words
  };
  EXPECT_EQ(provider.queries(), expected);
  EXPECT_EQ(call.request.query, call.text);  // the caller's query, restored
  EXPECT_FALSE(call.task.has(Degradation::simplified_query));

  ASSERT_EQ(h.log.query_changes.size(), 5U);
  const std::vector<std::string> steps{"drop_quotes", "drop_years", "first_5_words", "first_3_words",
                                       "drop_filler_words"};
  for (std::size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(h.log.query_changes[i].step, steps[i]);
    EXPECT_EQ(h.log.query_changes[i].from, expected[i]);
    EXPECT_EQ(h.log.query_changes[i].to, expected[i + 1]);
    // Each change happens when the previous empty answer arrived (100 ms per attempt).
    EXPECT_EQ(h.log.query_changes[i].at, static_cast<TimePoint>(i + 1) * 100 * kMillisecond);
  }
}

TEST(SimplifyQueryTest, SkipsRungsThatChangeNothingAndNeverRepeatsAQuery) {
  // "the 2023 report": drop_quotes, first_5 and first_3 change nothing and are skipped.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::no_results()}});
  auto pipeline = simplify_pipeline(h, provider);
  Call call("the 2023 report");
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::empty);
  EXPECT_EQ(provider.queries(), (std::vector<std::string>{"the 2023 report", "the report", "report"}));

  // A query that no rung changes is tried once.
  Harness h2;
  ScriptedProvider provider2(h2.loop, {{test::no_results()}});
  auto pipeline2 = simplify_pipeline(h2, provider2);
  Call plain("acme revenue");
  EXPECT_EQ(test::run(h2, *pipeline2, plain).kind, OutcomeKind::empty);
  EXPECT_EQ(provider2.calls().size(), 1U);
  EXPECT_TRUE(h2.log.query_changes.empty());
}

TEST(SimplifyQueryTest, WhitespaceOnlyChangesAreNotANewQuery) {
  Harness h;
  ScriptedProvider provider(h.loop, {{test::no_results()}});
  auto pipeline = simplify_pipeline(h, provider);
  Call call("  acme   revenue ");
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::empty);
  EXPECT_EQ(provider.calls().size(), 1U);
}

TEST(SimplifyQueryTest, SkipsAnEmptyRungAndKeepsItsInput) {
  // drop_years would leave nothing, so it is skipped and first_3_words shortens the
  // original query instead.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::no_results()}});
  SimplifyQueryConfig config;
  config.steps = {SimplifyStep::drop_years, SimplifyStep::first_3_words};
  auto pipeline = simplify_pipeline(h, provider, config);
  Call call("1990 1991 1992 1993");
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::empty);
  EXPECT_EQ(provider.queries(), (std::vector<std::string>{"1990 1991 1992 1993", "1990 1991 1992"}));
}

// An inner strategy that appends " inc" to the query of the `nth` call it forwards (from
// 1), as a strategy rewriting queries inside the ladder would: for that call only, its
// caller's query restored when it returns (Request::query).
class SuffixOnce final : public Strategy {
 public:
  explicit SuffixOnce(int nth) : nth_(nth) {}
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override {
    if (++calls_ != nth_) co_return co_await next(ctx, request);
    const std::string_view given = request.query;
    const std::string suffixed = std::string(given) + " inc";
    request.query = suffixed;
    Outcome outcome = co_await next(ctx, request);
    request.query = given;
    co_return outcome;
  }

 private:
  int nth_;
  int calls_ = 0;
};

// "the 2023 report" through the ladder with SuffixOnce(nth) inside it, every answer empty:
// the queries the provider saw and the query changes.
struct LadderRun {
  std::vector<std::string> queries;
  std::vector<test::RecordedQueryChange> changes;
};
LadderRun ladder_with_suffix(int nth) {
  Harness h;
  ScriptedProvider provider(h.loop, {{test::no_results()}});
  auto pipeline =
      test::make_pipeline(provider, h.env, std::make_unique<SimplifyQueryStrategy>(SimplifyQueryConfig{}, h.env),
                          std::make_unique<SuffixOnce>(nth));
  Call call("the 2023 report");
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::empty);
  return {provider.queries(), h.log.query_changes};
}

TEST(SimplifyQueryTest, AQueryChangedInsideTheLadderChangesOnlyTheCallItForwards) {
  // drop_years sends "the report", which the inner strategy changes to "the report inc"
  // for that call only; the rungs still simplify the ladder's own last query ("the
  // report": first_5 and first_3 change nothing), and drop_filler_words's change is
  // from the ladder's own query.
  const LadderRun r = ladder_with_suffix(2);
  EXPECT_EQ(r.queries, (std::vector<std::string>{"the 2023 report", "the report inc", "report"}));
  ASSERT_EQ(r.changes.size(), 2U);
  EXPECT_EQ(r.changes[0].from, "the 2023 report");
  EXPECT_EQ(r.changes[0].to, "the report");
  EXPECT_EQ(r.changes[1].from, "the report");
  EXPECT_EQ(r.changes[1].to, "report");
}

TEST(SimplifyQueryTest, AQueryChangedInsideTheFirstCallLeavesTheLadderAsTheQueryCame) {
  // The inner strategy changes the first query to "the 2023 report inc" for that call
  // only: the ladder simplifies the query it was given, "the 2023 report" (drop_quotes
  // changes nothing, so it is not sent again), and never sees the suffix.
  const LadderRun r = ladder_with_suffix(1);
  EXPECT_EQ(r.queries, (std::vector<std::string>{"the 2023 report inc", "the report", "report"}));
  ASSERT_EQ(r.changes.size(), 2U);
  EXPECT_EQ(r.changes[0].from, "the 2023 report");
  EXPECT_EQ(r.changes[0].to, "the report");
  EXPECT_EQ(r.changes[1].from, "the report");
  EXPECT_EQ(r.changes[1].to, "report");
}

TEST(SimplifyQueryTest, SuccessAfterSimplificationMarksTheTaskDegraded) {
  // Only "acme corp revenue" has results: drop_quotes still finds nothing, drop_years finds
  // it, and the ladder stops there.
  Harness h;
  ScriptedProvider provider(h.loop, [](std::size_t, const Request& r) {
    return Reply{r.query == "acme corp revenue" ? test::results() : test::no_results()};
  });
  auto pipeline = simplify_pipeline(h, provider);
  Call call(R"("acme corp" revenue 2023)");
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.queries(),
            (std::vector<std::string>{R"("acme corp" revenue 2023)", "acme corp revenue 2023", "acme corp revenue"}));
  EXPECT_TRUE(call.task.has(Degradation::simplified_query));
  EXPECT_EQ(call.request.query, call.text);
}

TEST(SimplifyQueryTest, SuccessOnTheFirstQueryIsNotDegraded) {
  Harness h;
  ScriptedProvider provider(h.loop, {{test::results()}});
  auto pipeline = simplify_pipeline(h, provider);
  Call call(R"("acme corp" revenue 2023)");
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(provider.calls().size(), 1U);
  EXPECT_FALSE(call.task.has(Degradation::simplified_query));
  EXPECT_TRUE(h.log.query_changes.empty());
}

TEST(SimplifyQueryTest, OnlyEmptyTriggersTheLadder) {
  // A 500 on the first query passes through; a 500 after a rung ends the ladder.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::status(500)}});
  auto pipeline = simplify_pipeline(h, provider);
  Call call(R"("acme corp" revenue 2023)");
  EXPECT_EQ(test::run(h, *pipeline, call).kind, OutcomeKind::server_error);
  EXPECT_EQ(provider.calls().size(), 1U);

  Harness h2;
  ScriptedProvider provider2(h2.loop, {{test::no_results()}, {test::status(500)}});
  auto pipeline2 = simplify_pipeline(h2, provider2);
  Call call2(R"("acme corp" revenue 2023)");
  EXPECT_EQ(test::run(h2, *pipeline2, call2).kind, OutcomeKind::server_error);
  EXPECT_EQ(provider2.calls().size(), 2U);
  EXPECT_FALSE(call2.task.has(Degradation::simplified_query));
}

}  // namespace
}  // namespace squall

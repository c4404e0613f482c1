#include "replay/grouping.hpp"

// GCC 12 reports a false -Wrestrict inside std::string assignment at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace squall::replay {
namespace {

constexpr std::int64_t kS = 1'000'000'000;

AttemptRecord attempt(const std::string& trace, std::int64_t start_s, std::int64_t end_s, OutcomeKind outcome,
                      std::optional<std::int32_t> resend = std::nullopt, const std::string& provider = "openai") {
  AttemptRecord a;
  a.trace_id = trace;
  a.parent_id = "p";
  a.operation = "chat";
  a.provider = provider;
  a.request_model = "m";
  a.start_ns = start_s * kS;
  a.end_ns = end_s * kS;
  a.outcome = outcome;
  a.resend_count = resend;
  return a;
}

TEST(GroupingTest, ResendCountsOpenAndJoinCallsAndMarkFallbacks) {
  TraceData data;
  data.attempts = {attempt("t", 0, 1, OutcomeKind::rate_limited, 0), attempt("t", 2, 3, OutcomeKind::server_error, 1),
                   attempt("t", 4, 5, OutcomeKind::success, 2, "anthropic"),
                   attempt("t", 6, 7, OutcomeKind::success, 0)};
  const Grouping g = group_attempts(data);
  ASSERT_EQ(g.tasks.size(), 1U);
  ASSERT_EQ(g.tasks[0].calls.size(), 2U);
  EXPECT_EQ(g.tasks[0].calls[0].attempts, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_TRUE(g.tasks[0].calls[0].fallback);
  EXPECT_EQ(g.tasks[0].calls[0].outcome, OutcomeKind::success);
  EXPECT_FALSE(g.tasks[0].calls[1].fallback);
  EXPECT_EQ(g.counts.fallback_calls, 1U);
  EXPECT_EQ(g.counts.joined_by_timing, 0U);
}

TEST(GroupingTest, WithoutResendCountsARetryIsASendAfterAFailureWithinTheGap) {
  TraceData data;
  data.attempts = {attempt("t", 0, 1, OutcomeKind::timeout), attempt("t", 3, 4, OutcomeKind::success),
                   attempt("t", 5, 6, OutcomeKind::success),  // after a success: a new call
                   attempt("t", 7, 8, OutcomeKind::server_error),
                   attempt("t", 200, 201, OutcomeKind::success)};  // 192 s after the failure: a new call
  const Grouping g = group_attempts(data);
  ASSERT_EQ(g.tasks[0].calls.size(), 4U);
  EXPECT_EQ(g.tasks[0].calls[0].attempts, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(g.counts.joined_by_timing, 1U);
}

TEST(GroupingTest, ARecordedRetryAfterWidensTheGap) {
  TraceData data;
  data.attempts = {attempt("t", 0, 1, OutcomeKind::rate_limited), attempt("t", 121, 122, OutcomeKind::success)};
  data.attempts[0].retry_after_ns = 120 * kS;
  const Grouping g = group_attempts(data);
  EXPECT_EQ(g.tasks[0].calls.size(), 1U);
}

TEST(GroupingTest, OverlappingAttemptsOfOneCallAreHedged) {
  TraceData data;
  data.attempts = {attempt("t", 0, 10, OutcomeKind::cancelled, 0), attempt("t", 2, 4, OutcomeKind::success, 1)};
  const Grouping g = group_attempts(data);
  ASSERT_EQ(g.tasks[0].calls.size(), 1U);
  EXPECT_TRUE(g.tasks[0].calls[0].hedged);
}

TEST(GroupingTest, LanesKeepOperationsAndParentsApart) {
  TraceData data;
  data.attempts = {attempt("t", 0, 1, OutcomeKind::timeout), attempt("t", 2, 3, OutcomeKind::success)};
  data.attempts[1].operation = "embeddings";
  EXPECT_EQ(group_attempts(data).counts.calls, 2U);
  data.attempts[1].operation = "chat";
  data.attempts[1].parent_id = "q";
  EXPECT_EQ(group_attempts(data).counts.calls, 2U);
}

TEST(GroupingTest, TasksAreTracesStartingAtTheirAgentSpanInStartOrder) {
  TraceData data;
  data.attempts = {attempt("late", 50, 51, OutcomeKind::success), attempt("early", 10, 12, OutcomeKind::success)};
  data.agents.push_back(AgentSpan{"early", "r", "support", 8 * kS, 13 * kS});
  data.agents.push_back(AgentSpan{"idle", "s", "support", 30 * kS, 31 * kS});
  const Grouping g = group_attempts(data);
  ASSERT_EQ(g.tasks.size(), 3U);
  EXPECT_EQ(g.tasks[0].trace_id, "early");
  EXPECT_EQ(g.tasks[0].start_ns, 8 * kS);
  EXPECT_EQ(g.tasks[0].name, "support");
  EXPECT_EQ(g.tasks[1].trace_id, "idle");
  EXPECT_EQ(g.tasks[2].trace_id, "late");
  EXPECT_EQ(g.tasks[2].start_ns, 50 * kS);
  EXPECT_EQ(g.counts.tasks_without_attempts, 1U);
}

TEST(GroupingTest, AResendWithNoFirstAttemptOpensACallAndIsCounted) {
  TraceData data;
  data.attempts = {attempt("t", 0, 1, OutcomeKind::success, 3)};
  const Grouping g = group_attempts(data);
  EXPECT_EQ(g.counts.calls, 1U);
  EXPECT_EQ(g.counts.resends_without_first, 1U);
}

}  // namespace
}  // namespace squall::replay

#include "mocks/tool.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/classify.hpp"
#include "sim/event_loop.hpp"
#include "tests/mocks/support.hpp"

namespace squall {
namespace {

using testing::run_call;

ToolMockConfig config(double error_rate, double fix_rate) {
  ToolMockConfig c;
  c.latency = {LatencyShape::constant, 80 * kMillisecond, 0, 0, 0};
  c.argument_error_rate = error_rate;
  c.reflection_fix_rate = fix_rate;
  return c;
}

CallOptions for_task(std::uint64_t task, std::string_view tool = "crm_lookup") {
  CallOptions o;
  o.task_id = task;
  o.tool = tool;
  return o;
}

Request revision(std::uint32_t r) {
  Request req;
  req.argument_revision = r;
  return req;
}

TEST(ToolMockTest, ValidArgumentsAnswer200WithAResultAfterTheLatency) {
  EventLoop loop;
  Xoshiro256 rng(1);
  ToolMock mock("crm", config(0, 1), loop, loop, rng);
  const auto r = run_call(loop, mock, revision(0), for_task(7));
  EXPECT_EQ(r.at, 80 * kMillisecond);
  EXPECT_EQ(r.response.status, 200);
  EXPECT_EQ(r.response.body, Body::tool_result);
  EXPECT_EQ(classify(r.response), OutcomeKind::success);
  EXPECT_EQ(r.response.cost_usd, 0);
}

TEST(ToolMockTest, InvalidArgumentsAnswer400WithAMessage) {
  EventLoop loop;
  Xoshiro256 rng(1);
  ToolMock mock("crm", config(1, 0), loop, loop, rng);
  const auto r = run_call(loop, mock, revision(0), for_task(7));
  EXPECT_EQ(r.at, 80 * kMillisecond);
  EXPECT_EQ(r.response.status, 400);
  EXPECT_EQ(r.response.details().error_code, "invalid_arguments");
  EXPECT_EQ(r.response.details().error_message,
            "Invalid arguments for crm: a required parameter is missing or has the wrong type");
  EXPECT_EQ(classify(r.response), OutcomeKind::bad_request);
}

TEST(ToolMockTest, ArgumentErrorsAreAFunctionOfTaskToolAndRevision) {
  // The same (task, tool, revision) always gets the same answer, whatever was called
  // before; two mocks of one stream agree whatever order the tasks come in.
  EventLoop loop;
  Xoshiro256 a_rng(5);
  Xoshiro256 b_rng(5);
  ToolMock a("crm", config(0.5, 0.5), loop, loop, a_rng);
  ToolMock b("crm", config(0.5, 0.5), loop, loop, b_rng);
  std::vector<bool> forward;
  for (std::uint64_t task = 0; task < 200; ++task) {
    forward.push_back(run_call(loop, a, revision(0), for_task(task)).response.status == 400);
  }
  for (std::uint64_t task = 200; task-- > 0;) {
    EXPECT_EQ(run_call(loop, b, revision(0), for_task(task)).response.status == 400, forward[task]);
    EXPECT_EQ(run_call(loop, b, revision(0), for_task(task)).response.status == 400, forward[task]) << "a re-send";
  }
  // Tools and revisions are keys too: some task differs between tools and revisions.
  bool tools_differ = false;
  bool revisions_differ = false;
  for (std::uint64_t task = 0; task < 200; ++task) {
    tools_differ =
        tools_differ || a.arguments_invalid(task, "crm_lookup", 0) != a.arguments_invalid(task, "send_email", 0);
    revisions_differ =
        revisions_differ || a.arguments_invalid(task, "crm_lookup", 1) != a.arguments_invalid(task, "crm_lookup", 2);
  }
  EXPECT_TRUE(tools_differ);
  EXPECT_TRUE(revisions_differ);
}

TEST(ToolMockTest, RatesHoldWithinFourStandardErrors) {
  // n = 20000 tasks: first arguments wrong at 0.3 (standard error sqrt(0.3 * 0.7 / n) =
  // 0.0032), corrected arguments right at 0.9 (sqrt(0.9 * 0.1 / n) = 0.0021).
  EventLoop loop;
  Xoshiro256 rng(11);
  ToolMock mock("crm", config(0.3, 0.9), loop, loop, rng);
  constexpr int n = 20'000;
  int invalid = 0;
  int fixed = 0;
  for (int task = 0; task < n; ++task) {
    const auto id = static_cast<std::uint64_t>(task);
    if (mock.arguments_invalid(id, "crm_lookup", 0)) ++invalid;
    if (!mock.arguments_invalid(id, "crm_lookup", 1)) ++fixed;
  }
  EXPECT_NEAR(static_cast<double>(invalid) / n, 0.3, 4 * std::sqrt(0.3 * 0.7 / n));
  EXPECT_NEAR(static_cast<double>(fixed) / n, 0.9, 4 * std::sqrt(0.9 * 0.1 / n));
}

TEST(ToolMockTest, ALateAnswerIsATimeoutAtTheDeadline) {
  EventLoop loop;
  Xoshiro256 rng(1);
  ToolMock mock("crm", config(0, 1), loop, loop, rng);
  CallOptions options = for_task(1);
  options.deadline = 50 * kMillisecond;
  const auto r = run_call(loop, mock, revision(0), options);
  EXPECT_EQ(r.at, 50 * kMillisecond);
  EXPECT_EQ(classify(r.response), OutcomeKind::timeout);
}

}  // namespace
}  // namespace squall

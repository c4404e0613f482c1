// What the tests that compare two ways of running the same strategies share (the fused
// call, tests/engine/fused_call_test.cpp, and gates run in the next strategy's frame,
// tests/engine/outer_gates_test.cpp, each against nested coroutines): a strategy that only
// passes the call on, the rounds of overlapping calls both run, and the events a run left,
// in comparable form.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "test_runtime.hpp"

namespace squall::test {

// A strategy that only passes the call on, in a coroutine of its own (with the default
// execute_gated): no pipeline that holds it fuses the strategies before it.
class Opaque final : public Strategy {
 public:
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override {
    co_return co_await next(ctx, request);
  }
};

// The events of a run, in comparable form.
struct EventTrace {
  std::vector<std::tuple<std::int32_t, TimePoint, TimePoint, OutcomeKind>> attempts;
  std::vector<std::tuple<std::string, std::string, std::string, TimePoint>> query_changes;
  std::vector<std::tuple<std::int32_t, TimePoint, Nanos, bool>> backoffs;
  std::vector<std::tuple<std::string, TimePoint, OutcomeKind>> give_ups;
  std::vector<std::string> transitions;
  std::vector<std::tuple<std::string, TimePoint>> budgets;
  friend bool operator==(const EventTrace&, const EventTrace&) = default;
};

// Expects `b` to hold the events of `a`, one kind at a time, so that a failure names it.
inline void expect_same_events(const EventTrace& a, const EventTrace& b) {
  EXPECT_EQ(a.attempts, b.attempts);
  EXPECT_EQ(a.query_changes, b.query_changes);
  EXPECT_EQ(a.backoffs, b.backoffs);
  EXPECT_EQ(a.give_ups, b.give_ups);
  EXPECT_EQ(a.transitions, b.transitions);
  EXPECT_EQ(a.budgets, b.budgets);
}

inline EventTrace trace_of(const EventLog& log) {
  EventTrace t;
  for (const AttemptEvent& e : log.attempts) t.attempts.emplace_back(e.attempt, e.started, e.finished, e.kind);
  for (const auto& e : log.query_changes) t.query_changes.emplace_back(e.step, e.from, e.to, e.at);
  for (const BackoffEvent& e : log.backoffs)
    t.backoffs.emplace_back(e.after_attempt, e.at, e.delay, e.from_retry_after);
  for (const auto& e : log.give_ups) t.give_ups.emplace_back(e.reason, e.at, e.last_kind);
  t.transitions = log.transitions;
  for (const auto& e : log.budgets) t.budgets.emplace_back(e.limit, e.at);
  return t;
}

// How a call is started: test::start (Pipeline::execute), or another way of running it.
using StartCall = std::function<void(Harness&, const Pipeline&, Call&, std::exception_ptr*)>;

// Runs 12 rounds of 25 overlapping calls, 1.5 s apart, through `pipeline` to the end; call
// i of a round is `make_call(i)`, started by `start_call`. Returns the calls, finished.
inline std::vector<std::unique_ptr<Call>> run_rounds(Harness& h, const Pipeline& pipeline,
                                                     const std::function<std::unique_ptr<Call>(int)>& make_call,
                                                     const StartCall& start_call = start) {
  std::vector<std::unique_ptr<Call>> calls;
  std::exception_ptr error;
  for (int round = 0; round < 12; ++round) {
    h.loop.run_until(static_cast<TimePoint>(round) * 1500 * kMillisecond);
    for (int i = 0; i < 25; ++i) {
      calls.push_back(make_call(i));
      start_call(h, pipeline, *calls.back(), &error);
    }
  }
  drain(h);
  if (error) std::rethrow_exception(error);
  return calls;
}

}  // namespace squall::test

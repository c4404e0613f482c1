// The invariant checker (sim/invariant_checker.hpp): each rule stays silent on a clean run's
// events and fires on the events a broken strategy would emit.
#include "sim/invariant_checker.hpp"

#include <gtest/gtest.h>

namespace squall {
namespace {

constexpr Nanos kMs = kMillisecond;

// A task template "t" with a 10 s deadline; "crm" not idempotent, "gpt" idempotent.
Scenario scenario() {
  Scenario s;
  ProviderConfig crm;
  crm.name = "crm";
  crm.idempotent = false;
  ProviderConfig gpt;
  gpt.name = "gpt";
  s.providers = {crm, gpt};
  TaskTemplate t;
  t.name = "t";
  t.deadline = 10 * kSecond;
  s.workload.tasks = {t};
  return s;
}

AttemptEvent attempt(std::string_view provider, TimePoint started, TimePoint finished, OutcomeKind kind,
                     std::int64_t tokens = 10, double usd = 0.5) {
  AttemptEvent e;
  e.task_id = 1;
  e.tool = provider;
  e.provider = provider;
  e.started = started;
  e.finished = finished;
  e.kind = kind;
  e.input_tokens = tokens;
  e.cost_usd = usd;
  return e;
}

TaskResult finished(TimePoint at, std::int64_t tokens, double usd) {
  TaskResult r;
  r.id = 1;
  r.template_name = "t";
  r.started = 0;
  r.finished = at;
  r.tokens = tokens;
  r.cost_usd = usd;
  return r;
}

// The rule named by the only violation, or "" when there is none.
std::string rule_of(const InvariantChecker& checker) {
  if (checker.violation_count() == 0) return "";
  EXPECT_EQ(checker.violation_count(), 1U) << checker.summary();
  return checker.violations().front().substr(0, checker.violations().front().find(':'));
}

TEST(InvariantCheckerTest, ACleanRunBreaksNothing) {
  const Scenario s = scenario();
  InvariantChecker c(s);
  c.on_attempt(attempt("gpt", 0, 100 * kMs, OutcomeKind::timeout));
  c.on_attempt(attempt("gpt", 600 * kMs, 700 * kMs, OutcomeKind::success));
  c.on_attempt(attempt("crm", 700 * kMs, 800 * kMs, OutcomeKind::rate_limited));  // proves it unprocessed
  c.on_attempt(attempt("crm", 900 * kMs, 1000 * kMs, OutcomeKind::success));
  c.on_task_finished(finished(1000 * kMs, 40, 2.0));
  EXPECT_EQ(c.summary(), "");
}

TEST(InvariantCheckerTest, ATaskFinishingTwiceFires) {
  const Scenario s = scenario();
  InvariantChecker c(s);
  c.on_task_finished(finished(kMs, 0, 0));
  c.on_task_finished(finished(2 * kMs, 0, 0));
  EXPECT_EQ(rule_of(c), "finished_once");
}

TEST(InvariantCheckerTest, ASpendTheAttemptsDidNotBillFires) {
  const Scenario s = scenario();
  InvariantChecker c(s);
  c.on_attempt(attempt("gpt", 0, 100 * kMs, OutcomeKind::success, 10, 0.5));
  c.on_task_finished(finished(100 * kMs, 10, 0.75));  // a strategy that billed outside an attempt
  EXPECT_EQ(rule_of(c), "spend_is_attempts");
  EXPECT_EQ(
      c.violations().front(),
      "spend_is_attempts: task 1 spent 10 tokens and 0.75 USD; its attempts billed 10 tokens and 0.5 USD, at 100ms");
}

TEST(InvariantCheckerTest, AnAttemptAtTheDeadlineFires) {
  const Scenario s = scenario();
  InvariantChecker c(s);
  c.on_attempt(attempt("gpt", 10 * kSecond, 10 * kSecond + kMs, OutcomeKind::success));
  c.on_task_finished(finished(10 * kSecond + kMs, 10, 0.5));
  EXPECT_EQ(rule_of(c), "before_deadline");
}

TEST(InvariantCheckerTest, AnAttemptReportedOutOfTimeOrderFires) {
  const Scenario s = scenario();
  InvariantChecker c(s);
  c.on_attempt(attempt("gpt", 0, 500 * kMs, OutcomeKind::success));
  c.on_attempt(attempt("gpt", 0, 400 * kMs, OutcomeKind::success));
  EXPECT_EQ(rule_of(c), "attempt_in_order");
}

TEST(InvariantCheckerTest, AResendToANonIdempotentProviderAfterATimeoutFires) {
  const Scenario s = scenario();
  InvariantChecker c(s);
  c.on_attempt(attempt("crm", 0, 100 * kMs, OutcomeKind::timeout));
  c.on_attempt(attempt("crm", 100 * kMs, 200 * kMs, OutcomeKind::success));  // a retry that ignored idempotency
  EXPECT_EQ(rule_of(c), "not_resent");
  // A new logical call (the next step) may call it again; an idempotent provider always.
  InvariantChecker next(s);
  next.on_attempt(attempt("crm", 0, 100 * kMs, OutcomeKind::timeout));
  next.on_logical_call(LogicalCallEvent{1, "crm", "crm", 1, OutcomeKind::timeout, 100 * kMs});
  next.on_attempt(attempt("crm", 100 * kMs, 200 * kMs, OutcomeKind::success));
  next.on_attempt(attempt("gpt", 200 * kMs, 300 * kMs, OutcomeKind::timeout));
  next.on_attempt(attempt("gpt", 300 * kMs, 400 * kMs, OutcomeKind::success));
  EXPECT_EQ(next.summary(), "");
}

TEST(InvariantCheckerTest, AHedgeLoserBilledWhatNoAttemptBilledFires) {
  const Scenario s = scenario();
  InvariantChecker c(s);
  c.on_attempt(attempt("gpt", 0, 300 * kMs, OutcomeKind::cancelled, 3, 0.3));
  HedgeEvent loser;
  loser.task_id = 1;
  loser.tool = "gpt";
  loser.provider = "gpt";
  loser.action = HedgeAction::loser_cancelled;
  loser.at = 300 * kMs;
  loser.input_tokens = 3;
  loser.cost_usd = 0.3;
  c.on_hedge(loser);
  EXPECT_EQ(c.summary(), "");
  loser.cost_usd = 0.6;  // billed twice over
  c.on_hedge(loser);
  EXPECT_EQ(rule_of(c), "loser_billed");
}

TEST(InvariantCheckerTest, TheSummaryKeepsTheFirstViolationsAndCountsTheRest) {
  const Scenario s = scenario();
  InvariantChecker c(s);
  for (int i = 0; i < 25; ++i) c.on_task_finished(finished(kMs, 0, 0));
  EXPECT_EQ(c.violation_count(), 24U);
  EXPECT_EQ(c.violations().size(), InvariantChecker::kMaxKept);
  EXPECT_NE(c.summary().find("24 invariant violations:\n"), std::string::npos);
  EXPECT_NE(c.summary().find("... and 4 more\n"), std::string::npos);
}

}  // namespace
}  // namespace squall

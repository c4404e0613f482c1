#include "reports/recorder.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "sample_run.hpp"

namespace squall {
namespace {

using test_support::attempt;
using test_support::feed_sample_run;

const ProviderStats& provider(const Recorder& r, std::string_view name) {
  for (const ProviderStats& p : r.providers()) {
    if (p.name == name) return p;
  }
  throw std::out_of_range(std::string(name));
}

const ToolStats& tool(const Recorder& r, std::string_view name) {
  for (const ToolStats& t : r.tools()) {
    if (t.name == name) return t;
  }
  throw std::out_of_range(std::string(name));
}

TEST(RecorderTest, CountsAttemptsByProviderAndOutcome) {
  Recorder r;
  feed_sample_run(r);
  ASSERT_EQ(r.providers().size(), 2U);
  EXPECT_EQ(r.providers()[0].name, "web_search");  // first sight order
  EXPECT_EQ(r.providers()[1].name, "llm");
  const ProviderStats& web = provider(r, "web_search");
  EXPECT_EQ(web.calls[index_of(OutcomeKind::success)], 3U);
  EXPECT_EQ(web.calls[index_of(OutcomeKind::rate_limited)], 1U);
  EXPECT_EQ(web.calls[index_of(OutcomeKind::empty)], 1U);
  // Attempt durations: rate_limited 200 ms; successes 300, 200 and 1000 ms.
  EXPECT_EQ(web.latency[index_of(OutcomeKind::rate_limited)].to_vector(), std::vector<Nanos>{200 * kMillisecond});
  EXPECT_EQ(web.latency[index_of(OutcomeKind::success)].to_vector(),
            (std::vector<Nanos>{300 * kMillisecond, 200 * kMillisecond, 1000 * kMillisecond}));
}

TEST(RecorderTest, CountsTokensAndCostIncludingFailedAttempts) {
  Recorder r;
  feed_sample_run(r);
  const ProviderStats& llm = provider(r, "llm");
  EXPECT_EQ(llm.input_tokens, 2400);
  EXPECT_EQ(llm.output_tokens, 500);
  EXPECT_DOUBLE_EQ(llm.cost_usd, 0.0056 + 0.0032);
  // Only the timed-out attempt failed.
  EXPECT_EQ(llm.failed_input_tokens, 1200);
  EXPECT_EQ(llm.failed_output_tokens, 100);
  EXPECT_DOUBLE_EQ(llm.failed_cost_usd, 0.0032);
}

TEST(RecorderTest, CountsTasksByTemplateStatusAndReason) {
  Recorder r;
  feed_sample_run(r);
  ASSERT_EQ(r.templates().size(), 2U);
  EXPECT_EQ(r.templates()[0].name, "research");
  EXPECT_EQ(r.templates()[0].tasks[index_of(TaskStatus::succeeded)], 1U);
  EXPECT_EQ(r.templates()[0].tasks[index_of(TaskStatus::failed)], 1U);
  EXPECT_EQ(r.templates()[0].latency.to_vector(), (std::vector<Nanos>{3500 * kMillisecond, 10'300 * kMillisecond}));
  EXPECT_EQ(r.templates()[0].tokens, 2900);
  EXPECT_DOUBLE_EQ(r.templates()[0].cost_usd, 0.0088);
  EXPECT_EQ(r.templates()[1].tasks[index_of(TaskStatus::degraded)], 1U);
  EXPECT_EQ(r.templates()[1].tokens, 0);
  // Reasons in first-sight order; a succeeded task has none.
  ASSERT_EQ(r.reasons().size(), 3U);
  EXPECT_EQ(r.reasons()[0].name, "timeout");
  EXPECT_EQ(r.reasons()[0].tasks[index_of(TaskStatus::failed)], 1U);
  EXPECT_EQ(r.reasons()[1].name, "circuit_open");
  EXPECT_EQ(r.reasons()[2].name, "simplified_query");
  EXPECT_EQ(r.reasons()[2].tasks[index_of(TaskStatus::degraded)], 1U);
}

TEST(RecorderTest, EmptyReasonIsRecordedAsUnspecified) {
  Recorder r;
  r.on_task_finished(TaskResult{1, "t", 0, 0, TaskStatus::safe_failed, ""});
  ASSERT_EQ(r.reasons().size(), 1U);
  EXPECT_EQ(r.reasons()[0].name, "unspecified");
  EXPECT_EQ(r.reasons()[0].tasks[index_of(TaskStatus::safe_failed)], 1U);
}

TEST(RecorderTest, CountsLogicalCallsByAttemptsAndFinalOutcome) {
  Recorder r;
  feed_sample_run(r);
  const ToolStats& web = tool(r, "web_search");
  EXPECT_EQ(web.logical_calls, 3U);
  EXPECT_EQ(web.attempts, 5U);
  EXPECT_EQ(web.calls_by_attempts, (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_EQ(web.backoffs, 1U);
  EXPECT_EQ(web.backoff_wait, 1000 * kMillisecond);
  EXPECT_EQ(web.query_changes, 1U);
  const ToolStats& llm = tool(r, "llm");
  EXPECT_EQ(llm.logical_calls, 3U);
  EXPECT_EQ(llm.attempts, 2U);
  EXPECT_EQ(llm.calls_by_attempts, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(llm.final_outcomes[index_of(OutcomeKind::circuit_open)], 1U);
  EXPECT_EQ(llm.final_outcomes[index_of(OutcomeKind::timeout)], 1U);
  EXPECT_EQ(llm.breaker_transitions_to[static_cast<std::size_t>(BreakerState::open)], 1U);
}

TEST(RecorderTest, CountsGiveUpsAndBudgetRefusals) {
  Recorder r;
  r.on_give_up(GiveUpEvent{1, "llm", "retry", "max_attempts", 5, OutcomeKind::timeout});
  r.on_budget_exhausted(BudgetExhaustedEvent{1, "llm", 6, "max_tokens", 900, 1300, 1000});
  EXPECT_EQ(tool(r, "llm").give_ups, 1U);
  EXPECT_EQ(tool(r, "llm").budget_refusals, 1U);
  EXPECT_EQ(r.last_event_at(), 6);
}

TEST(RecorderTest, ListsTheFirstThousandBreakerTransitionsAndCountsAll) {
  Recorder r;
  for (int i = 0; i < 1005; ++i) {
    const bool opening = i % 2 == 0;
    r.on_breaker_transition(BreakerTransitionEvent{"t", "", i * kSecond,
                                                   opening ? BreakerState::closed : BreakerState::open,
                                                   opening ? BreakerState::open : BreakerState::closed});
  }
  EXPECT_EQ(r.breaker_transitions().size(), kMaxListedBreakerTransitions);
  EXPECT_EQ(r.breaker_transitions_total(), 1005U);
  EXPECT_EQ(r.breaker_transitions().back().at, 999 * kSecond);
  EXPECT_EQ(tool(r, "t").breaker_transitions_to[static_cast<std::size_t>(BreakerState::open)], 503U);
}

TEST(RecorderTest, BucketsEventsIntoWindowsByEndTime) {
  Recorder r;
  feed_sample_run(r);
  // Task ends: 3.5 s -> window 0; 22.3 s -> 2; 23 s -> 2; 26 s -> 2.
  ASSERT_EQ(r.tasks_by_window().size(), 3U);
  EXPECT_EQ(r.tasks_by_window()[0][index_of(TaskStatus::succeeded)], 1U);
  EXPECT_EQ(r.tasks_by_window()[1], StatusCounts{});
  EXPECT_EQ(r.tasks_by_window()[2][index_of(TaskStatus::failed)], 2U);
  EXPECT_EQ(r.tasks_by_window()[2][index_of(TaskStatus::degraded)], 1U);
  // web_search attempts end at 0.2, 1.5 (window 0), 12.1, 12.3 (1) and 26 s (2).
  const ProviderStats& web = provider(r, "web_search");
  ASSERT_EQ(web.calls_by_window.size(), 3U);
  EXPECT_EQ(web.calls_by_window[0][index_of(OutcomeKind::rate_limited)], 1U);
  EXPECT_EQ(web.calls_by_window[1][index_of(OutcomeKind::empty)], 1U);
  EXPECT_EQ(web.calls_by_window[2][index_of(OutcomeKind::success)], 1U);
  EXPECT_EQ(r.last_event_at(), 26 * kSecond);
}

TEST(RecorderTest, WindowSizeIsConfigurable) {
  Recorder r(RecorderOptions{kSecond});
  r.on_task_finished(TaskResult{1, "t", 0, 2500 * kMillisecond, TaskStatus::succeeded, ""});
  ASSERT_EQ(r.tasks_by_window().size(), 3U);  // 2.5 s falls in window [2 s, 3 s)
  EXPECT_EQ(r.tasks_by_window()[2][index_of(TaskStatus::succeeded)], 1U);
}

TEST(RecorderTest, EventsBeyondTheLastWindowFoldIntoIt) {
  Recorder r(RecorderOptions{kMillisecond});
  r.on_task_finished(TaskResult{1, "t", 0, kHour, TaskStatus::succeeded, ""});
  EXPECT_EQ(r.tasks_by_window().size(), kMaxWindows);
}

TEST(RecorderTest, RejectsANonPositiveWindow) { EXPECT_THROW(Recorder(RecorderOptions{0}), std::invalid_argument); }

TEST(RecorderTest, InjectedFaultsAreSetNotAdded) {
  Recorder r;
  r.set_injected_faults("web_search", "timeout", 3, {3});
  r.set_injected_faults("web_search", "timeout", 5, {2, 0, 3});
  r.set_injected_faults("a", "empty", 1, {1});
  EXPECT_EQ(r.injected_faults().at("web_search").at("timeout"), 5U);
  EXPECT_EQ(r.injected_faults_by_window().at("web_search").at("timeout"), (std::vector<std::uint64_t>{2, 0, 3}));
  EXPECT_EQ(r.injected_faults().begin()->first, "a");  // sorted by name
}

TEST(RecorderTest, InjectedFaultWindowsMustSumToTheTotal) {
  // A series that does not add up to its total would chart other faults than the report
  // counts: a bug in the caller.
  Recorder r;
  EXPECT_THROW(r.set_injected_faults("p", "timeout", 2, {1}), std::invalid_argument);
  EXPECT_THROW(r.set_injected_faults("p", "timeout", 1), std::invalid_argument);
  r.set_injected_faults("p", "empty", 0);  // no fault, no windows
  EXPECT_TRUE(r.injected_faults_by_window().at("p").at("empty").empty());
}

// The interning hints (recorder.hpp) are by the address of a name's text: a name whose
// text changes in place, at the same address, is another name, and one at a new address
// is still the same name.
TEST(RecorderTest, NamesAreInternedByTextNotByAddress) {
  Recorder reused;  // every name written over one buffer, at one address
  Recorder apart;   // every name in its own string
  const std::string tool_name = "web_search";
  const std::string strategy = "retry";
  std::string buffer;
  buffer.reserve(64);
  const std::vector<std::string> reasons = {"max_attempts",  "deadline", "max_attempts",
                                            "not_retryable", "deadline", "max_attempts"};
  std::vector<std::string> copies;
  copies.reserve(reasons.size());
  for (std::size_t i = 0; i < reasons.size(); ++i) {
    const char* before = buffer.data();
    buffer.assign(reasons[i]);
    ASSERT_EQ(buffer.data(), before);  // the same address, another text
    copies.push_back(reasons[i]);
    const auto at = static_cast<TimePoint>(i);
    reused.on_give_up(GiveUpEvent{i, tool_name, strategy, buffer, at, OutcomeKind::timeout});
    apart.on_give_up(GiveUpEvent{i, tool_name, strategy, copies.back(), at, OutcomeKind::timeout});
    // The provider's name at the same address as the last reason, to a different table.
    reused.on_attempt(attempt(i, buffer, 1, at, at + 1, OutcomeKind::success, 200));
    apart.on_attempt(attempt(i, copies.back(), 1, at, at + 1, OutcomeKind::success, 200));
  }
  EXPECT_EQ(reused.fingerprint(), apart.fingerprint());
  ASSERT_EQ(reused.providers().size(), 3U);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(reused.providers()[i].name, apart.providers()[i].name);
    EXPECT_EQ(reused.providers()[i].calls, apart.providers()[i].calls);
  }
  EXPECT_EQ(provider(reused, "max_attempts").calls[index_of(OutcomeKind::success)], 3U);
  EXPECT_EQ(tool(reused, "web_search").give_ups, 6U);
}

// More names than the hints have room for (64 sets of two): they share sets, push one
// another out and are found in either way; every event still counts for its own name,
// and first sight still orders the table.
TEST(RecorderTest, ManyNamesTakingTurnsKeepTheirOwnCounts) {
  Recorder r;
  std::vector<std::string> names;
  for (int i = 0; i < 300; ++i) names.push_back("provider-" + std::to_string(i));
  std::vector<std::uint64_t> expected(names.size(), 0);
  std::uint64_t task = 0;
  const auto call = [&](std::size_t i) {
    const auto at = static_cast<TimePoint>(task);
    r.on_attempt(attempt(task++, names[i], 1, at, at + 1, OutcomeKind::success, 200));
    ++expected[i];
  };
  for (int round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < names.size(); ++i) call(i);
  }
  // Pairs and triples in turn, as a run's hot names take turns.
  for (std::size_t i = 0; i + 2 < names.size(); i += 7) {
    for (int k = 0; k < 5; ++k) {
      call(i);
      call(i + 1);
      call(i + 2);
      call(i + 1);
    }
  }
  ASSERT_EQ(r.providers().size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(r.providers()[i].name, names[i]);
    EXPECT_EQ(r.providers()[i].calls[index_of(OutcomeKind::success)], expected[i]) << names[i];
  }
}

TEST(RecorderTest, SameEventsGiveTheSameFingerprint) {
  Recorder a;
  Recorder b;
  feed_sample_run(a);
  feed_sample_run(b);
  EXPECT_EQ(a.fingerprint(), b.fingerprint());
  EXPECT_NE(a.fingerprint(), Recorder().fingerprint());
}

TEST(RecorderTest, FingerprintChangesWhenAnyEventChanges) {
  Recorder base;
  feed_sample_run(base);
  const auto with_extra = [](auto&& extra) {
    Recorder r;
    feed_sample_run(r);
    extra(r);
    return r.fingerprint();
  };
  const std::uint64_t same = with_extra([](Recorder&) {});
  const std::uint64_t later =
      with_extra([](Recorder& r) { r.on_attempt(attempt(5, "llm", 1, 0, 1, OutcomeKind::success, 200)); });
  const std::uint64_t one_ns_later =
      with_extra([](Recorder& r) { r.on_attempt(attempt(5, "llm", 1, 0, 2, OutcomeKind::success, 200)); });
  const std::uint64_t other_kind =
      with_extra([](Recorder& r) { r.on_attempt(attempt(5, "llm", 1, 0, 1, OutcomeKind::server_error, 200)); });
  const std::uint64_t other_cost =
      with_extra([](Recorder& r) { r.on_attempt(attempt(5, "llm", 1, 0, 1, OutcomeKind::success, 200, 0, 0, 1e-9)); });
  const std::uint64_t other_name =
      with_extra([](Recorder& r) { r.on_attempt(attempt(5, "llm2", 1, 0, 1, OutcomeKind::success, 200)); });
  const std::uint64_t other_reason = with_extra([](Recorder& r) {
    r.on_task_finished(TaskResult{5, "lookup", 0, 1, TaskStatus::failed, "timeout"});
  });
  const std::uint64_t another_reason = with_extra([](Recorder& r) {
    r.on_task_finished(TaskResult{5, "lookup", 0, 1, TaskStatus::failed, "overloaded"});
  });
  EXPECT_EQ(same, base.fingerprint());
  for (std::uint64_t changed : {later, one_ns_later, other_kind, other_cost, other_name, other_reason}) {
    EXPECT_NE(changed, base.fingerprint());
  }
  EXPECT_NE(later, one_ns_later);
  EXPECT_NE(later, other_kind);
  EXPECT_NE(later, other_cost);
  EXPECT_NE(later, other_name);
  EXPECT_NE(other_reason, another_reason);
}

TEST(RecorderTest, NamesThatDifferInAnyByteAreDifferentTools) {
  // Names of every length class the comparison treats apart (under 4 bytes, 4 to 7, 8,
  // over 8 and not a multiple of 8, 16, over 16), each next to one that differs only in its
  // first, a middle, or its last byte.
  const std::vector<std::string> names = {
      "a",
      "b",  // 1
      "abc",
      "abd",
      "xbc",  // 3
      "abcd",
      "abce",
      "zbcd",  // 4
      "search",
      "seArch",
      "searcj",  // 6
      "abcdefgh",
      "abcdefgi",
      "Abcdefgh",  // 8
      "abcdefghi",
      "abcdefghj",
      "abcdXfghi",  // 9
      "0123456789abcdef",
      "0123456789abcdeF",
      "0123456789Abcdef",  // 16
      "0123456789abcdefghijk",
      "0123456789abcdefghijK",
      "0123456789abcdeFghijk",  // 21
  };
  Recorder r;
  for (const std::string& name : names) r.on_logical_call(test_support::logical(name, 1, OutcomeKind::success));
  // Again, from other buffers holding the same text: each must find its own entry.
  for (const std::string& name : names)
    r.on_logical_call(test_support::logical(std::string(name), 1, OutcomeKind::success));
  ASSERT_EQ(r.tools().size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(r.tools()[i].name, names[i]);
    EXPECT_EQ(r.tools()[i].logical_calls, 2U) << names[i];
  }
}

TEST(RecorderTest, FingerprintTellsFixedIdentifiersApart) {
  // Identifiers are folded by their index among those seen, so the first sight of each
  // must make traces that differ only in them differ.
  const auto give_ups = [](std::string_view first_reason, std::string_view second_reason) {
    Recorder r;
    r.on_give_up(GiveUpEvent{1, "llm", "retry", first_reason, 5, OutcomeKind::timeout});
    r.on_give_up(GiveUpEvent{2, "llm", "retry", second_reason, 6, OutcomeKind::timeout});
    return r.fingerprint();
  };
  EXPECT_EQ(give_ups("max_attempts", "deadline"), give_ups("max_attempts", "deadline"));
  EXPECT_NE(give_ups("max_attempts", "deadline"), give_ups("max_attempts", "max_attempts"));
  EXPECT_NE(give_ups("max_attempts", "deadline"), give_ups("deadline", "max_attempts"));
  EXPECT_NE(give_ups("max_attempts", "deadline"), give_ups("max_attempts", "not_retryable"));
}

TEST(RecorderTest, FingerprintDependsOnArrivalOrder) {
  Recorder a;
  a.on_logical_call(test_support::logical("x", 1, OutcomeKind::success));
  a.on_logical_call(test_support::logical("x", 2, OutcomeKind::success));
  Recorder b;
  b.on_logical_call(test_support::logical("x", 2, OutcomeKind::success));
  b.on_logical_call(test_support::logical("x", 1, OutcomeKind::success));
  EXPECT_NE(a.fingerprint(), b.fingerprint());
}

TEST(RecorderTest, InjectedFaultsAreNotPartOfTheFingerprint) {
  Recorder a;
  Recorder b;
  b.set_injected_faults("p", "timeout", 1, {1});
  EXPECT_EQ(a.fingerprint(), b.fingerprint());
}

}  // namespace
}  // namespace squall

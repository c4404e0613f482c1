// A small synthetic run shared by the recorder, report and writer tests, with every
// aggregate derivable by hand. Window 10 s, duration 30 s.
//
// task 1 "research" 0 -> 3.5 s, succeeded, spent 1600 tokens, $0.0056
//   web_search #1   0     -> 0.2 s  rate_limited (429), then backoff 1 s
//   web_search #2   1.2 s -> 1.5 s  success                     logical call: 2 attempts
//   llm #1          1.5 s -> 3.5 s  success, 1200 in / 400 out, $0.0056  logical: 1
// task 2 "research" 12 s -> 22.3 s, failed "timeout", spent 1300 tokens, $0.0032
//   web_search #1   12 s   -> 12.1 s empty, query simplified (drop_quotes)
//   web_search #2   12.1 s -> 12.3 s success                    logical call: 2 attempts
//   llm #1          12.3 s -> 22.3 s timeout, 1200 in / 100 out, $0.0032  logical: 1
// breaker "llm" closed -> open at 22.3 s (cause consecutive_failures)
// task 3 "lookup" 23 s -> 23 s, failed "circuit_open"             llm logical: 0 attempts
// task 4 "lookup" 25 s -> 26 s, degraded "simplified_query"
//   web_search #1   25 s -> 26 s success                        logical call: 1 attempt
// injected faults: web_search rate_limited 1 (decided at 0: window 0), llm timeout 1
//   (decided at 12.3 s: window 1)
#pragma once

#include "reports/recorder.hpp"

namespace squall::test_support {

inline AttemptEvent attempt(std::uint64_t task, std::string_view tool, std::int32_t n, Nanos from, Nanos to,
                            OutcomeKind kind, int status, std::int64_t in = 0, std::int64_t out = 0, double usd = 0) {
  return AttemptEvent{task, tool, tool, n, from, to, kind, status, in, out, usd};
}

// A logical call of `tool`, served by the provider of the same name.
inline LogicalCallEvent logical(std::string_view tool, std::int32_t attempts, OutcomeKind kind) {
  return LogicalCallEvent{0, tool, tool, attempts, kind, 0};
}

// The run's events (20 of them), to any sink.
inline void feed_sample_events(EventSink& r) {
  constexpr Nanos ms = kMillisecond;
  r.on_attempt(attempt(1, "web_search", 1, 0, 200 * ms, OutcomeKind::rate_limited, 429));
  r.on_backoff(BackoffEvent{1, "web_search", 1, 200 * ms, 1000 * ms, false});
  r.on_attempt(attempt(1, "web_search", 2, 1200 * ms, 1500 * ms, OutcomeKind::success, 200));
  r.on_logical_call(logical("web_search", 2, OutcomeKind::success));
  r.on_attempt(attempt(1, "llm", 1, 1500 * ms, 3500 * ms, OutcomeKind::success, 200, 1200, 400, 0.0056));
  r.on_logical_call(logical("llm", 1, OutcomeKind::success));
  r.on_task_finished(TaskResult{1, "research", 0, 3500 * ms, TaskStatus::succeeded, "", 1600, 0.0056});

  r.on_attempt(attempt(2, "web_search", 1, 12'000 * ms, 12'100 * ms, OutcomeKind::empty, 200));
  r.on_query_change(
      QueryChangeEvent{2, "web_search", "simplify_query", "drop_quotes", 12'100 * ms, "\"acme\" 2024", "acme 2024"});
  r.on_attempt(attempt(2, "web_search", 2, 12'100 * ms, 12'300 * ms, OutcomeKind::success, 200));
  r.on_logical_call(logical("web_search", 2, OutcomeKind::success));
  r.on_attempt(attempt(2, "llm", 1, 12'300 * ms, 22'300 * ms, OutcomeKind::timeout, 0, 1200, 100, 0.0032));
  r.on_logical_call(logical("llm", 1, OutcomeKind::timeout));
  r.on_task_finished(TaskResult{2, "research", 12'000 * ms, 22'300 * ms, TaskStatus::failed, "timeout", 1300, 0.0032});

  r.on_breaker_transition(BreakerTransitionEvent{"llm", "llm", 22'300 * ms, BreakerState::closed, BreakerState::open,
                                                 BreakerCause::consecutive_failures});
  r.on_logical_call(logical("llm", 0, OutcomeKind::circuit_open));
  r.on_task_finished(TaskResult{3, "lookup", 23'000 * ms, 23'000 * ms, TaskStatus::failed, "circuit_open"});

  r.on_attempt(attempt(4, "web_search", 1, 25'000 * ms, 26'000 * ms, OutcomeKind::success, 200));
  r.on_logical_call(logical("web_search", 1, OutcomeKind::success));
  r.on_task_finished(TaskResult{4, "lookup", 25'000 * ms, 26'000 * ms, TaskStatus::degraded, "simplified_query"});
}

inline void feed_sample_run(Recorder& r) {
  feed_sample_events(r);
  r.set_injected_faults("web_search", "rate_limited", 1, {1});
  r.set_injected_faults("llm", "timeout", 1, {0, 1});
}

}  // namespace squall::test_support

// Attempts -> logical calls -> tasks. Only tasks are exogenous arrivals: the retries and
// fallbacks inside a call are the deployed policy's doing, and replaying them as load would
// count it twice and bake that policy into every later run (DESIGN section 8).
//
// Rules (docs/replay.md "Grouping"):
//   - a task is a trace (trace id); it starts at its agent span's start when it has one,
//     else at its first attempt's, and ends at the later of the two ends;
//   - within a task, attempts are taken in start order (then end, then input order) and
//     kept apart by lane: the same parent span and the same operation;
//   - attempts with the same call key (the requests one GenAI span made: its client's own
//     retries) are one call, and a new key opens a call unless its resend count says
//     otherwise (a span over its requests is a whole client call, so the timing rule
//     below never joins it to an earlier one);
//   - when the attempt's resend count is recorded: 0 opens a call, more joins the lane's
//     latest call (a resend with no call to join opens one and is counted);
//   - when it is not: the attempt joins the lane's latest call when that call's last
//     attempt failed (any kind but success and truncated: a cut answer is an answer), this one starts at or after its
//     end, and the gap is at most `max_retry_gap_ns` or the Retry-After that attempt recorded plus one second; else it
//     opens a call;
//   - a call whose attempts reach more than one target (provider and request model) is a
//     fallback; one whose attempts overlap in time is hedged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "replay/attempt_record.hpp"

namespace squall::replay {

struct GroupingOptions {
  // The longest pause between a failed attempt and its retry when resend counts are
  // missing. Default 60 s: above the retry delays of the OpenAI and Anthropic SDKs (at most
  // 8 s between attempts) and LiteLLM's router (cooldown 60 s).
  std::int64_t max_retry_gap_ns = 60'000'000'000;
};

struct LogicalCall {
  std::vector<std::size_t> attempts;  // indices into TraceData::attempts, in start order
  std::string parent_id;
  std::string operation;
  OutcomeKind outcome = OutcomeKind::success;  // the last attempt's (in start order)
  bool fallback = false;
  bool hedged = false;
};

struct ReplayTask {
  std::string trace_id;
  std::string name;  // the agent span's name; empty without one
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  bool has_agent_span = false;
  std::vector<LogicalCall> calls;  // in the order their first attempts started
};

struct GroupingCounts {
  std::uint64_t tasks = 0;
  std::uint64_t calls = 0;
  std::uint64_t attempts = 0;
  std::uint64_t fallback_calls = 0;
  std::uint64_t hedged_calls = 0;
  std::uint64_t joined_by_timing = 0;        // attempts joined to a call without a resend count
  std::uint64_t joined_in_span = 0;          // attempts joined to a call by their call key
  std::uint64_t resends_without_first = 0;   // a resend count > 0 with no call to join
  std::uint64_t tasks_without_attempts = 0;  // an agent span with no attempt under its trace
};

struct Grouping {
  std::vector<ReplayTask> tasks;  // by start, then trace id
  GroupingCounts counts;
};

Grouping group_attempts(const TraceData& data, const GroupingOptions& options = {});

}  // namespace squall::replay

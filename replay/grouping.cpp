#include "replay/grouping.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

namespace squall::replay {
namespace {

constexpr std::int64_t kRetryAfterSlackNs = 1'000'000'000;

struct Draft {
  ReplayTask task;
  std::vector<std::size_t> attempts;  // indices, in input order
};

std::string target_of(const AttemptRecord& a) { return a.provider + '\0' + a.request_model; }

// Whether `next` continues a call whose last attempt is `last` when resend counts are not
// recorded (the timing rule).
bool continues(const AttemptRecord& last, const AttemptRecord& next, const GroupingOptions& options) {
  if (answered(last.outcome)) return false;
  if (next.start_ns < last.end_ns) return false;
  const std::int64_t allowed = std::max(options.max_retry_gap_ns, last.retry_after_ns.value_or(0) + kRetryAfterSlackNs);
  return next.start_ns - last.end_ns <= allowed;
}

void finish_call(LogicalCall& call, const std::vector<AttemptRecord>& all, GroupingCounts& counts) {
  const std::string first_target = target_of(all[call.attempts.front()]);
  std::int64_t latest_end = all[call.attempts.front()].end_ns;
  for (std::size_t k = 1; k < call.attempts.size(); ++k) {
    const AttemptRecord& a = all[call.attempts[k]];
    if (target_of(a) != first_target) call.fallback = true;
    if (a.start_ns < latest_end) call.hedged = true;
    latest_end = std::max(latest_end, a.end_ns);
  }
  call.outcome = all[call.attempts.back()].outcome;
  counts.fallback_calls += call.fallback ? 1 : 0;
  counts.hedged_calls += call.hedged ? 1 : 0;
}

void group_task(Draft& draft, const std::vector<AttemptRecord>& all, const GroupingOptions& options,
                GroupingCounts& counts) {
  std::vector<std::size_t>& order = draft.attempts;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return std::pair(all[x].start_ns, all[x].end_ns) < std::pair(all[y].start_ns, all[y].end_ns);
  });
  std::map<std::pair<std::string, std::string>, std::size_t> lane_call;  // (parent, operation) -> latest call
  std::map<std::string, std::size_t> keyed_call;                         // call key -> its call
  // A call key's last request: where the span's call ended, and how, for the timing rule
  // (a later span is a retry only of the whole call, not of a request the SDK retried).
  std::map<std::string, std::size_t> key_last;
  for (const std::size_t i : order) {
    if (!all[i].call_key.empty()) key_last[all[i].call_key] = i;
  }
  std::vector<LogicalCall>& calls = draft.task.calls;
  for (const std::size_t i : order) {
    const AttemptRecord& a = all[i];
    const auto keyed = a.call_key.empty() ? keyed_call.end() : keyed_call.find(a.call_key);
    if (keyed != keyed_call.end()) {
      calls[keyed->second].attempts.push_back(i);
      ++counts.joined_in_span;
      continue;
    }
    const auto lane = std::pair(a.parent_id, a.operation);
    const auto latest = lane_call.find(lane);
    bool join = false;
    if (a.resend_count) {
      join = *a.resend_count > 0 && latest != lane_call.end();
      if (*a.resend_count > 0 && latest == lane_call.end()) ++counts.resends_without_first;
    } else if (latest != lane_call.end() && a.call_key.empty()) {  // a keyed span is a whole call
      std::size_t last = calls[latest->second].attempts.back();
      if (!all[last].call_key.empty()) last = key_last[all[last].call_key];
      join = continues(all[last], a, options);
      counts.joined_by_timing += join ? 1 : 0;
    }
    if (!join) {
      calls.push_back(LogicalCall{{}, a.parent_id, a.operation});
      lane_call[lane] = calls.size() - 1;
    }
    const std::size_t call = lane_call[lane];
    calls[call].attempts.push_back(i);
    if (!a.call_key.empty()) keyed_call.emplace(a.call_key, call);
  }
  for (LogicalCall& call : calls) finish_call(call, all, counts);
  counts.calls += calls.size();
  counts.attempts += order.size();
}

}  // namespace

Grouping group_attempts(const TraceData& data, const GroupingOptions& options) {
  std::map<std::string, Draft> drafts;  // by trace id
  for (const AgentSpan& agent : data.agents) {
    Draft& d = drafts[agent.trace_id];
    // The trace's first agent span is the task's (a nested agent's span lies within it).
    if (!d.task.has_agent_span || agent.start_ns < d.task.start_ns) {
      d.task.name = agent.name;
      d.task.start_ns = agent.start_ns;
    }
    d.task.end_ns = d.task.has_agent_span ? std::max(d.task.end_ns, agent.end_ns) : agent.end_ns;
    d.task.has_agent_span = true;
  }
  for (std::size_t i = 0; i < data.attempts.size(); ++i) {
    const AttemptRecord& a = data.attempts[i];
    Draft& d = drafts[a.trace_id];
    if (d.attempts.empty() && !d.task.has_agent_span) {
      d.task.start_ns = a.start_ns;
      d.task.end_ns = a.end_ns;
    }
    if (!d.task.has_agent_span) d.task.start_ns = std::min(d.task.start_ns, a.start_ns);
    d.task.end_ns = std::max(d.task.end_ns, a.end_ns);
    d.attempts.push_back(i);
  }
  Grouping g;
  for (auto& [trace_id, draft] : drafts) {
    draft.task.trace_id = trace_id;
    if (draft.attempts.empty()) ++g.counts.tasks_without_attempts;
    group_task(draft, data.attempts, options, g.counts);
    g.tasks.push_back(std::move(draft.task));
  }
  std::stable_sort(g.tasks.begin(), g.tasks.end(),
                   [](const ReplayTask& x, const ReplayTask& y) { return x.start_ns < y.start_ns; });
  g.counts.tasks = g.tasks.size();
  return g;
}

}  // namespace squall::replay

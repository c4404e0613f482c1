#include "replay/policy_fit.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "replay/workload_fit.hpp"

namespace squall::replay {
namespace {

constexpr Nanos kRetryAfterSlackNs = 1'000'000;  // 1 ms: a wait "of" the Retry-After
constexpr Nanos kUnjitteredSlackNs = 1'000'000;
constexpr double kUnjitteredSpread = 0.05;

// What one tool's calls showed, before it is turned into strategies.
struct ToolEvidence {
  std::map<std::string, std::uint64_t> first_providers;
  std::uint64_t calls = 0;
  std::int32_t longest_run = 1;
  std::set<OutcomeKind> retried_after;
  std::uint64_t retries = 0;
  std::map<std::int32_t, std::vector<Nanos>> waits;  // retry number n -> waits
  std::uint64_t retry_after_samples = 0;
  std::uint64_t retry_after_honoured = 0;
  Nanos max_honoured = 0;
  std::vector<std::string> fallback_order;
  std::set<OutcomeKind> fallback_on;
  std::uint64_t moves = 0;
  std::vector<Nanos> timeout_lengths;
};

void note_retry(ToolEvidence& e, const AttemptRecord& prev, const AttemptRecord& next, std::int32_t n) {
  if (prev.outcome != OutcomeKind::success) e.retried_after.insert(prev.outcome);
  ++e.retries;
  const Nanos wait = std::max<Nanos>(0, next.start_ns - prev.end_ns);
  if (prev.retry_after_ns) {
    ++e.retry_after_samples;
    if (wait + kRetryAfterSlackNs >= *prev.retry_after_ns) {
      ++e.retry_after_honoured;
      e.max_honoured = std::max(e.max_honoured, *prev.retry_after_ns);
      return;  // the server's delay, not the backoff's
    }
  }
  e.waits[n].push_back(wait);
}

void note_call(ToolEvidence& e, const LogicalCall& call, const TraceData& data) {
  ++e.calls;
  const AttemptRecord& first = data.attempts[call.attempts.front()];
  ++e.first_providers[first.provider];
  std::int32_t run = 1;
  for (std::size_t i = 0; i < call.attempts.size(); ++i) {
    const AttemptRecord& a = data.attempts[call.attempts[i]];
    if (a.outcome == OutcomeKind::timeout) e.timeout_lengths.push_back(a.end_ns - a.start_ns);
    if (i == 0) continue;
    const AttemptRecord& prev = data.attempts[call.attempts[i - 1]];
    if (a.provider == prev.provider) {
      note_retry(e, prev, a, run);
      e.longest_run = std::max(e.longest_run, ++run);
      continue;
    }
    run = 1;
    ++e.moves;
    e.fallback_on.insert(prev.outcome);
    if (a.provider != first.provider &&
        std::find(e.fallback_order.begin(), e.fallback_order.end(), a.provider) == e.fallback_order.end())
      e.fallback_order.push_back(a.provider);
  }
}

// d_n for retry number n: the waits' median when unjittered, else twice it (the bound of a
// uniform on [0, d], estimated by its median: robust to the long waits of a retry that
// also sat out other strategies' refusals, which a maximum is not).
Nanos delay_of(std::vector<Nanos> waits, bool jittered) {
  std::sort(waits.begin(), waits.end());
  const Nanos median = waits[(waits.size() - 1) / 2];
  return jittered ? 2 * median : median;
}

bool unjittered(const std::vector<Nanos>& waits) {
  const auto [lo, hi] = std::minmax_element(waits.begin(), waits.end());
  const double spread = static_cast<double>(*hi - *lo);
  return spread <= kUnjitteredSpread * static_cast<double>(*hi) || *hi - *lo <= kUnjitteredSlackNs;
}

void fit_backoff(RetryFit& fit, const ToolEvidence& e) {
  bool jittered = false;
  for (const auto& [n, waits] : e.waits) {
    fit.backoff_samples += waits.size();
    jittered = jittered || !unjittered(waits);
  }
  fit.backoff_retries = static_cast<std::int32_t>(e.waits.size());
  if (e.waits.empty()) return;
  fit.jitter = jittered ? Jitter::full : Jitter::none;
  std::vector<Nanos> delays;
  for (const auto& [n, waits] : e.waits) delays.push_back(delay_of(waits, jittered));
  fit.base_delay = delays.front();
  fit.max_delay = *std::max_element(delays.begin(), delays.end());
  const auto second = e.waits.find(2);
  if (second != e.waits.end() && fit.base_delay > 0) {
    const double ratio = static_cast<double>(delay_of(second->second, jittered)) / static_cast<double>(fit.base_delay);
    if (ratio >= 1.5 && ratio <= 3.0) fit.backoff = Backoff::exponential;
  }
}

// A client's per-attempt timeout cuts its attempts at one length: the length (to the
// millisecond) that at least half of the timeout attempts share, and at least two. Timeouts
// of scattered lengths were cut by something else (a task's deadline, a total timeout).
std::optional<TimeoutFit> latency_ceiling(const std::vector<Nanos>& lengths) {
  constexpr Nanos kMs = 1'000'000;
  std::map<Nanos, std::uint64_t> by_ms;
  for (Nanos n : lengths) ++by_ms[(n + kMs / 2) / kMs];
  for (const auto& [ms, count] : by_ms) {
    if (count >= 2 && 2 * count >= lengths.size()) return TimeoutFit{ms * kMs, lengths.size()};
  }
  return std::nullopt;
}

ToolPolicyFit make_fit(const std::string& tool, const ToolEvidence& e) {
  ToolPolicyFit fit;
  fit.tool = tool;
  std::uint64_t best = 0;
  for (const auto& [provider, n] : e.first_providers) {
    if (n > best) {
      fit.primary = provider;
      best = n;
    }
  }
  RetryFit& r = fit.retry;
  r.calls = e.calls;
  r.retry_on.assign(e.retried_after.begin(), e.retried_after.end());
  // Runs of attempts with no failure before a re-send (an application asking again after
  // an answer) are no retry policy: the loader refuses a retry that retries nothing.
  r.max_attempts = r.retry_on.empty() ? 1 : e.longest_run;
  r.retries = e.retries;
  fit_backoff(r, e);
  r.retry_after_samples = e.retry_after_samples;
  r.retry_after_honoured = e.retry_after_honoured;
  if (e.retry_after_samples > 0) {
    r.honour_retry_after = 2 * e.retry_after_honoured >= e.retry_after_samples;
    r.max_retry_after = e.max_honoured;
  }
  if (!e.fallback_order.empty()) {
    fit.fallback =
        FallbackFit{e.fallback_order, std::vector<OutcomeKind>(e.fallback_on.begin(), e.fallback_on.end()), e.moves};
  }
  if (auto ceiling = latency_ceiling(e.timeout_lengths)) fit.timeout = ceiling;
  return fit;
}

}  // namespace

std::vector<ToolPolicyFit> fit_policy(const TraceData& data, const Grouping& grouping) {
  std::map<std::string, ToolEvidence> tools;
  for (const ReplayTask& task : grouping.tasks) {
    for (const LogicalCall& call : task.calls)
      note_call(tools[tool_of(data.attempts[call.attempts.front()])], call, data);
  }
  std::vector<ToolPolicyFit> out;
  for (const auto& [tool, evidence] : tools) out.push_back(make_fit(tool, evidence));
  return out;
}

}  // namespace squall::replay

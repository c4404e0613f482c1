#include "replay/policy_fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "replay/workload_fit.hpp"

namespace squall::replay {
namespace {

constexpr Nanos kRetryAfterSlackNs = 1'000'000;  // 1 ms: a wait "of" the Retry-After
constexpr Nanos kUnjitteredSlackNs = 1'000'000;
constexpr double kUnjitteredSpread = 0.05;
// Waits of one retry number needed to tell a jitter's low end; a low end from which the
// jitter is proportional, not full.
constexpr std::size_t kMinJitterSamples = 4;
constexpr double kMinProportionalLow = 0.2;

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

// d_n for retry number n from the waits' median: the median itself when unjittered; for a
// factor uniform in [low, 1] (full jitter: low 0), median / ((1 + low) / 2). A median is
// robust to the long waits of a retry that also sat out other strategies' refusals, which
// a maximum is not.
Nanos delay_of(std::vector<Nanos> waits, bool jittered, double low) {
  std::sort(waits.begin(), waits.end());
  const Nanos median = waits[(waits.size() - 1) / 2];
  return jittered ? static_cast<Nanos>(std::llround(2.0 * static_cast<double>(median) / (1.0 + low))) : median;
}

bool unjittered(const std::vector<Nanos>& waits) {
  const auto [lo, hi] = std::minmax_element(waits.begin(), waits.end());
  const double spread = static_cast<double>(*hi - *lo);
  return spread <= kUnjitteredSpread * static_cast<double>(*hi) || *hi - *lo <= kUnjitteredSlackNs;
}

// The low end of a jitter factor uniform in [low, 1], from waits of one retry number: the
// ratio of a uniform's endpoints by their minimum-variance unbiased estimators,
// (n min - max) / (n - 1) over (n max - min) / (n - 1). Needs kMinJitterSamples waits.
std::optional<double> low_factor(const std::vector<Nanos>& waits) {
  if (waits.size() < kMinJitterSamples) return std::nullopt;
  const auto [lo, hi] = std::minmax_element(waits.begin(), waits.end());
  const double n = static_cast<double>(waits.size());
  const double a = (n * static_cast<double>(*lo) - static_cast<double>(*hi)) / (n - 1);
  const double b = (n * static_cast<double>(*hi) - static_cast<double>(*lo)) / (n - 1);
  return b > 0 ? std::clamp(a / b, 0.0, 1.0) : 0.0;
}

// The jitter: none when every retry number's waits agree within 5%; else a factor uniform
// in [low, 1], low the median over retry numbers of low_factor, written as proportional
// jitter (the OpenAI and Anthropic SDKs draw 1 - 0.25 u: [0.75, 1]) when low is at least
// kMinProportionalLow, else full jitter ([0, 1]).
void fit_jitter(RetryFit& fit, const ToolEvidence& e) {
  bool jittered = false;
  std::vector<double> lows;
  for (const auto& [n, waits] : e.waits) {
    jittered = jittered || !unjittered(waits);
    if (const auto low = low_factor(waits)) lows.push_back(*low);
  }
  fit.jitter = jittered ? Jitter::full : Jitter::none;
  if (!jittered || lows.empty()) return;
  std::sort(lows.begin(), lows.end());
  const double low = std::round(lows[(lows.size() - 1) / 2] * 20) / 20;  // to 0.05
  if (low < kMinProportionalLow) return;
  fit.jitter = Jitter::proportional;
  fit.jitter_low = std::min(low, 0.95);
}

void fit_backoff(RetryFit& fit, const ToolEvidence& e) {
  for (const auto& [n, waits] : e.waits) fit.backoff_samples += waits.size();
  fit.backoff_retries = static_cast<std::int32_t>(e.waits.size());
  if (e.waits.empty()) return;
  fit_jitter(fit, e);
  const bool jittered = fit.jitter != Jitter::none;
  std::vector<Nanos> delays;
  for (const auto& [n, waits] : e.waits) delays.push_back(delay_of(waits, jittered, fit.jitter_low));
  fit.base_delay = delays.front();
  fit.max_delay = *std::max_element(delays.begin(), delays.end());
  const auto second = e.waits.find(2);
  if (second != e.waits.end() && fit.base_delay > 0) {
    const double ratio =
        static_cast<double>(delay_of(second->second, jittered, fit.jitter_low)) / static_cast<double>(fit.base_delay);
    if (ratio >= 1.5 && ratio <= 3.0) fit.backoff = Backoff::exponential;
  }
}

// A client's per-attempt timeout cuts its attempts at one length, give or take the client's
// own overhead: the largest cluster of timeout lengths within max(5 ms, 2%) of its shortest,
// when it holds at least half of them and two; its shortest, to the millisecond, is the
// ceiling. Timeouts of scattered lengths were cut by something else (a task's deadline, a
// total timeout).
std::optional<TimeoutFit> latency_ceiling(std::vector<Nanos> lengths) {
  constexpr Nanos kMs = 1'000'000;
  constexpr Nanos kSlack = 5 * kMs;
  std::sort(lengths.begin(), lengths.end());
  std::size_t best_from = 0;
  std::size_t best_count = 0;
  std::size_t to = 0;
  for (std::size_t from = 0; from < lengths.size(); ++from) {
    const Nanos limit = lengths[from] + std::max(kSlack, lengths[from] / 50);
    to = std::max(to, from);
    while (to < lengths.size() && lengths[to] <= limit) ++to;
    if (to - from > best_count) {
      best_from = from;
      best_count = to - from;
    }
  }
  if (best_count < 2 || 2 * best_count < lengths.size()) return std::nullopt;
  return TimeoutFit{(lengths[best_from] + kMs / 2) / kMs * kMs, lengths.size()};
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

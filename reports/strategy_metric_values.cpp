#include "reports/strategy_metric_values.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "reports/metric_aggregations.hpp"
#include "reports/trend.hpp"

namespace squall {
namespace {

double cache_actions(const Recorder& r, const Threshold& t, CacheAction action) {
  return sum_by_tool(r.caches(), t,
                     [action](const CacheStats& s) { return s.actions[static_cast<std::size_t>(action)]; });
}

double cache_calls_saved(const Recorder& r, const Threshold& t) {
  return sum_by_tool(r.caches(), t, [](const CacheStats& s) { return s.calls_saved; });
}

std::vector<Trend::Part> cache_stale_age(const Recorder& r, const Threshold& t) {
  std::vector<Trend::Part> parts;
  for (const CacheStats& s : r.caches()) {
    if (admits(t, "tool", s.name)) s.stale_age.append_parts(parts);
  }
  return parts;
}

double hedges(const Recorder& r, const Threshold& t) {
  std::uint64_t n = 0;
  for (const HedgeStats& s : r.hedges()) {
    if (!admits(t, "tool", s.name)) continue;
    for (const HedgeAction action : kHedgeActions) {
      if (admits(t, "action", to_string(action))) n += s.actions[static_cast<std::size_t>(action)];
    }
  }
  return static_cast<double>(n);
}

std::uint64_t hedge_actions(const Recorder& r, const Threshold& t, HedgeAction action) {
  return static_cast<std::uint64_t>(sum_by_tool(
      r.hedges(), t, [action](const HedgeStats& s) { return s.actions[static_cast<std::size_t>(action)]; }));
}

double hedge_loser_cost_usd(const Recorder& r, const Threshold& t) {
  double usd = 0;
  for (const HedgeStats& s : r.hedges()) {
    if (admits(t, "tool", s.name)) usd += s.loser_cost_usd;
  }
  return usd;
}

// Per time-series window of the run from a limiter's first call, the lowest limit of each
// admitted adaptive_concurrency limiter (reports/limiter_stats.hpp).
std::vector<std::int64_t> limit_lows(const Recorder& r, const Threshold& t, Nanos duration) {
  const auto windows =
      std::min(kMaxWindows, static_cast<std::size_t>((std::max<Nanos>(duration, 0) + r.window() - 1) / r.window()));
  std::vector<std::int64_t> lows;
  for (const LimiterStats& l : r.limiters()) {
    if (!admits(t, "tool", l.name)) continue;
    for (const LimitRange& w : l.series(windows)) {
      if (w.seen) lows.push_back(w.lowest);
    }
  }
  return lows;
}

// Every dip's recovery time (an open one's to the run's end) of the admitted limiters; a
// single 0 when they never dipped, so that "max<30s" (every dip recovered within 30 s)
// holds for a run without dips rather than failing on no samples.
std::vector<std::int64_t> limit_recoveries(const Recorder& r, const Threshold& t, Nanos duration) {
  std::vector<std::int64_t> times;
  bool limited = false;
  for (const LimiterStats& l : r.limiters()) {
    if (!admits(t, "tool", l.name)) continue;
    limited = true;
    for (const LimitDip& d : l.recoveries(duration)) times.push_back(d.recovery);
  }
  if (limited && times.empty()) times.push_back(0);
  return times;
}

// Each backoff's delay, of the tools (or providers, for an sdk_retry) the threshold admits.
std::vector<Trend::Part> backoff_delays(const Recorder& r, const Threshold& t) {
  std::vector<Trend::Part> parts;
  for (const ToolStats& s : r.tools()) {
    if (admits(t, "tool", s.name)) s.backoff_delays.append_parts(parts);
  }
  return parts;
}

}  // namespace

bool is_strategy_metric(MetricId id) {
  switch (id) {
    case MetricId::cache_hits:
    case MetricId::cache_misses:
    case MetricId::cache_coalesced:
    case MetricId::cache_wait_timeouts:
    case MetricId::cache_stale:
    case MetricId::cache_stale_age:
    case MetricId::cache_evictions:
    case MetricId::cache_calls_saved:
    case MetricId::hedges:
    case MetricId::hedged_fraction:
    case MetricId::hedge_loser_cost_usd:
    case MetricId::concurrency_limit:
    case MetricId::limit_recovery_time:
    case MetricId::backoff_delay: return true;
    default: return false;
  }
}

std::optional<double> observe_strategy(const Recorder& r, const Threshold& t, MetricId id, Nanos duration,
                                       std::uint64_t tasks) {
  const ThresholdExpression& e = t.parsed;
  switch (id) {
    case MetricId::cache_hits: return counter_value(cache_actions(r, t, CacheAction::hit), e, duration, tasks);
    case MetricId::cache_misses: return counter_value(cache_actions(r, t, CacheAction::miss), e, duration, tasks);
    case MetricId::cache_coalesced:
      return counter_value(cache_actions(r, t, CacheAction::coalesced), e, duration, tasks);
    case MetricId::cache_wait_timeouts:
      return counter_value(cache_actions(r, t, CacheAction::wait_timeout), e, duration, tasks);
    case MetricId::cache_stale: return counter_value(cache_actions(r, t, CacheAction::stale), e, duration, tasks);
    case MetricId::cache_stale_age: return trend_value(cache_stale_age(r, t), e, kMillisecond);
    case MetricId::cache_evictions: return counter_value(cache_actions(r, t, CacheAction::evicted), e, duration, tasks);
    case MetricId::cache_calls_saved: return counter_value(cache_calls_saved(r, t), e, duration, tasks);
    case MetricId::hedges: return counter_value(hedges(r, t), e, duration, tasks);
    case MetricId::hedged_fraction: {
      const std::uint64_t primaries = hedge_actions(r, t, HedgeAction::primary);
      if (primaries == 0) return std::nullopt;
      return static_cast<double>(hedge_actions(r, t, HedgeAction::launched)) / static_cast<double>(primaries);
    }
    case MetricId::hedge_loser_cost_usd: return counter_value(hedge_loser_cost_usd(r, t), e, duration, tasks);
    case MetricId::concurrency_limit: return trend_value({Trend::Part(limit_lows(r, t, duration))}, e, 1);
    case MetricId::limit_recovery_time:
      return trend_value({Trend::Part(limit_recoveries(r, t, duration))}, e, kMillisecond);
    case MetricId::backoff_delay: return trend_value(backoff_delays(r, t), e, kMillisecond);
    default: return std::nullopt;
  }
}

}  // namespace squall

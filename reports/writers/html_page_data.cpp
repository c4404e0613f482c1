#include "reports/writers/html_page_data.hpp"

#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "reports/rounding.hpp"
#include "reports/threshold.hpp"

namespace squall {
namespace {

using Json = nlohmann::ordered_json;

double in_seconds(Nanos t) { return round_ms(t) / 1000.0; }

// Each breaker's state at 0 and at every transition time of any breaker (uPlot draws the
// series of one chart over one x array), then at the end of the run.
Json breakers(const Report& r) {
  std::set<Nanos> times{0};
  std::map<std::string, std::vector<const BreakerTransitionRow*>> by_label;
  for (const BreakerTransitionRow& t : r.breaker_transitions) {
    times.insert(t.at);
    by_label[fmt::format("{} -> {}", t.tool, t.provider.empty() ? t.tool : t.provider)].push_back(&t);
  }
  const Nanos end = std::max(r.duration, times.empty() ? Nanos{0} : *times.rbegin());
  times.insert(end);
  Json t = Json::array();
  for (const Nanos at : times) t.push_back(in_seconds(at));
  Json series = Json::array();
  if (!r.breaker_transitions.empty()) {
    for (const auto& [label, rows] : by_label) {
      Json state = Json::array();
      BreakerState now = rows.front()->from;
      std::size_t next = 0;
      for (const Nanos at : times) {
        while (next < rows.size() && rows[next]->at <= at) now = rows[next++]->to;
        state.push_back(now == BreakerState::closed ? 0 : now == BreakerState::half_open ? 1 : 2);
      }
      series.push_back(Json{{"label", label}, {"state", std::move(state)}});
    }
  }
  return Json{{"t", std::move(t)}, {"series", std::move(series)}};
}

// The non-zero rows of Report::injected_faults, each with its count per window.
Json injected_fault_series(const Report& r) {
  Json rows = Json::array();
  for (std::size_t f = 0; f < r.injected_faults.size(); ++f) {
    if (r.injected_faults[f].count == 0) continue;
    Json counts = Json::array();
    for (const TimeWindow& w : r.time_series.windows) counts.push_back(w.injected_faults[f]);
    rows.push_back(Json{{"provider", r.injected_faults[f].provider},
                        {"kind", r.injected_faults[f].kind},
                        {"counts", std::move(counts)}});
  }
  return rows;
}

// One value per window.
template <class F>
Json per_window(const Report& r, F value) {
  Json values = Json::array();
  for (const TimeWindow& w : r.time_series.windows) values.push_back(value(w));
  return values;
}

Json task_series(const Report& r) {
  Json tasks = Json::object();
  for (std::size_t i = 0; i < kTaskStatusCount; ++i) {
    tasks[std::string(to_string(static_cast<TaskStatus>(i)))] =
        per_window(r, [i](const TimeWindow& w) { return w.tasks[i]; });
  }
  return tasks;
}

// task_success per window: succeeded or degraded over finished; null where none finished.
Json success_rate(const Report& r) {
  return per_window(r, [](const TimeWindow& w) -> Json {
    const std::uint64_t n = std::accumulate(w.tasks.begin(), w.tasks.end(), std::uint64_t{0});
    if (n == 0) return nullptr;
    const std::uint64_t ok = w.tasks[static_cast<std::size_t>(TaskStatus::succeeded)] +
                             w.tasks[static_cast<std::size_t>(TaskStatus::degraded)];
    return round_ratio(static_cast<double>(ok) / static_cast<double>(n));
  });
}

// Null where no task finished: uPlot leaves a gap there rather than draw a zero.
Json latency_series(const Report& r) {
  const auto series = [&r](double LatencyStats::*field) {
    return per_window(r, [field](const TimeWindow& w) -> Json {
      if (w.task_latency.count == 0) return nullptr;
      return round_ms(w.task_latency.*field);
    });
  };
  Json latency = Json::object();
  latency["p50"] = series(&LatencyStats::p50_ms);
  latency["p99"] = series(&LatencyStats::p99_ms);
  latency["max"] = series(&LatencyStats::max_ms);
  return latency;
}

Json provider_series(const Report& r, std::size_t p) {
  Json outcomes = Json::object();
  for (const OutcomeKind kind : all_outcome_kinds()) {
    const auto k = static_cast<std::size_t>(kind);
    if (r.providers[p].by_outcome[k] == 0) continue;
    outcomes[std::string(to_string(kind))] =
        per_window(r, [p, k](const TimeWindow& w) { return w.provider_calls[p][k]; });
  }
  return Json{
      {"name", r.providers[p].name},
      {"attempts", per_window(r,
                              [p](const TimeWindow& w) {
                                const OutcomeCounts& c = w.provider_calls[p];
                                return std::accumulate(c.begin(), c.end(), std::uint64_t{0});
                              })},
      {"outcomes", std::move(outcomes)},
      {"tokens", per_window(r, [p](const TimeWindow& w) { return w.provider_spend[p].tokens; })},
      {"cost_usd", per_window(r, [p](const TimeWindow& w) { return round_usd(w.provider_spend[p].cost_usd); })}};
}

Json histogram(const Report& r) {
  const LatencyHistogram& h = r.latency_histogram;
  return Json{{"bucket_ms", round_ms(h.bucket)}, {"counts", h.counts}};
}

// The run's end in seconds: where a window open to the end of the run stops.
double end_s(const Report& r) {
  const std::vector<TimeWindow>& w = r.time_series.windows;
  const Nanos end = w.empty() ? r.duration : std::max(r.duration, w.back().start + r.time_series.window);
  return in_seconds(end);
}

Json schedule(const Report& r) {
  const double end = end_s(r);
  const auto to = [end](TimePoint t) { return t == kNever ? end : std::min(end, in_seconds(t)); };
  Json faults = Json::array();
  for (const FaultWindowRow& f : r.schedule.faults) {
    faults.push_back(Json{{"provider", f.provider},
                          {"kind", f.kind},
                          {"outage", f.outage},
                          {"from", in_seconds(f.from)},
                          {"to", to(f.to)},
                          {"probability", f.probability},
                          {"flapping", f.flapping}});
  }
  Json bursts = Json::array();
  for (const BurstRow& b : r.schedule.bursts) {
    bursts.push_back(Json{{"from", in_seconds(b.from)}, {"to", to(b.to)}, {"rate_per_s", b.rate_per_s}});
  }
  return Json{{"faults", std::move(faults)}, {"bursts", std::move(bursts)}};
}

// The chart a threshold bounds, or "" for none the page draws: task_latency (ms) on the
// latency charts, task_success on the success rate, cost_usd's total on the cumulative cost.
std::string bounded_chart(const Threshold& t) {
  const Aggregation a = t.parsed.aggregation;
  if (t.metric_name == "task_latency" && t.tags.empty()) return "task_latency";
  if (t.metric_name == "task_success" && t.tags.empty()) return "task_success";
  if (t.metric_name == "cost_usd" && (a == Aggregation::count || a == Aggregation::sum)) return "cost_usd";
  return "";
}

Json threshold_lines(const Report& r) {
  Json lines = Json::array();
  for (const ThresholdResult& result : r.thresholds) {
    const auto parsed = parse_threshold(result.metric, result.expression);
    if (const auto* t = std::get_if<Threshold>(&parsed)) {
      const std::string chart = bounded_chart(*t);
      if (chart.empty()) continue;
      lines.push_back(Json{{"chart", chart},
                           {"label", fmt::format("{} {}", result.metric, result.expression)},
                           {"value", t->parsed.value},
                           {"passed", result.passed}});
    }
  }
  return lines;
}

// Each adaptive_concurrency limiter's lowest and highest limit per window, null before
// its first call.
Json limiter_series(const Report& r) {
  Json rows = Json::array();
  for (const LimiterSummary& l : r.limiters) {
    Json lowest = Json::array();
    Json highest = Json::array();
    for (std::size_t w = 0; w < r.time_series.windows.size(); ++w) {
      const bool seen = w < l.by_window.size() && l.by_window[w].seen;
      lowest.push_back(seen ? Json(l.by_window[w].lowest) : Json());
      highest.push_back(seen ? Json(l.by_window[w].highest) : Json());
    }
    rows.push_back(Json{{"name", l.tool}, {"lowest", std::move(lowest)}, {"highest", std::move(highest)}});
  }
  return rows;
}

Json names(auto values) {
  Json out = Json::array();
  for (const auto v : values) out.push_back(std::string(to_string(v)));
  return out;
}

}  // namespace

Json html_page_data(const Report& r) {
  Json data;
  data["window_s"] = in_seconds(r.time_series.window);
  data["end_s"] = end_s(r);
  data["t"] = per_window(r, [](const TimeWindow& w) { return in_seconds(w.start); });
  data["outcome_kinds"] = names(all_outcome_kinds());
  data["tasks"] = task_series(r);
  data["task_success"] = success_rate(r);
  data["tasks_in_flight"] = per_window(r, [](const TimeWindow& w) { return w.tasks_in_flight; });
  data["task_latency_ms"] = latency_series(r);
  data["latency_histogram"] = histogram(r);
  Json providers = Json::array();
  for (std::size_t p = 0; p < r.providers.size(); ++p) providers.push_back(provider_series(r, p));
  data["providers"] = std::move(providers);
  data["injected_faults"] = injected_fault_series(r);
  data["breakers"] = breakers(r);
  data["breaker_transitions_shown"] = r.breaker_transitions.size();
  data["breaker_transitions_total"] = r.breaker_transitions_total;
  data["limiters"] = limiter_series(r);
  data["schedule"] = schedule(r);
  data["thresholds"] = threshold_lines(r);
  return data;
}

}  // namespace squall

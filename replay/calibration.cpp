#include "replay/calibration.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace squall::replay {
namespace {

constexpr std::int64_t kMinWindowNs = 10'000'000'000;
constexpr std::size_t kWindowsPerRun = 40;

// Nearest rank: the value at rank ceil(q n) (at least 1) of the sorted values.
// The task got its answer: a success, or a cut one the application used.

double nearest_rank(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

std::size_t window_of(const std::vector<std::int64_t>& edges, std::int64_t t) {
  const auto it = std::upper_bound(edges.begin(), edges.end(), t);
  const auto index = static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, it - edges.begin() - 1));
  return std::min(index, edges.size() - 2);
}

struct WindowTasks {
  std::uint64_t tasks = 0;
  std::uint64_t succeeded = 0;
  std::vector<double> latencies_ms;
};

}  // namespace

std::vector<std::int64_t> calibration_edges(const ReplayFit& fit) {
  std::set<std::int64_t> candidates;
  for (const FaultWindowFit& w : fit.faults.windows) candidates.insert({w.from_ns, w.to_ns});
  for (const Burst& b : fit.arrivals.arrivals.bursts) candidates.insert({b.from, b.to});
  const std::int64_t min_width =
      std::max<std::int64_t>(kMinWindowNs, fit.duration_ns / static_cast<std::int64_t>(kWindowsPerRun));
  std::vector<std::int64_t> edges{0};
  for (std::int64_t e : candidates) {
    if (e - edges.back() >= min_width && fit.duration_ns - e >= min_width) edges.push_back(e);
  }
  edges.push_back(std::max<std::int64_t>(fit.duration_ns, edges.back() + 1));
  return edges;
}

std::vector<Figures> window_figures(const TraceData& data, const Grouping& grouping, std::int64_t origin_ns,
                                    const std::vector<std::int64_t>& edges) {
  const std::size_t n = edges.size() - 1;
  std::vector<Figures> figures(n);
  std::vector<WindowTasks> tasks(n);
  for (const ReplayTask& t : grouping.tasks) {
    WindowTasks& w = tasks[window_of(edges, t.start_ns - origin_ns)];
    ++w.tasks;
    // A truncated answer that ended its task was accepted: nothing retried it.
    if (!t.calls.empty() && answered(t.calls.back().outcome)) ++w.succeeded;
    w.latencies_ms.push_back(static_cast<double>(t.end_ns - t.start_ns) / 1e6);
  }
  for (std::size_t i = 0; i < n; ++i) {
    std::sort(tasks[i].latencies_ms.begin(), tasks[i].latencies_ms.end());
    Figures& f = figures[i];
    f["tasks_finished"] = static_cast<double>(tasks[i].tasks);
    f["task_success"] =
        tasks[i].tasks == 0 ? 0 : static_cast<double>(tasks[i].succeeded) / static_cast<double>(tasks[i].tasks);
    f["task_latency_p50_ms"] = nearest_rank(tasks[i].latencies_ms, 0.5);
    f["task_latency_p99_ms"] = nearest_rank(tasks[i].latencies_ms, 0.99);
    f["tokens"] = 0;
  }
  for (const AttemptRecord& a : data.attempts) {
    Figures& f = figures[window_of(edges, a.start_ns - origin_ns)];
    f["tokens"] += static_cast<double>(a.input_tokens.value_or(0) + a.output_tokens.value_or(0));
    f[fmt::format("attempts{{provider:{},outcome:{}}}", a.provider, to_string(a.outcome))] += 1;
  }
  return figures;
}

Calibration calibrate(const std::vector<std::int64_t>& edges, const std::vector<Figures>& observed,
                      const std::vector<std::vector<Figures>>& simulated) {
  Calibration c;
  c.seeds = simulated.size();
  for (std::size_t w = 0; w + 1 < edges.size(); ++w) {
    CalibrationWindow window{edges[w], edges[w + 1], {}, 0, true};
    std::set<std::string> names;
    for (const auto& [name, value] : observed[w]) names.insert(name);
    for (const std::vector<Figures>& seed : simulated)
      for (const auto& [name, value] : seed[w]) names.insert(name);
    for (const std::string& name : names) {
      std::vector<double> values;
      for (const std::vector<Figures>& seed : simulated) {
        const auto it = seed[w].find(name);
        values.push_back(it == seed[w].end() ? 0 : it->second);
      }
      std::sort(values.begin(), values.end());
      const auto it = observed[w].find(name);
      CalibrationCell cell{name, it == observed[w].end() ? 0 : it->second, nearest_rank(values, kBandLow),
                           nearest_rank(values, kBandHigh), true};
      cell.inside = cell.low <= cell.observed && cell.observed <= cell.high;
      window.outside += cell.inside ? 0 : 1;
      window.cells.push_back(std::move(cell));
    }
    window.passed = static_cast<double>(window.cells.size() - window.outside) >=
                    kWindowPassShare * static_cast<double>(window.cells.size());
    c.failed_windows += window.passed ? 0 : 1;
    c.windows.push_back(std::move(window));
  }
  c.passed = static_cast<double>(c.failed_windows) <= kFailedWindowShare * static_cast<double>(c.windows.size());
  return c;
}

}  // namespace squall::replay

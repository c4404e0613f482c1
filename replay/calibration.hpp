// Calibration: does the fitted world, run under the as-deployed policy, reproduce the
// recorded trace? Both sides go through the same reader, grouping and figures: each seed's
// run is exported as OTLP (reports/writers/otlp_writer.hpp) and read back, so a figure
// means the same thing observed and simulated.
//
// Windows: the fitted regimes, cut at every fault window edge and arrival burst edge, an
// edge kept only when at least `min_width` (the duration / 40, and 10 s) from the one kept
// before it and from the end. Figures per window, over the tasks that started in it and the
// attempts that started in it: tasks_finished, task_success (the share of tasks whose last
// logical call succeeded), task_latency_p50_ms and task_latency_p99_ms (nearest rank),
// tokens (input + output of every attempt) and attempts{provider:P,outcome:K}.
//
// The rule (docs/replay.md "Calibration"): a figure's band is the 5th to 95th percentile
// (nearest rank) of its values over the seeds; the observed value is inside when
// low <= observed <= high. A window passes when at least kWindowPassShare of its figures
// are inside; the calibration passes when at most kFailedWindowShare of the windows fail.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "replay/attempt_record.hpp"
#include "replay/grouping.hpp"
#include "replay/replay_fit.hpp"

namespace squall::replay {

inline constexpr double kWindowPassShare = 0.8;
inline constexpr double kFailedWindowShare = 0.2;
inline constexpr double kBandLow = 0.05;
inline constexpr double kBandHigh = 0.95;

// Figure name -> value, for one window.
using Figures = std::map<std::string, double>;

// Window edges in scenario time: 0, the kept edges, the duration.
std::vector<std::int64_t> calibration_edges(const ReplayFit& fit);

// The figures of each window [edges[i], edges[i + 1]); `origin_ns` is the trace time of
// scenario time 0. Tasks and attempts starting after the last edge count in the last window.
std::vector<Figures> window_figures(const TraceData& data, const Grouping& grouping, std::int64_t origin_ns,
                                    const std::vector<std::int64_t>& edges);

struct CalibrationCell {
  std::string figure;
  double observed = 0;
  double low = 0;
  double high = 0;
  bool inside = true;
};

struct CalibrationWindow {
  std::int64_t from_ns = 0;
  std::int64_t to_ns = 0;
  std::vector<CalibrationCell> cells;  // by figure name
  std::size_t outside = 0;
  bool passed = true;
};

struct Calibration {
  std::size_t seeds = 0;
  std::vector<CalibrationWindow> windows;
  std::size_t failed_windows = 0;
  bool passed = true;
};

// `simulated[s][w]`: seed s's figures in window w. A figure missing on one side is 0 there.
Calibration calibrate(const std::vector<std::int64_t>& edges, const std::vector<Figures>& observed,
                      const std::vector<std::vector<Figures>>& simulated);

}  // namespace squall::replay

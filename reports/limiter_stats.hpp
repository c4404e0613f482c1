// What an adaptive concurrency limiter did (engine/strategies/adaptive_concurrency.hpp), per
// tool or provider whose pipeline holds it, folded from its LimitEvents.
//
// The limit over time is kept per time-series window (the recorder's): its lowest,
// highest and last value in each, so a chart shows every dip however short, in memory
// bounded by the windows (kMaxWindows).
//
// Recovery. A decrease from a limit that is not already recovering opens a dip whose level
// is the limit just before it; the first increase that brings the limit back to that level
// closes it, and its recovery time is from the decrease to that increase (the time a
// burst of drops cost the limiter; aibrix#2530's growth tied to the limit made it ~14x
// longer). A dip still open when the run ends has not recovered: its time runs to the end
// of the run, as capacity_recovery_time's does (reports/capacity_recovery.hpp), a lower
// bound of what it would have taken.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/events.hpp"
#include "engine/runtime/time.hpp"

namespace squall {

// The limit within one window; `seen` is false for the windows before the limiter's first call.
struct LimitRange {
  std::int32_t lowest = 0;
  std::int32_t highest = 0;
  std::int32_t last = 0;
  bool seen = false;
};

// One dip and its recovery (see above).
struct LimitDip {
  TimePoint started = 0;
  std::int32_t level = 0;  // the limit before the decrease that opened it
  Nanos recovery = 0;      // until it was back at `level`, or until the run's end
  bool recovered = false;
};

struct LimiterStats {
  std::string name;
  std::int32_t initial = 0;  // the limit at its first call
  std::int32_t current = 0;
  std::int32_t lowest = 0;
  std::int32_t highest = 0;
  std::array<std::uint64_t, kLimitActionCount> actions{};  // events by LimitAction
  std::vector<LimitRange> by_window;                       // from window 0 to the last event's
  std::vector<LimitDip> dips;                              // recovered ones complete, the last maybe open

  // Folds `e`, whose time falls in window `w`.
  void fold(const LimitEvent& e, std::size_t w);
  // The limit per window from window 0 to `windows` (the run's count), the last value
  // carried to the run's end.
  std::vector<LimitRange> series(std::size_t windows) const;
  // The dips, an open one's time run to `run_end`.
  std::vector<LimitDip> recoveries(TimePoint run_end) const;
};

}  // namespace squall

#include "reports/limiter_stats.hpp"

#include <algorithm>

namespace squall {

namespace {

// Extends `by_window` to window `w`, each new window holding the limit carried over.
void reach(std::vector<LimitRange>& by_window, std::size_t w, std::int32_t carried, bool seen) {
  while (by_window.size() <= w) by_window.push_back(LimitRange{carried, carried, carried, seen});
}

}  // namespace

void LimiterStats::fold(const LimitEvent& e, std::size_t w) {
  ++actions[static_cast<std::size_t>(e.action)];
  if (e.action == LimitAction::rejected) return;
  if (e.action == LimitAction::start) {
    initial = current = lowest = highest = e.limit;
    reach(by_window, w, 0, false);
    by_window[w] = LimitRange{e.limit, e.limit, e.limit, true};
    return;
  }
  reach(by_window, w, current, true);
  LimitRange& r = by_window[w];
  r.lowest = std::min(r.lowest, e.limit);
  r.highest = std::max(r.highest, e.limit);
  r.last = e.limit;
  current = e.limit;
  lowest = std::min(lowest, e.limit);
  highest = std::max(highest, e.limit);
  const bool recovering = !dips.empty() && !dips.back().recovered;
  if (e.action == LimitAction::decrease && !recovering) {
    dips.push_back(LimitDip{e.at, e.previous});
  } else if (e.action == LimitAction::increase && recovering && e.limit >= dips.back().level) {
    dips.back().recovery = e.at - dips.back().started;
    dips.back().recovered = true;
  }
}

std::vector<LimitRange> LimiterStats::series(std::size_t windows) const {
  std::vector<LimitRange> out = by_window;
  if (!out.empty() && out.size() < windows) reach(out, windows - 1, current, true);
  return out;
}

std::vector<LimitDip> LimiterStats::recoveries(TimePoint run_end) const {
  std::vector<LimitDip> out = dips;
  if (!out.empty() && !out.back().recovered) out.back().recovery = std::max<Nanos>(0, run_end - out.back().started);
  return out;
}

}  // namespace squall

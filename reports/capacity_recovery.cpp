#include "reports/capacity_recovery.hpp"

#include <algorithm>
#include <cstdint>

namespace squall {

std::optional<CapacityRecovery> capacity_recovery(const std::vector<CapacityWindowRow>& windows, Nanos window,
                                                  TimePoint drops_from, TimePoint drops_to, TimePoint run_end) {
  if (window <= 0) return std::nullopt;
  const auto before = static_cast<std::size_t>(drops_from / window);  // whole windows before the drop
  if (before == 0) return std::nullopt;
  // Still in a drop when the run ends: not recovered, for as long as the run was degraded.
  if (drops_to >= run_end) return CapacityRecovery{run_end - std::min(drops_from, run_end), false};
  std::uint64_t baseline_sum = 0;
  for (std::size_t w = 0; w < before && w < windows.size(); ++w) baseline_sum += windows[w].goodput;
  const double baseline = static_cast<double>(baseline_sum) / static_cast<double>(before);
  // The first window starting at or after the drop's end.
  for (auto w = static_cast<std::size_t>((drops_to + window - 1) / window); w < windows.size(); ++w) {
    const TimePoint end = static_cast<TimePoint>(w + 1) * window;
    if (end > run_end) break;  // a partial last window is not judged
    if (static_cast<double>(windows[w].goodput) >= kRecoveredFraction * baseline) {
      return CapacityRecovery{end - drops_to, true};
    }
  }
  return CapacityRecovery{run_end - drops_to, false};
}

}  // namespace squall

#include "sim/scenario/fault_overlaps.hpp"

#include <algorithm>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/runtime/duration.hpp"
#include "sim/scenario/time_window.hpp"

namespace squall {

namespace {

// Sums within this of 1 are accepted: decimal probabilities such as 0.1 + 0.2 + 0.7 add
// up to 1.0000000000000002 in binary floating point.
constexpr double kSumTolerance = 1e-9;

// The sum of the probabilities of `set` (indices into `faults`), in file order.
double sum_of(std::span<const FaultConfig> faults, const std::vector<std::size_t>& set) {
  double sum = 0;
  for (const std::size_t i : set) sum += faults[i].probability;
  return sum;
}

std::string overlap_message(std::span<const FaultConfig> faults, std::span<const std::size_t> positions,
                            const std::string& path, const std::vector<std::size_t>& set, TimePoint together_at) {
  TimePoint from = 0;
  TimePoint to = kNever;
  std::uint64_t first = 1;
  std::uint64_t last = UINT64_MAX;
  std::string rules;
  for (std::size_t k = 0; k < set.size(); ++k) {
    const FaultConfig& f = faults[set[k]];
    from = std::max(from, f.from);
    to = std::min(to, f.to);
    first = std::max(first, f.first_call);
    last = std::min(last, f.last_call);
    if (k > 0) rules += k + 1 == set.size() ? " and " : ", ";
    rules += fmt::format("{} ({})", pointer_append(path, positions[set[k]]), f.probability);
  }
  std::string where = fmt::format("from {} to {}", format_duration(from),
                                  to == kNever ? std::string("the end of the run") : format_duration(to));
  if (last != UINT64_MAX) {
    where += fmt::format(", calls {} to {}", first, last);
  } else if (first > 1) {
    where += fmt::format(", calls {} onwards", first);
  }
  const bool flapping = std::any_of(set.begin(), set.end(), [&](std::size_t i) { return faults[i].flap_period > 0; });
  if (flapping)
    where += fmt::format(", in their flapping on-windows (first together at {})", format_duration(together_at));
  return fmt::format(
      "expected the probabilities of faults active at the same time to sum to at most 1, got {:.12g}: "
      "{} overlap {}",
      sum_of(faults, set), rules, where);
}

// The sets of `candidates` (indices into `faults`, all active at one time) active together
// at some call index in [lo, hi] whose probabilities sum to more than 1, in call-index
// order. Every candidate active at a call index in [lo, hi] must be among `candidates`.
// The set is checked at lo and wherever it changes, shrinking included: a subset of a set
// reported may exceed 1 too, where the rest is not active.
void overlaps_by_call(std::span<const FaultConfig> faults, const std::vector<std::size_t>& candidates, std::uint64_t lo,
                      std::uint64_t hi, std::vector<std::vector<std::size_t>>& out) {
  // Events at call indices: a rule starts at first_call and stops after last_call.
  std::vector<std::pair<std::uint64_t, std::size_t>> starts;
  std::vector<std::pair<std::uint64_t, std::size_t>> stops;
  for (const std::size_t i : candidates) {
    starts.emplace_back(faults[i].first_call, i);
    if (faults[i].last_call != UINT64_MAX) stops.emplace_back(faults[i].last_call + 1, i);
  }
  std::sort(starts.begin(), starts.end());
  std::sort(stops.begin(), stops.end());
  std::set<std::size_t> active;
  const auto check = [&] {
    std::vector<std::size_t> set(active.begin(), active.end());
    if (sum_of(faults, set) > 1 + kSumTolerance) out.push_back(std::move(set));
  };
  // The set at lo, then the events after it.
  const auto up_to_lo = [lo](const std::pair<std::uint64_t, std::size_t>& e) { return e.first <= lo; };
  auto a = static_cast<std::size_t>(std::partition_point(starts.begin(), starts.end(), up_to_lo) - starts.begin());
  auto b = static_cast<std::size_t>(std::partition_point(stops.begin(), stops.end(), up_to_lo) - stops.begin());
  for (const std::size_t i : candidates) {
    if (faults[i].first_call <= lo && lo <= faults[i].last_call) active.insert(i);
  }
  check();
  while (a < starts.size() || b < stops.size()) {
    // The next index at which the active set changes, and every change there.
    std::uint64_t at = a < starts.size() ? starts[a].first : UINT64_MAX;
    if (b < stops.size()) at = std::min(at, stops[b].first);
    if (at > hi) break;
    for (; b < stops.size() && stops[b].first == at; ++b) active.erase(stops[b].second);
    for (; a < starts.size() && starts[a].first == at; ++a) active.insert(starts[a].second);
    check();
  }
}

// When a rule is active, as windows [from, to) of simulated time. A rule that does not flap
// is active over its window; a flapping one only in its on-windows (fault_active).
struct ActiveWindow {
  TimePoint from;
  TimePoint to;  // kNever: to the end
  std::size_t rule;
};

// Every rule active over its whole window [from, to), flapping or not.
std::vector<ActiveWindow> active_windows_whole(std::span<const FaultConfig> faults,
                                               const std::vector<std::size_t>& live) {
  std::vector<ActiveWindow> windows;
  for (const std::size_t i : live) windows.push_back({faults[i].from, faults[i].to, i});
  return windows;
}

// Flapping on-windows expanded beyond this many in all fall back to whole windows:
// conservative (rules flapping out of phase are then taken to meet), and bounded work.
constexpr std::size_t kMaxOnWindows = 100'000;

// The windows in which `live` rules are active. Past the latest finite edge of any rule
// (a from or a to), every rule is either off for good, on for good or flapping with its
// period, so the pattern of which rules are on repeats with the least common multiple of
// the periods: expanding the on-windows up to that edge plus one such cycle sees every set
// of rules ever on together.
std::vector<ActiveWindow> active_windows(std::span<const FaultConfig> faults, const std::vector<std::size_t>& live) {
  TimePoint last_edge = 0;
  Nanos cycle = 1;
  bool expand = true;
  for (const std::size_t i : live) {
    const FaultConfig& f = faults[i];
    last_edge = std::max(last_edge, f.from);
    if (f.to != kNever) last_edge = std::max(last_edge, f.to);
    if (f.flap_period > 0 && expand) {
      const Nanos g = std::gcd(cycle, f.flap_period);
      // lcm, unless it leaves int64 (then no expansion: whole windows).
      if (cycle / g > kNever / f.flap_period) {
        expand = false;
      } else {
        cycle = cycle / g * f.flap_period;
      }
    }
  }
  const TimePoint horizon = add_saturating(last_edge, cycle);
  std::vector<ActiveWindow> windows;
  std::size_t on_windows = 0;
  for (const std::size_t i : live) {
    const FaultConfig& f = faults[i];
    if (f.flap_period == 0 || !expand) {
      windows.push_back({f.from, f.to, i});
      continue;
    }
    if (f.flap_on <= 0) continue;  // never on
    const TimePoint end = std::min(f.to, horizon);
    for (TimePoint start = f.from; start < end; start = add_saturating(start, f.flap_period)) {
      if (++on_windows > kMaxOnWindows) return active_windows_whole(faults, live);
      windows.push_back({start, std::min(add_saturating(start, f.flap_on), f.to), i});
    }
  }
  return windows;
}

// The sets over 1 among the `active` rules (ascending) after `changed` started or stopped.
// Only the call ranges of the rules that changed hold new sets. When many changed (every
// rule starting at 0), one sweep over all call indices is cheaper.
void overlaps_after_change(std::span<const FaultConfig> faults, const std::vector<std::size_t>& active,
                           const std::vector<std::size_t>& changed, std::vector<std::vector<std::size_t>>& sets) {
  if (changed.size() * 4 >= active.size()) {
    overlaps_by_call(faults, active, 1, UINT64_MAX, sets);
    return;
  }
  for (const std::size_t r : changed) {
    const std::uint64_t lo = faults[r].first_call;
    const std::uint64_t hi = faults[r].last_call;
    std::vector<std::size_t> candidates;
    for (const std::size_t i : active) {
      if (faults[i].first_call <= hi && lo <= faults[i].last_call) candidates.push_back(i);
    }
    overlaps_by_call(faults, candidates, lo, hi, sets);
  }
}

}  // namespace

void check_fault_overlaps(std::span<const FaultConfig> faults, std::span<const std::size_t> positions,
                          const std::string& path, Diagnostics& diag) {
  // Rules of probability 0 never fire; without more than 1 in all, no set can exceed it.
  std::vector<std::size_t> live;
  double total = 0;
  for (std::size_t i = 0; i < faults.size(); ++i) {
    if (faults[i].probability > 0) {
      live.push_back(i);
      total += faults[i].probability;
    }
  }
  if (total <= 1 + kSumTolerance) return;

  // Sweep the time windows [from, to): at each time a rule starts or stops, the rules
  // active then whose call ranges meet the changed rule's are checked by call index. The
  // work per change is the number of rules active at that time, so many short windows
  // (flapping) stay cheap; it grows quadratically only when thousands of rules are active
  // across every window change (4000 such rules take about a second). A segment tree over
  // call indices would make that O(n log n) too.
  std::vector<std::pair<TimePoint, std::size_t>> starts;
  std::vector<std::pair<TimePoint, std::size_t>> stops;
  for (const ActiveWindow& w : active_windows(faults, live)) {
    starts.emplace_back(w.from, w.rule);
    if (w.to != kNever) stops.emplace_back(w.to, w.rule);
  }
  std::sort(starts.begin(), starts.end());
  std::sort(stops.begin(), stops.end());
  std::set<std::size_t> active;
  std::set<std::vector<std::size_t>> reported;
  std::size_t a = 0;
  std::size_t b = 0;
  while (a < starts.size() || b < stops.size()) {
    TimePoint at = a < starts.size() ? starts[a].first : kNever;
    if (b < stops.size()) at = std::min(at, stops[b].first);
    std::vector<std::size_t> changed;
    for (; b < stops.size() && stops[b].first == at; ++b) {
      active.erase(stops[b].second);
      changed.push_back(stops[b].second);
    }
    for (; a < starts.size() && starts[a].first == at; ++a) {
      active.insert(starts[a].second);
      changed.push_back(starts[a].second);
    }
    std::vector<std::vector<std::size_t>> sets;
    overlaps_after_change(faults, std::vector<std::size_t>(active.begin(), active.end()), changed, sets);
    for (auto& set : sets) {
      if (!reported.insert(set).second) continue;
      diag.error(path, overlap_message(faults, positions, path, set, at));
    }
  }
}

}  // namespace squall

#include "sim/scenario/fault_reader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/runtime/duration.hpp"
#include "sim/scenario/latency_reader.hpp"
#include "sim/scenario/time_window.hpp"

namespace squall {
namespace {

constexpr auto kKinds = all_values<FaultKind, kFaultKindCount>();
constexpr auto kForms = all_values<RetryAfterForm, kRetryAfterFormCount>();

// Records an error for `key` when present on a fault whose kind is not one of `kinds`.
void only_for(const ObjectReader& obj, std::string_view key, FaultKind kind, std::initializer_list<FaultKind> kinds) {
  if (obj.find(key) == nullptr || std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) return;
  // `"a"`, `"a" and "b"`, `"a", "b" and "c"`.
  std::string allowed;
  std::size_t i = 0;
  for (const FaultKind k : kinds) {
    const char* separator = i == 0 ? "" : i + 1 == kinds.size() ? " and " : ", ";
    allowed += fmt::format("{}\"{}\"", separator, to_string(k));
    ++i;
  }
  obj.diag().error(obj.path_of(key), fmt::format("applies only to kind {}, not \"{}\"", allowed, to_string(kind)));
}

void read_status(const ObjectReader& obj, FaultConfig& fault) {
  const Json* v = obj.find("status");
  if (v == nullptr) return;
  const std::string path = obj.path_of("status");
  if (fault.kind == FaultKind::overloaded) {
    // 529 is Anthropic's "overloaded_error", 503 the generic "service unavailable".
    const auto status = v->is_number_integer() ? v->get<std::int64_t>() : 0;
    if (status != 503 && status != 529) {
      obj.diag().error(path, fmt::format("expected 503 or 529, got {}", describe(*v)));
      return;
    }
    fault.status = static_cast<int>(status);
  } else if (fault.kind == FaultKind::server_error) {
    const auto status = v->is_number_integer() ? v->get<std::int64_t>() : 0;
    if (status < 500 || status > 599 || status == 503) {
      obj.diag().error(path, fmt::format("expected an integer in [500, 599] other than 503 (503 is kind "
                                         "\"overloaded\"), got {}",
                                         describe(*v)));
      return;
    }
    fault.status = static_cast<int>(status);
  } else if (fault.kind == FaultKind::client_error) {
    // The 4xx answers the issue names: 400 bad request, 401 and 403 auth, 404 not found
    // (a model or index name that does not exist), 422 unprocessable (invalid arguments).
    const auto status = v->is_number_integer() ? v->get<std::int64_t>() : 0;
    if (status != 400 && status != 401 && status != 403 && status != 404 && status != 422) {
      obj.diag().error(path, fmt::format("expected 400, 401, 403, 404 or 422, got {}", describe(*v)));
      return;
    }
    fault.status = static_cast<int>(status);
  } else if (fault.kind == FaultKind::stream_cut) {
    const auto status = v->is_number_integer() ? v->get<std::int64_t>() : 0;
    if (status < 500 || status > 599) {
      obj.diag().error(path, fmt::format("expected an integer in [500, 599], got {}", describe(*v)));
      return;
    }
    fault.status = static_cast<int>(status);
  }
}

void read_retry_after(const ObjectReader& obj, FaultConfig& fault) {
  if (fault.kind != FaultKind::rate_limited && fault.kind != FaultKind::overloaded) return;
  Nanos delay = 0;
  if (obj.get_duration("retry_after", delay, DurationMin::zero)) fault.retry_after_delay = delay;
  static const auto form_names = names_of(kForms);
  if (obj.find("retry_after_form") != nullptr) {
    if (obj.find("retry_after") == nullptr) {
      obj.diag().error(obj.path_of("retry_after_form"), "applies only with retry_after");
    } else {
      obj.get_choice<RetryAfterForm>("retry_after_form", fault.retry_after_form, form_names, kForms);
    }
  }
  if (fault.retry_after_delay && fault.retry_after_form == RetryAfterForm::delay_seconds) {
    fault.retry_after = format_delta_seconds(delay);
  }
  if (obj.find("retry_after_header") == nullptr) return;
  if (obj.find("retry_after") != nullptr) {
    obj.diag().error(obj.path_of("retry_after_header"), "retry_after and retry_after_header are mutually exclusive");
    return;
  }
  std::string header;
  if (obj.get("retry_after_header", header)) fault.retry_after = std::move(header);
}

void read_calls(const ObjectReader& obj, FaultConfig& fault) {
  std::int64_t first = 1;
  std::int64_t last = 0;
  const bool first_ok = obj.get("first_call", first, kPositiveInt);
  if (first_ok) fault.first_call = static_cast<std::uint64_t>(first);
  if (!obj.get("last_call", last, kPositiveInt)) return;
  if (first_ok && last < first) {
    obj.diag().error(obj.path_of("last_call"),
                     fmt::format("expected an integer in [{}, {}] (at least first_call), got {}", first,
                                 kPositiveInt.max, describe(*obj.find("last_call"))));
    return;
  }
  fault.last_call = static_cast<std::uint64_t>(last);
}

// period and duty_cycle: flapping (fault.hpp). Both or neither.
void read_flapping(const ObjectReader& obj, FaultConfig& fault) {
  const bool has_period = obj.find("period") != nullptr;
  const bool has_duty = obj.find("duty_cycle") != nullptr;
  if (has_period != has_duty) {
    obj.diag().error(obj.path_of(has_period ? "period" : "duty_cycle"), "period and duty_cycle go together");
    return;
  }
  if (!has_period) return;
  Nanos period = 0;
  double duty = 0;
  const bool period_ok = obj.get_duration("period", period, DurationMin::positive);
  const bool duty_ok = obj.get("duty_cycle", duty, NumberRange{0, true, 1});
  if (!period_ok || !duty_ok) return;
  fault.flap_period = period;
  fault.flap_on = static_cast<Nanos>(std::llround(static_cast<double>(period) * duty));
}

// The keys of the delay and transform kinds.
void read_phase_keys(const ObjectReader& obj, FaultConfig& fault) {
  if (fault.kind == FaultKind::latency_spike) obj.require("latency");
  if (fault.kind == FaultKind::brownout) {
    obj.require("multiplier");
    // Above 1: a multiplier of 1 or less would not be a brownout (nor time run backwards).
    obj.get("multiplier", fault.multiplier, NumberRange{1, true, 1000});
  }
  if (fault.kind == FaultKind::stream_cut) {
    obj.require("after_tokens");
    obj.get("after_tokens", fault.after_tokens, kPositiveInt);
  }
}

}  // namespace

std::optional<FaultConfig> read_fault(const Json& value, const std::string& path, std::optional<Nanos> run_end,
                                      Diagnostics& diag, std::span<const std::string_view> extra_keys) {
  std::vector<std::string_view> keys(extra_keys.begin(), extra_keys.end());
  keys.insert(keys.end(),
              {"kind", "probability", "from", "to", "first_call", "last_call", "period", "duty_cycle", "retry_after",
               "retry_after_form", "retry_after_header", "status", "latency", "multiplier", "after_tokens"});
  const ObjectReader obj(value, path, diag, keys);
  if (!obj.valid()) return std::nullopt;
  const std::size_t errors_before = diag.count();

  FaultConfig fault;
  static const auto names = names_of(kKinds);
  const bool kind_ok = obj.require("kind") != nullptr && obj.get_choice<FaultKind>("kind", fault.kind, names, kKinds);
  obj.get_number_required("probability", fault.probability, kProbability);
  read_window(obj, /*required=*/false, run_end, fault.from, fault.to);
  read_calls(obj, fault);
  read_flapping(obj, fault);
  if (kind_ok) {
    only_for(obj, "retry_after", fault.kind, {FaultKind::rate_limited, FaultKind::overloaded});
    only_for(obj, "retry_after_form", fault.kind, {FaultKind::rate_limited, FaultKind::overloaded});
    only_for(obj, "retry_after_header", fault.kind, {FaultKind::rate_limited, FaultKind::overloaded});
    only_for(obj, "status", fault.kind,
             {FaultKind::overloaded, FaultKind::server_error, FaultKind::client_error, FaultKind::stream_cut});
    only_for(obj, "multiplier", fault.kind, {FaultKind::brownout});
    only_for(obj, "after_tokens", fault.kind, {FaultKind::stream_cut});
    if (phase_of(fault.kind) != FaultPhase::abort && fault.kind != FaultKind::latency_spike &&
        obj.find("latency") != nullptr) {
      obj.diag().error(obj.path_of("latency"),
                       fmt::format("does not apply to kind \"{}\": its answer takes the inner provider's time",
                                   to_string(fault.kind)));
    }
    read_retry_after(obj, fault);
    read_status(obj, fault);
    read_phase_keys(obj, fault);
  }
  if (const Json* latency = obj.find("latency")) fault.latency = read_latency(*latency, obj.path_of("latency"), diag);
  if (diag.count() != errors_before) return std::nullopt;
  return fault;
}

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
    // Only the call ranges of the rules that changed hold new sets. When many changed
    // (every rule starting at 0), one sweep over all call indices is cheaper.
    std::vector<std::vector<std::size_t>> sets;
    const std::vector<std::size_t> all(active.begin(), active.end());
    if (changed.size() * 4 >= all.size()) {
      overlaps_by_call(faults, all, 1, UINT64_MAX, sets);
    } else {
      for (const std::size_t r : changed) {
        const std::uint64_t lo = faults[r].first_call;
        const std::uint64_t hi = faults[r].last_call;
        std::vector<std::size_t> candidates;
        for (const std::size_t i : all) {
          if (faults[i].first_call <= hi && lo <= faults[i].last_call) candidates.push_back(i);
        }
        overlaps_by_call(faults, candidates, lo, hi, sets);
      }
    }
    for (auto& set : sets) {
      if (!reported.insert(set).second) continue;
      diag.error(path, overlap_message(faults, positions, path, set, at));
    }
  }
}

}  // namespace squall

// Fault rules of the chaos decorator (mocks/chaos/chaos_provider.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/runtime/time.hpp"
#include "engine/vocabulary.hpp"
#include "mocks/latency.hpp"

namespace squall {

// X(name, what the decorator answers)
#define SQUALL_FAULT_KINDS(X)                                     \
  X(timeout, "no answer before the caller gives up")              \
  X(rate_limited, "429, with a Retry-After header when retry_after is set") \
  X(overloaded, "529 by default, or 503")                         \
  X(server_error, "a 5xx status, 500 by default")                 \
  X(empty, "200 with no results")                                 \
  X(index_not_ready, "503 index_not_ready: the index is still being built or loaded")

enum class FaultKind : std::uint8_t { SQUALL_FAULT_KINDS(SQUALL_ENUMERATOR) };

inline constexpr std::size_t kFaultKindCount = 0 SQUALL_FAULT_KINDS(SQUALL_COUNT);
constexpr std::size_t index_of(FaultKind kind) { return static_cast<std::size_t>(kind); }

// The scenario files' names ("timeout", "rate_limited", "overloaded", "server_error",
// "empty", "index_not_ready", the enumerators' names); parse_fault_kind is the exact inverse of to_string.
std::string_view to_string(FaultKind kind);
std::optional<FaultKind> parse_fault_kind(std::string_view name);

// Injected faults of one provider, indexed by index_of(FaultKind).
using FaultCounts = std::array<std::uint64_t, kFaultKindCount>;

struct FaultConfig {
  FaultKind kind = FaultKind::server_error;
  // Chance that a call inside the window gets this fault, in [0, 1]. Exact because the
  // faults active together sum to at most 1, which the scenario loader checks
  // (chaos_provider.hpp).
  double probability = 0;
  // The window [from, to) in simulated time. Default: the whole run.
  TimePoint from = 0;
  TimePoint to = kNever;
  // Scripted call indices ("calls 3-7 return 429", DESIGN section 5): the fault is active
  // only for the provider's calls first_call..last_call, both inclusive, calls numbered
  // from 1 in the order they reach the decorator. Default: every call. Combined with the
  // time window (both must hold) and probability 1 this scripts an exact schedule.
  std::uint64_t first_call = 1;
  std::uint64_t last_call = UINT64_MAX;
  // rate_limited: the Retry-After header value sent, verbatim (the loader writes a
  // duration as delta-seconds, e.g. "2" or "0.5"). Default: no header.
  std::optional<std::string> retry_after;
  // overloaded and server_error: the status code. Default 529 and 500.
  std::optional<int> status;
  // How long the faulty answer takes. Default: the provider's own latency.
  std::optional<LatencyConfig> latency;
};

}  // namespace squall

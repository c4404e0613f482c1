// Fault rules of the chaos decorator (mocks/chaos/chaos_provider.hpp).
#pragma once

#include <optional>
#include <string>

#include "engine/runtime/time.hpp"
#include "mocks/latency.hpp"

namespace squall {

enum class FaultKind : std::uint8_t {
  timeout,       // no answer before the caller gives up
  rate_limited,  // 429, with a Retry-After header when retry_after is set
  overloaded,    // 529 by default, or 503
  server_error,  // a 5xx status, 500 by default
  empty,         // 200 with no results
};

inline constexpr std::size_t kFaultKindCount = 5;
std::string_view to_string(FaultKind kind);

struct FaultConfig {
  FaultKind kind = FaultKind::server_error;
  // Chance that a call inside the window gets this fault, in [0, 1].
  double probability = 0;
  // The window [from, to) in simulated time. Default: the whole run.
  TimePoint from = 0;
  TimePoint to = kNever;
  // rate_limited: the Retry-After header value sent, verbatim (the loader writes a
  // duration as delta-seconds, e.g. "2" or "0.5"). Default: no header.
  std::optional<std::string> retry_after;
  // overloaded and server_error: the status code. Default 529 and 500.
  std::optional<int> status;
  // How long the faulty answer takes. Default: the provider's own latency.
  std::optional<LatencyConfig> latency;
};

}  // namespace squall

// Reading a fault rule of a provider (mocks/chaos/fault.hpp):
//   { "kind": "rate_limited", "probability": 0.3, "from": "2m", "to": "6m", "retry_after": "2s" }
#pragma once

#include <optional>

#include "mocks/chaos/fault.hpp"
#include "sim/scenario/json_reader.hpp"

namespace squall {

// Keys: kind (required), probability (required, [0, 1]), from, to (a window, see
// time_window.hpp), first_call, last_call (1-based, inclusive, first_call <= last_call),
// retry_after (rate_limited only: a duration, sent as delta-seconds, "2s" -> "2", "500ms"
// -> "0.5"), retry_after_header (rate_limited only: the header's raw value, verbatim, for
// malformed-header scenarios; exclusive with retry_after), status (overloaded: 503 or
// 529; server_error: 500-599 except 503, which is overloaded's), latency.
// `run_end` is the scenario's duration when known.
std::optional<FaultConfig> read_fault(const Json& value, const std::string& path, std::optional<Nanos> run_end,
                                      Diagnostics& diag);

}  // namespace squall

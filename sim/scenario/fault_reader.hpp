// Reading a fault rule of a provider (mocks/chaos/fault.hpp):
//   { "kind": "rate_limited", "probability": 0.3, "from": "2m", "to": "6m", "retry_after": "2s" }
#pragma once

#include <optional>
#include <span>

#include "mocks/chaos/fault.hpp"
#include "sim/scenario/json_reader.hpp"

namespace squall {

// Keys: kind (required), probability (required, [0, 1]), from, to (a window, see
// time_window.hpp), first_call, last_call (1-based, inclusive, first_call <= last_call),
// period and duty_cycle (together: flapping, a duration > 0 and a number in (0, 1]),
// retry_after (rate_limited and overloaded: a duration; sent as delta-seconds, "2s" ->
// "2", "500ms" -> "0.5", unless retry_after_form says otherwise), retry_after_form (with
// retry_after: "delay_seconds", "http_date", "milliseconds" or "retry_info",
// RetryAfterForm), retry_after_header (rate_limited and overloaded: the header's raw
// value, verbatim, for malformed-header scenarios; exclusive with retry_after), status
// (overloaded: 503 or 529; server_error: 500-599 except 503, which is overloaded's;
// client_error: 400, 401, 403, 404 or 422; stream_cut: 500-599), latency (abort kinds and
// latency_spike, where it is required), multiplier (brownout, required, in (1, 1000]),
// after_tokens (stream_cut, required, >= 1).
// `run_end` is the scenario's duration when known.
// `extra_keys` are keys the caller reads itself (an outage's name and providers), allowed
// and listed first in the unknown-key message.
std::optional<FaultConfig> read_fault(const Json& value, const std::string& path, std::optional<Nanos> run_end,
                                      Diagnostics& diag, std::span<const std::string_view> extra_keys = {});

}  // namespace squall

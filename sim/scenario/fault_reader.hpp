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

// Fault rules are mutually exclusive per call (mocks/chaos/chaos_provider.hpp), so the
// probabilities of the rules active for the same call, at the same time and call index,
// must sum to at most 1 (within 1e-9, so that 0.1 + 0.2 + 0.7 passes); a larger sum
// would silently shrink the later rules. Two rules overlap when both their time windows
// and their call ranges intersect; only rules active together count, so three rules may
// overlap pairwise in different windows and pass. Each distinct set of rules active
// together that sums to more than 1 is reported once, at `path` (the faults list), naming
// the rules and where all of them are active:
//   `expected the probabilities of faults active at the same time to sum to at most 1, got
//   1.3: /providers/llm/faults/0 (0.7) and /providers/llm/faults/1 (0.6) overlap from 0s to
//   the end of the run`
// (with `, calls 3 to 7` or `, calls 3 onwards` when their call ranges are bounded).
// `positions[i]` is the index of faults[i] in the list; faults that had errors are left out.
// The caller checks delay rules and abort/transform rules apart (they decide apart), and
// leaves shared outages out (they take precedence). A flapping rule counts as active only
// in its on-windows (fault_active), so rules flapping out of phase, or a flapping rule and
// a window in its off-time, may add above 1; the message then says where they are first
// on together:
//   `... overlap from 0s to the end of the run, in their flapping on-windows (first
//   together at 1m)`
// On-windows are expanded up to the rules' last finite edge plus one common cycle (the
// least common multiple of the periods), after which the pattern repeats; beyond 100,000
// on-windows, flapping rules count as active over their whole windows (conservative).
void check_fault_overlaps(std::span<const FaultConfig> faults, std::span<const std::size_t> positions,
                          const std::string& path, Diagnostics& diag);

}  // namespace squall

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
// retry_after (rate_limited only: a duration, sent as delta-seconds, "2s" -> "2", "500ms"
// -> "0.5"), retry_after_header (rate_limited only: the header's raw value, verbatim, for
// malformed-header scenarios; exclusive with retry_after), status (overloaded: 503 or
// 529; server_error: 500-599 except 503, which is overloaded's), latency.
// `run_end` is the scenario's duration when known.
std::optional<FaultConfig> read_fault(const Json& value, const std::string& path, std::optional<Nanos> run_end,
                                      Diagnostics& diag);

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
void check_fault_overlaps(std::span<const FaultConfig> faults, std::span<const std::size_t> positions,
                          const std::string& path, Diagnostics& diag);

}  // namespace squall

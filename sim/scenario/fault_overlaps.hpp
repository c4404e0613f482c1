// Whether a provider's fault rules can fire together with probabilities summing past 1.
#pragma once

#include <span>
#include <string>

#include "mocks/chaos/fault.hpp"
#include "sim/scenario/json_reader.hpp"

namespace squall {

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

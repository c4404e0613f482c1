// Time windows [from, to) of simulated time, as bursts and faults write them.
#pragma once

#include <optional>

#include "sim/scenario/json_reader.hpp"

namespace squall {

// Reads the `from` and `to` members of `obj` into `from` and `to` (durations since the
// start of the run). With `required`, both must be present; otherwise the caller's
// defaults stay for absent ones. Rules: `to` is after `from`, and `from` is before
// `run_end` when it is known, since a window that opens after the run never applies.
// Returns whether both values are valid.
bool read_window(const ObjectReader& obj, bool required, std::optional<Nanos> run_end, TimePoint& from, TimePoint& to);

}  // namespace squall

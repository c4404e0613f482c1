// Reading a latency object of a scenario file (mocks/latency.hpp):
//   { "distribution": "lognormal", "median": "180ms", "p99": "1.2s" }   (the default shape)
//   { "distribution": "exponential", "mean": "80ms" }
//   { "distribution": "constant", "value": "50ms" }
#pragma once

#include <optional>

#include "mocks/latency.hpp"
#include "sim/scenario/json_reader.hpp"

namespace squall {

// The distribution's parameters are required (no partial defaults: a median without its
// p99 would silently take a default tail). Rules: median > 0, p99 >= median, mean > 0,
// value >= 0. A parameter of another distribution is an error, not an unknown key:
// `"mean" is a parameter of the exponential distribution; lognormal takes median and p99`.
std::optional<LatencyConfig> read_latency(const Json& value, const std::string& path, Diagnostics& diag);

}  // namespace squall

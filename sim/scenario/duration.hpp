// Durations as scenario files write them: a decimal number and a unit, e.g. "250ms",
// "1.5s", "15m".
//
// Units: ns, us, ms, s, m, h (Go's time.ParseDuration and k6 use the same letters; "us"
// is the ASCII spelling of microseconds). The number is digits with an optional fraction
// ("1.5s"; not ".5s", "1.s", "+1s" or "1e3ms"), one unit, no spaces, no compound forms
// ("1m30s" is written "90s"). The text is converted to integer nanoseconds exactly, from
// its decimal digits, never through floating point: "0.1s" is exactly 100000000 ns.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "engine/runtime/time.hpp"

namespace squall {

enum class DurationError : std::uint8_t {
  malformed,              // not a decimal number followed by one of the units
  negative,               // "-1s": durations and times in a scenario are never negative
  finer_than_nanosecond,  // "0.5ns": the exact value is not a whole number of nanoseconds
  too_large,              // does not fit below kNever (about 292 years)
};

// Parses `text` into nanoseconds, or says why it cannot.
std::variant<Nanos, DurationError> parse_duration(std::string_view text);

// Formats `d` (>= 0) with the largest unit that represents it exactly, for messages:
// 1500000000 -> "1500ms", 90 s -> "90s", 15 min -> "15m", 0 -> "0s".
std::string format_duration(Nanos d);

// Formats `d` (>= 0) as HTTP delta-seconds (RFC 9110 section 10.2.3), keeping a fraction
// when there is one, since clients such as openai-python accept fractional values:
// 2 s -> "2", 500 ms -> "0.5", 1 ns -> "0.000000001".
std::string format_delta_seconds(Nanos d);

}  // namespace squall

// Durations as people write them: a decimal number and a unit ("250ms", "1.5s", "15m"),
// or several such parts ("1m30s", "2h45m30.5s"), as Go's time.ParseDuration and k6 read
// them. Scenario files (sim/scenario/) and threshold values (reports/threshold.hpp) both
// use this one grammar.
//
// Grammar: one or more parts, each digits with an optional fraction ("1.5s"; not ".5s",
// "1.s", "+1s" or "1e3ms") followed by one unit of ns, us, ms, s, m, h ("us" is the ASCII
// spelling of microseconds, Go's "µs"). Units come in strictly decreasing order, each at
// most once: "1h15m", "1m30s", "1h30s" and "1.5h30m" are durations; "30s1m", "1s1s" are
// not. No sign, no spaces, no exponent. Go is more lenient (any order, repeats, ".5s",
// a sign); squall is stricter so that a value has one obvious reading.
//
// The text is converted to integer nanoseconds exactly, from its decimal digits, never
// through floating point: "0.1s" is exactly 100000000 ns. Each part must itself be a
// whole number of nanoseconds.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "engine/runtime/time.hpp"

namespace squall {

enum class DurationError : std::uint8_t {
  malformed,              // not the grammar above (unknown unit, units out of order, ...)
  negative,               // "-1s": durations and times are never negative
  finer_than_nanosecond,  // "0.5ns": a part's exact value is not a whole number of nanoseconds
  too_large,              // does not fit below kNever (int64 nanoseconds, about 292.47 years)
};

// Parses `text` into nanoseconds, or says why it cannot. The syntax is checked first, so
// "-1x" is malformed, not negative.
std::variant<Nanos, DurationError> parse_duration(std::string_view text);

// Whether `suffix` is one of the units: "ns", "us", "ms", "s", "m", "h". For callers that
// name an unknown unit in their own messages (reports/threshold.cpp).
bool is_duration_unit(std::string_view suffix);

// What a value failing with `error` was expected to be, for messages of the form
// "expected <this>, got <value>": malformed -> `a duration string such as "250ms"`,
// negative -> "a non-negative duration", finer_than_nanosecond -> "a whole number of
// nanoseconds", too_large -> "a duration shorter than 2562047h47m16.854775807s (int64
// nanoseconds)".
std::string_view duration_expectation(DurationError error);

// What every duration a scenario gives is bounded by (kLongestScenarioDuration), for
// messages: "a duration of at most 876000h (100 years)". The scenario loader and the
// thresholds both refuse a longer one with it.
std::string longest_duration_expectation();

// Formats `d` (>= 0) for messages, as Go's time.Duration.String() does but without zero
// parts and with "us" for microseconds: hours and minutes as whole parts, then seconds
// with a decimal fraction; below a second, the largest of ms, us, ns with a fraction.
// 90 s -> "1m30s", 2 h -> "2h", 1500 ms -> "1.5s", 250 ms -> "250ms", 1001 ns ->
// "1.001us", 0 -> "0s". The text is exact: parse_duration() reads it back to `d`.
std::string format_duration(Nanos d);

// Formats `d` (>= 0) as HTTP delta-seconds (RFC 9110 section 10.2.3), keeping a fraction
// when there is one, since clients such as openai-python accept fractional values:
// 2 s -> "2", 500 ms -> "0.5", 1 ns -> "0.000000001".
std::string format_delta_seconds(Nanos d);

}  // namespace squall

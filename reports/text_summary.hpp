// The end-of-run terminal summary, in the manner of k6's end-of-test summary: one line per
// figure, labels padded with dots to a common column, thresholds marked ✓ or ✗ with the
// observed value. Renders the same Report as the JSON writer, rounded the same way.
// Under "breaker transitions", "  openings by cause" lists why breakers opened (the JSON
// report's breaker_openings, non-zero causes only); the line is left out when none did.
#pragma once

#include <string>
#include <string_view>

#include "reports/report.hpp"

namespace squall {

// The summary as text ending in a newline. `color` adds ANSI colours to the threshold
// marks (green ✓, red ✗); the CLI passes true only when stdout is a terminal.
std::string text_summary(const Report& report, bool color);

// A threshold's observed value as the summary shows it: rounded to 6 decimals, and for a
// time metric in the unit its bound is written in ("12.215228 s" for "p(95)<20s"); "no
// samples" when there were none.
std::string format_observed(const ThresholdResult& threshold);

// A value of the threshold's metric (its observed value, its margin) as format_observed
// prints it: rounded, converted to the bound's unit for a time metric; the unit is empty
// for other metrics.
struct ThresholdQuantity {
  double value = 0;
  std::string_view unit;
};
ThresholdQuantity in_threshold_unit(const ThresholdResult& threshold, double value);

// The breaker openings by cause as the summary shows them: the non-zero causes in
// BreakerCause order (engine/events.hpp), "consecutive_failures=3 failure_rate=1"; empty
// when no breaker opened.
std::string format_breaker_openings(const Report& report);

}  // namespace squall

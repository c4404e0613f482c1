// How reports round numbers, shared by every writer so that JSON and text agree: virtual
// milliseconds to 3 decimals (microseconds), USD to 6 (micro-dollars, below any price per
// token), ratios (rates, amplification, threshold observations) to 6.
#pragma once

#include <cmath>

#include "engine/runtime/time.hpp"

namespace squall {

// Adding 0.0 turns -0 into 0 so that it never prints as "-0".
inline double round_to(double x, double scale) { return std::round(x * scale) / scale + 0.0; }
inline double round_ms(double ms) { return round_to(ms, 1e3); }
inline double round_ms(Nanos d) { return round_ms(to_millis(d)); }
inline double round_usd(double usd) { return round_to(usd, 1e6); }
inline double round_ratio(double x) { return round_to(x, 1e6); }

}  // namespace squall

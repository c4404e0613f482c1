// The JSON report's `limiters` section (docs/ci.md has every field), present only when the
// run had an adaptive_concurrency limiter: per tool or provider holding one, its limits,
// events by action, dips with their recovery times (the first kMaxListedDips; the counts
// stay exact) and the limit per time-series window.
#pragma once

#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/report.hpp"

namespace squall {

// As breaker transitions: a limit flapping for hours lists its first thousand dips.
inline constexpr std::size_t kMaxListedDips = 1000;

nlohmann::ordered_json limiters_json(const std::vector<LimiterSummary>& limiters);

}  // namespace squall

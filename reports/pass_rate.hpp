// A threshold's required pass rate over the seeds of `run --seeds` and `ci --seeds`: the
// share of seeds on which the threshold must hold. A scenario asks for one with k6's object
// form of a threshold (k6 writes `{ threshold: "rate>=0.95", abortOnFail: true }`):
//   "task_success": [ { "threshold": "rate>=0.95", "pass_rate": ">=0.9" } ]
// Without a pass_rate a threshold must hold on every seed (">=1"). One run is one seed, so
// a requirement changes nothing for a single run: the threshold must hold on it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

#include "reports/threshold.hpp"

namespace squall {

// PassRateRequirement is declared in reports/threshold.hpp, as a member of Threshold.

// "<op> <fraction>", whitespace allowed around each token: ">=0.9", "> 0.5", ">=1". Errors:
//   expected a pass rate such as ">=0.9" (>= or > and a fraction of seeds in [0, 1]), got "90%"
//   a pass rate is a fraction of seeds in [0, 1], got 1.5
//   ">1" can never be met: a pass rate is at most 1
std::variant<PassRateRequirement, std::string> parse_pass_rate(std::string_view text);

// Whether `passed` of `seeds` (seeds > 0) meets the requirement. passed / seeds is divided
// as doubles, correctly rounded, and rounding is monotone: when the true ratio equals the
// written rate both round to the same double, so 9 of 10 meets ">=0.9".
bool meets(const PassRateRequirement& requirement, std::size_t passed, std::size_t seeds);

// As written canonically: ">=0.9", ">0.5".
std::string to_string(const PassRateRequirement& requirement);

}  // namespace squall

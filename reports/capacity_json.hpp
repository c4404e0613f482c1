// The JSON report's `capacity` section (docs/ci.md has every field): per provider with a
// capacity layer, its totals and one row per time window of width `window`, rates per
// second over the window.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "reports/capacity_report.hpp"

namespace squall {

nlohmann::ordered_json capacity_json(const std::vector<CapacityReport>& capacity, Nanos window);

}  // namespace squall

// The parts of a sweep file that say what it measures and how it decides
// (sim/sweep/sweep_spec.hpp): reported metrics, objectives, a target, the decision. Each
// reader records its errors at their JSON Pointers and returns what was valid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reports/sweep_result.hpp"
#include "sim/scenario/json_reader.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace squall {

// A count of seeds at obj[key] in [min, kMaxSweepSeeds]; `fallback` when absent or invalid.
std::size_t read_count(const ObjectReader& obj, std::string_view key, std::int64_t min, std::size_t fallback);
std::optional<SweepTarget> read_target(const Json& v, const std::string& path, Diagnostics& diag);
// Distinct headline metric names, non-empty.
std::vector<std::string> read_metrics(const Json& v, const std::string& path, Diagnostics& diag);
// Objectives over distinct metrics, non-empty.
std::vector<SweepObjective> read_objectives(const Json& v, const std::string& path, Diagnostics& diag);
// "decision": {"objective", "feasible_pass_rate", "min_effect"}, all optional.
SweepDecision read_decision(const Json& v, const std::string& path, Diagnostics& diag);

}  // namespace squall

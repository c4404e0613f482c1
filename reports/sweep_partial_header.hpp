// The header of a sweep's partial result (reports/sweep_json.hpp partial_json_text), read
// back with every value checked (reports/partial_json.hpp): the sweep's variants, seeds,
// metrics, objectives, thresholds and decision, which a shard's runs are read against and
// every output of `squall merge` is built from.
#pragma once

#include <string>

#include "reports/partial_json.hpp"
#include "reports/sweep_result.hpp"

namespace squall {

// `h` is the partial's "/sweep" object. A partial comes from a sweep with a seed count (a
// target sweep cannot be sharded), so its target must be null. Throws std::runtime_error.
SweepResult read_partial_header(const std::string& file, const partial_json::Json& h);

}  // namespace squall

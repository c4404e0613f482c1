// Random scenarios for property tests over whole runs: a fixed world of every provider type
// (web_search, vector_search, two llms, a tool) with random arrivals, random fault rules of
// every kind that applies, random capacity, and for each tool a random stack of strategies
// drawn from the one strategy list (engine/strategies/strategy_list.hpp), each key written
// with a random value inside its field table's bounds (engine/config_fields.hpp). So a new
// strategy, key or fault kind is generated without touching this file: only the fixed world
// and the rule-free parts of the format are written here.
//
// A candidate need not be valid: keys are drawn independently, and the tables' rules between
// keys (jitter_range only with proportional jitter, ...) refuse some. The property tests keep
// drawing until the loader accepts one, and count the refusals.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "engine/runtime/rng.hpp"

namespace squall::test {

// One candidate scenario, as a scenario file's JSON (its corpora named relative to
// tests/sim/data/, as test::inline_scenario loads them).
nlohmann::json random_scenario(Rng& rng);

}  // namespace squall::test

// Keeps scenarios/schema/sweep.schema.json and the sweep loader (sim/sweep/sweep_spec.hpp)
// in agreement, as tests/sim/schema_test.cpp does for scenarios:
//   - at every object location of a sweep file (the root, a variant, a grid axis, the
//     target, an objective) a bogus key draws exactly the loader's unknown-key error at
//     that path, whose list of expected keys is the schema's "properties" there, and the
//     schema forbids other keys;
//   - the schema's metric names are the headline metrics' (reports/compare.hpp), in order;
//   - every shipped sweep file (scenarios/sweeps/, bench/sweeps/) loads, and the schema's required keys
//     and bounds are the loader's (its seeds and first_seed bounds).
// tests/cli/schema_validation_test.py runs the shipped sweeps through a standard validator.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "reports/compare.hpp"
#include "sim/scenario/json_document.hpp"
#include "sim/sweep/sweep_spec.hpp"
#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

namespace fs = std::filesystem;

const std::string kFile = std::string(SQUALL_SOURCE_DIR) + "/scenarios/sweeps/test-sweep.json";

const Json& schema() {
  static const Json s = [] {
    const std::string path = std::string(SQUALL_SOURCE_DIR) + "/scenarios/schema/sweep.schema.json";
    Diagnostics diag(path);
    auto doc = parse_json_document(test::read_file(path), diag);
    EXPECT_TRUE(doc.has_value());
    return doc ? std::move(*doc) : Json();
  }();
  return s;
}

// A sweep with every object location: a variant with a policy file and a grid, a target
// and an objective.
Json full_sweep() {
  return Json::parse(R"({
    "name": "t", "description": "d", "scenario": "../quickstart.json",
    "variants": [ { "name": "a", "policy": "../policies/naive-retry.json" },
                  { "name": "g", "grid": [ { "path": "/llm/1/retry/max_attempts", "values": [2, 3] } ] } ],
    "baseline": "a", "first_seed": 4, "metrics": ["task_success"],
    "target": { "metric": "task_success", "width": 0.1, "min_seeds": 2, "max_seeds": 4 },
    "objectives": [ { "metric": "task_success", "goal": "max" } ] })");
}

std::string keys_of(const Json& location) {
  std::string out;
  for (const auto& [key, value] : location.at("properties").items()) out += (out.empty() ? "" : ", ") + key;
  return out;
}

struct Location {
  std::string pointer;  // in the sweep file
  std::string schema;   // in the schema
};

const Location kLocations[] = {
    {"", ""},
    {"/variants/0", "/$defs/variant"},
    {"/variants/1/grid/0", "/$defs/axis"},
    {"/target", "/$defs/target"},
    {"/objectives/0", "/$defs/objective"},
};

TEST(SweepSchemaTest, TheFullSweepLoads) {
  const SweepLoadResult r = load_sweep_text(full_sweep().dump(), kFile);
  EXPECT_EQ(r.errors, std::vector<ValidationError>{});
}

TEST(SweepSchemaTest, EveryObjectLocationListsTheLoadersKeys) {
  for (const Location& l : kLocations) {
    SCOPED_TRACE(l.pointer);
    const Json& location = schema().at(Json::json_pointer(l.schema));
    EXPECT_EQ(location.at("type"), "object");
    EXPECT_EQ(location.at("additionalProperties"), false);
    Json doc = full_sweep();
    doc[Json::json_pointer(l.pointer + "/bogus")] = 1;
    const SweepLoadResult r = load_sweep_text(doc.dump(), kFile);
    ASSERT_EQ(r.errors.size(), 1U) << (r.errors.empty() ? "" : to_string(r.errors.front()));
    EXPECT_EQ(r.errors[0].path, l.pointer + "/bogus");
    EXPECT_EQ(r.errors[0].message, "unknown key \"bogus\"; expected one of: " + keys_of(location));
  }
}

TEST(SweepSchemaTest, MetricNamesAreTheHeadlineMetrics) {
  const std::vector<std::string> names = schema().at("/$defs/metric/enum"_json_pointer).get<std::vector<std::string>>();
  EXPECT_EQ(names, headline_metric_names());
}

TEST(SweepSchemaTest, RequiredKeysAndBoundsAreTheLoaders) {
  EXPECT_EQ(schema().at("required"), Json::parse(R"(["name", "scenario", "variants"])"));
  EXPECT_EQ(schema().at("/properties/seeds/maximum"_json_pointer), kMaxSweepSeeds);
  EXPECT_EQ(schema().at("/$defs/target/properties/max_seeds/maximum"_json_pointer), kMaxSweepSeeds);
  EXPECT_EQ(schema().at("/$defs/target/required"_json_pointer), Json::parse(R"(["metric", "width", "max_seeds"])"));
  std::vector<std::string> defaults;
  for (const std::string_view m : kDefaultSweepMetrics) defaults.emplace_back(m);
  EXPECT_EQ(schema().at("/properties/metrics/default"_json_pointer).get<std::vector<std::string>>(), defaults);
}

TEST(SweepSchemaTest, EveryShippedSweepLoads) {
  std::size_t n = 0;
  for (const char* dir : {"scenarios/sweeps", "bench/sweeps"}) {
    for (const auto& entry : fs::directory_iterator(fs::path(SQUALL_SOURCE_DIR) / dir)) {
      SCOPED_TRACE(entry.path().string());
      EXPECT_EQ(load_sweep(entry.path()).errors, std::vector<ValidationError>{});
      ++n;
    }
  }
  EXPECT_GE(n, 2U);
}

}  // namespace
}  // namespace squall

// Keeps scenarios/schema/scenario.schema.json and the loader in agreement.
//
// The schema's convention: every object location is a schema with "type": "object" that
// lists all of its keys in its own "properties" (allOf/if/then only add constraints), or
// a map whose "additionalProperties" is the schema of its values. The tests walk the
// schema together with documents:
//   - with tests/sim/data/full.json, which has every object location of the format: at
//     each location the schema forbids other keys, and a bogus key inserted there draws
//     exactly the loader's unknown-key error at that path, whose list of expected keys is
//     the schema's "properties"; every object location of the schema must be reached;
//   - with every shipped scenario and policy file: every key is described by the schema.
#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "sim/scenario/json_document.hpp"
#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

namespace fs = std::filesystem;

Json parse_file(const std::string& path) {
  Diagnostics diag(path);
  auto doc = parse_json_document(test::read_file(path), diag);
  EXPECT_EQ(diag.take(), std::vector<ValidationError>{});
  return doc ? std::move(*doc) : Json();
}

const Json& schema_root() {
  static const Json schema = parse_file(std::string(SQUALL_SOURCE_DIR) + "/scenarios/schema/scenario.schema.json");
  return schema;
}

bool is_object_location(const Json& schema) {
  return schema.is_object() && schema.contains("type") && schema.at("type") == "object" &&
         schema.contains("properties") && schema.at("properties").is_object();
}

// A subschema with its JSON Pointer in the schema file.
struct Located {
  std::string pointer;
  const Json* schema;
};

Located follow_refs(Located s) {
  while (s.schema->is_object() && s.schema->contains("$ref")) {
    const std::string ref = s.schema->at("$ref").get<std::string>();
    EXPECT_TRUE(ref.starts_with("#/")) << "only local references are supported: " << ref;
    s.pointer = ref.substr(1);
    s.schema = &schema_root().at(Json::json_pointer(s.pointer));
  }
  return s;
}

// The branch of a oneOf whose "const" properties match the instance (providers by type).
std::optional<Located> choose(Located s, const Json& instance) {
  s = follow_refs(s);
  if (!s.schema->contains("oneOf")) return s;
  std::optional<Located> match;
  const Json& branches = s.schema->at("oneOf");
  for (std::size_t i = 0; i < branches.size(); ++i) {
    const Located branch = follow_refs({s.pointer + "/oneOf/" + std::to_string(i), &branches[i]});
    bool matches = instance.is_object();
    const Json properties = branch.schema->value("properties", Json::object());
    for (const auto& [key, property] : properties.items()) {
      if (property.contains("const") && (!instance.contains(key) || instance.at(key) != property.at("const"))) {
        matches = false;
      }
    }
    if (!matches) continue;
    if (match) return std::nullopt;  // ambiguous
    match = branch;
  }
  return match;
}

// An object of the instance and the schema location describing it.
struct Visit {
  std::string path;  // JSON Pointer in the instance
  Located schema;    // an object location (is_object_location)
};

// Walks `instance` with `schema`; records the object locations and every problem: a key
// the schema does not describe, or an object no schema branch describes.
void walk(Located schema, const Json& instance, const std::string& path, std::vector<Visit>& visits,
          std::vector<std::string>& problems) {
  const auto chosen = choose(schema, instance);
  if (!chosen) {
    problems.push_back(path + ": no single schema branch describes it");
    return;
  }
  const Json& s = *chosen->schema;
  if (instance.is_object() && is_object_location(s)) {
    visits.push_back({path, *chosen});
    const Json& properties = s.at("properties");
    for (const auto& [key, value] : instance.items()) {
      if (!properties.contains(key)) {
        problems.push_back(pointer_append(path, key) + ": not described by " + chosen->pointer);
        continue;
      }
      walk({chosen->pointer + "/properties/" + key, &properties.at(key)}, value, pointer_append(path, key), visits,
           problems);
    }
  } else if (instance.is_object() && s.contains("additionalProperties") && s.at("additionalProperties").is_object()) {
    for (const auto& [key, value] : instance.items()) {
      walk({chosen->pointer + "/additionalProperties", &s.at("additionalProperties")}, value, pointer_append(path, key),
           visits, problems);
    }
  } else if (instance.is_array() && s.contains("items")) {
    for (std::size_t i = 0; i < instance.size(); ++i) {
      walk({chosen->pointer + "/items", &s.at("items")}, instance[i], pointer_append(path, i), visits, problems);
    }
  } else if (instance.is_object()) {
    problems.push_back(path + ": an object where " + chosen->pointer + " describes none");
  }
}

// Every object location of the schema, by pointer.
void collect_object_locations(const Json& schema, const std::string& pointer, std::set<std::string>& out) {
  if (is_object_location(schema)) out.insert(pointer);
  if (schema.is_object()) {
    for (const auto& [key, value] : schema.items()) collect_object_locations(value, pointer_append(pointer, key), out);
  } else if (schema.is_array()) {
    for (std::size_t i = 0; i < schema.size(); ++i)
      collect_object_locations(schema[i], pointer_append(pointer, i), out);
  }
}

std::set<std::string> split_list(std::string_view list) {
  std::set<std::string> items;
  while (!list.empty()) {
    const std::size_t comma = list.find(", ");
    items.emplace(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 2);
  }
  return items;
}

TEST(SchemaTest, DeclaresDraft2020_12) {
  EXPECT_EQ(schema_root().at("$schema"), "https://json-schema.org/draft/2020-12/schema");
}

TEST(SchemaTest, EveryObjectLocationAgreesWithTheLoader) {
  const std::string file = test::data_path("full.json");
  const Json full = parse_file(file);
  ASSERT_EQ(load_scenario_text(full.dump(), file).errors, std::vector<ValidationError>{});

  std::vector<Visit> visits;
  std::vector<std::string> problems;
  walk({"", &schema_root()}, full, "", visits, problems);
  EXPECT_EQ(problems, std::vector<std::string>{});

  std::set<std::string> reached;
  for (const Visit& visit : visits) {
    SCOPED_TRACE(visit.path + " (" + visit.schema.pointer + ")");
    reached.insert(visit.schema.pointer);
    EXPECT_EQ(visit.schema.schema->value("additionalProperties", Json(true)), Json(false));

    Json doc = full;
    const std::string bogus_path = pointer_append(visit.path, "bogus_key");
    doc[Json::json_pointer(bogus_path)] = 1;
    const auto errors = load_scenario_text(doc.dump(), file).errors;
    ASSERT_EQ(errors.size(), 1u) << (errors.empty() ? "" : to_string(errors[0]));
    EXPECT_EQ(errors[0].path, bogus_path);
    const std::string prefix = "unknown key \"bogus_key\"; expected one of: ";
    ASSERT_TRUE(errors[0].message.starts_with(prefix)) << errors[0].message;
    std::set<std::string> schema_keys;
    for (const auto& [key, property] : visit.schema.schema->at("properties").items()) schema_keys.insert(key);
    EXPECT_EQ(split_list(std::string_view(errors[0].message).substr(prefix.size())), schema_keys);
  }

  std::set<std::string> all;
  collect_object_locations(schema_root(), "", all);
  EXPECT_EQ(reached, all) << "full.json must reach every object location of the schema";
}

// Scenario files: scenarios/**/*.json (without schema/, corpora/ and policies/) and
// bench/scenarios/*.json. Policy files: scenarios/policies/**/*.json.
struct ShippedFiles {
  std::vector<fs::path> scenarios;
  std::vector<fs::path> policies;
};

ShippedFiles shipped_files() {
  const fs::path root = SQUALL_SOURCE_DIR;
  ShippedFiles files;
  for (const auto& entry : fs::recursive_directory_iterator(root / "scenarios")) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    const std::string top = entry.path().lexically_relative(root / "scenarios").begin()->string();
    if (top == "schema" || top == "corpora") continue;
    (top == "policies" ? files.policies : files.scenarios).push_back(entry.path());
  }
  if (fs::is_directory(root / "bench/scenarios")) {
    for (const auto& entry : fs::directory_iterator(root / "bench/scenarios")) {
      if (entry.is_regular_file() && entry.path().extension() == ".json") files.scenarios.push_back(entry.path());
    }
  }
  std::sort(files.scenarios.begin(), files.scenarios.end());
  std::sort(files.policies.begin(), files.policies.end());
  return files;
}

TEST(SchemaTest, EveryKeyOfEveryShippedFileIsDescribed) {
  const ShippedFiles files = shipped_files();
  ASSERT_FALSE(files.scenarios.empty()) << "no shipped scenario found: is the search broken?";
  const Json& policy_schema = schema_root().at("$defs").at("policy");
  for (const auto& [list, schema] : {std::pair{&files.scenarios, Located{"", &schema_root()}},
                                     std::pair{&files.policies, Located{"/$defs/policy", &policy_schema}}}) {
    for (const fs::path& file : *list) {
      SCOPED_TRACE(file.string());
      std::vector<Visit> visits;
      std::vector<std::string> problems;
      walk(schema, parse_file(file.string()), "", visits, problems);
      EXPECT_EQ(problems, std::vector<std::string>{});
    }
  }
}

TEST(ShippedScenarioTest, EveryShippedScenarioAndPolicyLoads) {
  const ShippedFiles files = shipped_files();
  for (const fs::path& file : files.scenarios) {
    EXPECT_EQ(load_scenario(file).errors, std::vector<ValidationError>{}) << file;
  }
  for (const fs::path& file : files.policies) {
    EXPECT_EQ(load_policy_file(file).errors, std::vector<ValidationError>{}) << file;
  }
}

}  // namespace
}  // namespace squall

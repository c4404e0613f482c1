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
#include <cmath>
#include <filesystem>
#include <limits>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "engine/runtime/duration.hpp"
#include "reports/metric_catalogue.hpp"
#include "reports/pass_rate.hpp"
#include "reports/threshold.hpp"
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

// The branch of a oneOf whose "const" properties match the instance (providers by type),
// whose "enum" holds it (a preset name beside an object, as sdk_retry's), or whose scalar
// "type" is the instance's (a query string beside a query object).
std::optional<Located> choose(Located s, const Json& instance) {
  s = follow_refs(s);
  if (!s.schema->contains("oneOf")) return s;
  std::optional<Located> match;
  const Json& branches = s.schema->at("oneOf");
  for (std::size_t i = 0; i < branches.size(); ++i) {
    const Located branch = follow_refs({s.pointer + "/oneOf/" + std::to_string(i), &branches[i]});
    if (branch.schema->contains("enum")) {
      const Json& values = branch.schema->at("enum");
      if (std::find(values.begin(), values.end(), instance) == values.end()) continue;
      if (match) return std::nullopt;  // ambiguous
      match = branch;
      continue;
    }
    if (const auto type = branch.schema->find("type"); type != branch.schema->end() && *type != "object") {
      if (*type != "string" || !instance.is_string()) continue;
      if (match) return std::nullopt;  // ambiguous
      match = branch;
      continue;
    }
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

// Walks `name` (a scenario under tests/sim/data) against the schema, checks each object
// location's keys against the loader's, and adds the locations reached to `reached`.
void check_object_locations(const std::string& name, std::set<std::string>& reached) {
  SCOPED_TRACE(name);
  const std::string file = test::data_path(name);
  const Json full = parse_file(file);
  ASSERT_EQ(load_scenario_text(full.dump(), file).errors, std::vector<ValidationError>{});

  std::vector<Visit> visits;
  std::vector<std::string> problems;
  walk({"", &schema_root()}, full, "", visits, problems);
  EXPECT_EQ(problems, std::vector<std::string>{});

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
}

TEST(SchemaTest, EveryObjectLocationAgreesWithTheLoader) {
  std::set<std::string> reached;
  check_object_locations("full.json", reached);
  check_object_locations("full-tools.json", reached);
  std::set<std::string> all;
  collect_object_locations(schema_root(), "", all);
  EXPECT_EQ(reached, all) << "full.json and full-tools.json must reach every object location of the schema";
}

// The loader's message for a number outside the schema's bounds of `property`, as
// json_reader.cpp writes ranges: "an integer in [1, 1000]", "an integer in [1,
// 9223372036854775807]" (both bounds always), "a number in (0, 1000000000]", "a number > 0".
std::string range_message(const Json& property, const Json& value) {
  const bool integer = property.at("type") == "integer";
  const bool exclusive = property.contains("exclusiveMinimum");
  const Json& min = property.at(exclusive ? "exclusiveMinimum" : "minimum");
  const auto text = [integer](const Json& bound) {
    return integer ? bound.dump() : fmt::format("{}", bound.get<double>());
  };
  const std::string range = fmt::format("{} in {}{}, {}]", integer ? "an integer" : "a number", exclusive ? "(" : "[",
                                        text(min), text(property.at("maximum")));
  return fmt::format("expected {}, got {}", range, describe(value));
}

// The values just outside and at the bounds of `property`: {value, accepted}.
std::vector<std::pair<Json, bool>> boundary_values(const Json& property) {
  std::vector<std::pair<Json, bool>> values;
  const bool integer = property.at("type") == "integer";
  const Json& max = property.at("maximum");
  values.emplace_back(max, true);
  if (integer && max.is_number_unsigned() && max.get<std::uint64_t>() == std::numeric_limits<std::uint64_t>::max()) {
    // No integer above it can be written.
  } else if (integer && max.get<std::uint64_t>() >= std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
    values.emplace_back(max.get<std::uint64_t>() + 1, false);
  } else if (integer) {
    values.emplace_back(max.get<std::int64_t>() + 1, false);
  } else {
    values.emplace_back(std::nextafter(max.get<double>(), HUGE_VAL), false);
  }
  if (property.contains("exclusiveMinimum")) {
    const double min = property.at("exclusiveMinimum").get<double>();
    values.emplace_back(min, false);
    values.emplace_back(std::nextafter(min, HUGE_VAL), true);
  } else if (integer) {
    const auto min = property.at("minimum").get<std::int64_t>();
    values.emplace_back(min, true);
    values.emplace_back(min - 1, false);
  } else {
    const double min = property.at("minimum").get<double>();
    values.emplace_back(min, true);
    values.emplace_back(std::nextafter(min, -HUGE_VAL), false);
  }
  return values;
}

// One file's part of NumericBoundsAgreeWithTheLoader: adds to `checked` the schema
// locations of the bounded numbers it sets.
void check_numeric_bounds(const std::string& file, std::set<std::string>& checked) {
  const Json full = parse_file(file);
  std::vector<Visit> visits;
  std::vector<std::string> problems;
  walk({"", &schema_root()}, full, "", visits, problems);
  ASSERT_EQ(problems, std::vector<std::string>{});
  for (const Visit& visit : visits) {
    for (const auto& [key, unused] : visit.schema.schema->at("properties").items()) {
      const Json& declared = *follow_refs({"", &visit.schema.schema->at("properties").at(key)}).schema;
      const bool array = declared.value("type", Json()) == "array" && declared.contains("items");
      const Json& property = array ? *follow_refs({"", &declared.at("items")}).schema : declared;
      if (!property.contains("minimum") && !property.contains("exclusiveMinimum")) continue;
      const std::string key_path = pointer_append(visit.path, key);
      SCOPED_TRACE(key_path);
      ASSERT_TRUE(property.contains("maximum")) << "a bounded-below number needs an upper bound";
      if (!full.contains(Json::json_pointer(key_path))) continue;  // e.g. a key this file sets elsewhere only
      // An escalation rule's at_least is an integer >= 1 for count conditions: bounds an
      // if/then branch refines, which this walk does not read (as a count window's size).
      if (key == "at_least") continue;
      checked.insert(visit.schema.pointer + "/properties/" + key + (array ? "/items" : ""));
      std::vector<std::string> paths{key_path};
      if (array) {
        paths.clear();
        for (std::size_t i = 0; i < full.at(Json::json_pointer(key_path)).size(); ++i) {
          paths.push_back(pointer_append(key_path, i));
        }
      }
      for (const std::string& path : paths) {
        SCOPED_TRACE(path);
        for (const auto& [value, accepted] : boundary_values(property)) {
          SCOPED_TRACE(value.dump());
          Json doc = full;
          doc[Json::json_pointer(path)] = value;
          // The cross-field bounds among them: last_call >= first_call, relax_threshold's
          // floor <= initial, and read_units' per_query <= capacity. (jitter_range's min <= max is reported at
          // the array's own path, which is not looked at here.)
          if (key == "last_call") doc[Json::json_pointer(pointer_append(visit.path, "first_call"))] = 1;
          if (key == "floor") doc[Json::json_pointer(pointer_append(visit.path, "initial"))] = 1;
          // A query's read units are at most the bucket's: the bucket is made the largest.
          if (key == "per_query") doc[Json::json_pointer(pointer_append(visit.path, "capacity"))] = 1e6;
          // A capacity drop's limit is at most the base one: the base is lifted away.
          const std::size_t drops_at = path.find("/capacity/drops/");
          if (drops_at != std::string::npos) {
            doc[Json::json_pointer(path.substr(0, drops_at) + "/capacity")].erase(key);
          }
          std::vector<std::string> at_path;
          for (const ValidationError& e : load_scenario_text(doc.dump(), file).errors) {
            if (e.path == path) at_path.push_back(e.message);
          }
          const std::string message = range_message(property, value);
          // A token limit must also hold one request of each step that reaches it
          // (check_request_sizes): a rule across the file, which the schema cannot state.
          std::erase_if(at_path, [](const std::string& m) {
            return m.starts_with("expected at least the tokens of one request");
          });
          if (accepted) {
            EXPECT_EQ(at_path, std::vector<std::string>{});
          } else {
            EXPECT_EQ(at_path, std::vector<std::string>{message});
          }
        }
      }
    }
  }
}

TEST(SchemaTest, NumericBoundsAgreeWithTheLoader) {
  // Every number or integer of full.json and full-tools.json whose schema has a lower
  // bound has an upper bound too, and the loader accepts exactly the values in between: at
  // each bound it reports no error, just outside it reports the range the schema states.
  // The elements of an array whose "items" are bounded numbers (jitter_range) are checked
  // one by one.
  std::set<std::string> checked;
  for (const char* name : {"full.json", "full-tools.json"}) {
    SCOPED_TRACE(name);
    check_numeric_bounds(test::data_path(name), checked);
  }
  // full.json's 48: seed, rate_per_s (arrivals and bursts), max_tasks, weight, prompt_tokens,
  // max_output_tokens, max_results, input, output, context_window, tokens_per_second,
  // mean_output_tokens, probability, first_call, last_call, max_attempts, multiplier,
  // jitter_range's items, failure_threshold, half_open_probes, max_tokens, max_cost_usd,
  // max_entries, rewrite_success_rate, rewrite_query's prompt_tokens, max_output_tokens and max_rewrites; capacity's
  // max_concurrency, requests_per_minute, tokens_per_minute and queue_size, and a drop's
  // max_concurrency, requests_per_minute and tokens_per_minute; retry_budget's
  // budget_percent, min_retry_concurrency, max_tokens and token_ratio, adaptive_throttling's k;
  // a fault's duty_cycle, multiplier and after_tokens, an outage's probability, a quota
  // group's requests_per_minute and tokens_per_minute; retry's max_retries_by_kind counts (2);
  // circuit_breaker's failure_rate_threshold, minimum_number_of_calls,
  // slow_call_rate_threshold and open_duration_multiplier (a count window's size has its
  // bounds in an if/then branch, which this walk does not read);
  // and full-tools.json's 22 more: relax_threshold's initial, step and floor (on its
  // vector search), read_units' capacity, per_query and refill_per_s, hedging's, bulkhead's,
  // rate_limiter's, reflect's and budget's max_iterations, a step's min_score and top_k,
  // the tool provider's rates, an llm's malformed_output_rate; and adaptive_concurrency's
  // 9: initial_limit, min_limit, max_limit, backoff_ratio, smoothing, probe_multiplier,
  // min_drops, min_drop_rate, max_queue.
  EXPECT_EQ(checked.size(), 83u);
}

// Scenario files: scenarios/**/*.json (without schema/, corpora/, policies/, sweeps/ and *-report.json,
// whose sweep files tests/sim/sweep_schema_test.cpp checks) and bench/scenarios/*.json. Policy files:
// scenarios/policies/**/*.json.
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
    if (top == "schema" || top == "corpora" || top == "sweeps") continue;
    // A report squall wrote beside the scenario it came from (scenarios/replay/served-report.json).
    if (entry.path().stem().string().ends_with("-report")) continue;
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

TEST(SchemaTest, DurationPatternsAgreeWithTheParser) {
  // JSON Schema patterns are ECMA-262 regular expressions searched (not matched) in the
  // string, which is what std::regex's default ECMAScript grammar and regex_search do. The
  // schema checks syntax only: it accepts exactly what parse_duration() does not call
  // malformed or negative (values too fine or too large are the loader's to reject), and
  // positive_duration accepts those of them that are > 0.
  const Json& defs = schema_root().at("$defs");
  const Json& duration = defs.at("duration");
  const std::regex pattern(duration.at("pattern").get<std::string>());
  const std::regex zero(defs.at("positive_duration").at("not").at("pattern").get<std::string>());
  const auto min_length = duration.at("minLength").get<std::size_t>();
  for (const std::string text : {"250ms",
                                 "1.5s",
                                 "15m",
                                 "0.5h",
                                 "7ns",
                                 "7us",
                                 "007s",
                                 "0s",
                                 "0.000ms",
                                 "1m30s",
                                 "1h15m",
                                 "2h45m30.5s",
                                 "1h1m1s1ms1us1ns",
                                 "1h30s",
                                 "1.5h30m",
                                 "1s500ms",
                                 "0m0s",
                                 "0h0.0s",
                                 "0m0.001s",
                                 "0.5ns",
                                 "2562048h",
                                 "",
                                 "s",
                                 "250",
                                 "1.s",
                                 ".5s",
                                 "+1s",
                                 "-1s",
                                 "1e3ms",
                                 "1 s",
                                 "1S",
                                 "1sec",
                                 "1µs",
                                 "never",
                                 "30s1m",
                                 "1s1s",
                                 "1ms1s",
                                 "1m 30s",
                                 "1m30",
                                 "1m.5s",
                                 "1m30ss",
                                 "1h1m1s1ms1us1ns1ns"}) {
    SCOPED_TRACE(text);
    const bool schema_accepts = text.size() >= min_length && std::regex_search(text, pattern);
    const auto parsed = parse_duration(text);
    const auto* error = std::get_if<DurationError>(&parsed);
    EXPECT_EQ(schema_accepts,
              error == nullptr || (*error != DurationError::malformed && *error != DurationError::negative));
    if (schema_accepts && error == nullptr) {
      EXPECT_EQ(!std::regex_search(text, zero), std::get<Nanos>(parsed) > 0);
    }
  }
}

TEST(SchemaTest, ThresholdMetricNamesAreTheCatalogue) {
  // propertyNames' pattern is "^<ws>(name|name|...)<ws>(...)?$": its alternation must be
  // reports/metric_catalogue's names in catalogue order, so a new metric fails here until
  // the schema lists it (scripts/update-schema-metrics.py rewrites the list).
  const std::string pattern = schema_root().at("properties").at("thresholds").at("propertyNames").at("pattern");
  const std::size_t open = pattern.find('(');
  const std::size_t close = pattern.find(')', open);
  ASSERT_NE(close, std::string::npos);
  std::vector<std::string> listed;
  std::string_view names(pattern.data() + open + 1, close - open - 1);
  for (std::size_t bar = names.find('|'); !names.empty(); bar = names.find('|')) {
    listed.emplace_back(names.substr(0, bar));
    names = bar == std::string_view::npos ? std::string_view() : names.substr(bar + 1);
  }
  std::vector<std::string> catalogue;
  for (const MetricInfo& metric : metric_catalogue()) catalogue.emplace_back(metric.name);
  EXPECT_EQ(listed, catalogue) << "run scripts/update-schema-metrics.py";

  const std::regex key(pattern);
  for (const std::string text : {"task_success", "provider_calls{provider:web_search,outcome:rate_limited}",
                                 " call_latency { provider : llm } "}) {
    EXPECT_TRUE(std::holds_alternative<MetricSelector>(parse_metric(text))) << text;
    EXPECT_TRUE(std::regex_search(text, key)) << text;
  }
  for (const std::string text : {"task_sucess", "task_success{", "task_success}", "", "{provider:x}"}) {
    EXPECT_FALSE(std::holds_alternative<MetricSelector>(parse_metric(text))) << text;
    EXPECT_FALSE(std::regex_search(text, key)) << text;
  }
}

TEST(SchemaTest, ThresholdExpressionPatternAcceptsWhatTheParserAccepts) {
  // The pattern is reports/threshold.hpp's grammar without its semantic checks (order of a
  // compound duration's units, percentile range, aggregation per metric type): whatever the
  // parser accepts the schema accepts, and the malformed shapes below both reject.
  // An element is the expression itself or the object form's "threshold": both refer to it.
  const std::regex pattern(schema_root().at("$defs").at("threshold_expression").at("pattern").get<std::string>());
  for (const auto& [metric, text] :
       std::vector<std::pair<std::string, std::string>>{{"task_success", "rate>=0.95"},
                                                        {"task_success", " rate >= .5 "},
                                                        {"task_success", "rate>=1e-1"},
                                                        {"task_latency", "p(99)<25s"},
                                                        {"task_latency", "p( 99.9 ) <= 20s"},
                                                        {"task_latency", "p(50)<1m30.5s"},
                                                        {"task_latency", "avg<250ms"},
                                                        {"task_latency", "med<1h"},
                                                        {"task_latency", "max<=7ns"},
                                                        {"call_latency", "min>=0us"},
                                                        {"cost_usd", "sum<=5"},
                                                        {"cost_usd", "count==0"},
                                                        {"provider_calls", "rate<-1"},
                                                        {"cost_usd", "avg<0.5"},
                                                        {"task_tokens", "p(99)<=2000"}}) {
    SCOPED_TRACE(text);
    EXPECT_TRUE(std::holds_alternative<Threshold>(parse_threshold(metric, text)));
    EXPECT_TRUE(std::regex_search(text, pattern));
  }
  for (const std::string text : {"fast", "", "rate", "rate>=", "rate=>0.9", "median<20s", "p99<20s", "p(x)<5",
                                 "p(99)<2d", "sum<=5 usd", "rate>=0.9 0.8", "rate>=nan", "rate>=inf", "P(99)<20s",
                                 "rate>=0x10", "p(99)<20s,", "p(99)<20 s", "max <= 1 h15m"}) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(std::holds_alternative<Threshold>(parse_threshold("task_latency", text)));
    EXPECT_FALSE(std::regex_search(text, pattern));
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

TEST(ShippedScenarioTest, EveryShippedScenarioPrintsAsPlainJsonThatLoadsTheSame) {
  // `squall validate --print-json`: what a standard JSON Schema validator is given must be
  // JSON without comments (nlohmann's parser refuses comments by default) and must mean the
  // same scenario.
  for (const fs::path& file : shipped_files().scenarios) {
    SCOPED_TRACE(file.string());
    const PlainJsonResult plain = scenario_as_plain_json(file);
    ASSERT_TRUE(plain.json.has_value()) << ::testing::PrintToString(plain.errors);
    EXPECT_TRUE(nlohmann::json::accept(*plain.json));
    EXPECT_EQ(load_scenario_text(*plain.json, file).errors, std::vector<ValidationError>{});
    EXPECT_EQ(plain.json->back(), '\n');
  }
}

TEST(ShippedScenarioTest, AnInvalidScenarioPrintsNoJsonAndTheLoadersErrors) {
  const fs::path file = fs::path(SQUALL_SOURCE_DIR) / "scenarios/corpora/queries-crm.json";
  const PlainJsonResult plain = scenario_as_plain_json(file);
  EXPECT_FALSE(plain.json.has_value());
  EXPECT_EQ(plain.errors, load_scenario(file).errors);
  EXPECT_FALSE(plain.errors.empty());
}

TEST(SchemaTest, PassRatePatternAcceptsWhatTheParserAccepts) {
  // The pass_rate pattern is reports/pass_rate.hpp's grammar without its range check.
  const Json& items = schema_root().at("properties").at("thresholds").at("additionalProperties").at("items");
  EXPECT_EQ(items.at("oneOf").at(0).at("$ref"), "#/$defs/threshold_expression");
  const std::regex pattern(items.at("oneOf").at(1).at("properties").at("pass_rate").at("pattern").get<std::string>());
  for (const std::string text : {">=0.9", "> 0.5", " >=1 ", ">=.25", ">=0"}) {
    SCOPED_TRACE(text);
    EXPECT_TRUE(std::holds_alternative<PassRateRequirement>(parse_pass_rate(text)));
    EXPECT_TRUE(std::regex_search(text, pattern));
  }
  for (const std::string text : {"90%", "0.9", "<=0.9", ">=high", ">=-0.1", "", ">= 0.9 0.8", "=>0.9"}) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(std::holds_alternative<PassRateRequirement>(parse_pass_rate(text)));
    EXPECT_FALSE(std::regex_search(text, pattern));
  }
}

}  // namespace
}  // namespace squall

// The strategies' field tables (engine/config_fields.hpp) against the struct defaults they
// describe (Polly's Ctor_Ok), the JSON Schema (scenarios/schema/scenario.schema.json) and
// the key tables of docs/scenario-format.md, both ways: a key, bound, default or enum
// value changed in one place and not the others fails here.
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <variant>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "engine/strategies/strategy_list.hpp"
#include "sim/scenario/config_reader.hpp"

namespace squall {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return std::move(text).str();
}

const Json& schema_defs() {
  static const Json schema =
      Json::parse(read_text(std::string(SQUALL_SOURCE_DIR) + "/scenarios/schema/scenario.schema.json"));
  return schema.at("$defs");
}

// docs/scenario-format.md's key table under "### <strategy>": key -> (type, default) cells.
struct DocRow {
  std::string type;
  std::string default_text;
};
std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 1;
  while (start < line.size()) {
    std::size_t end = start;
    int ticks = 0;  // a "|" inside backticks (`"a" | "b"`) separates nothing
    while (end < line.size() && (line[end] != '|' || ticks % 2 == 1 || line[end - 1] == '\\')) {
      if (line[end] == '`') ++ticks;
      ++end;
    }
    std::string cell = line.substr(start, end - start);
    cell.erase(0, cell.find_first_not_of(' '));
    cell.erase(cell.find_last_not_of(' ') + 1);
    cells.push_back(cell);
    start = end + 1;
  }
  return cells;
}
std::map<std::string, DocRow> doc_table(std::string_view strategy) {
  static const std::string doc = read_text(std::string(SQUALL_SOURCE_DIR) + "/docs/scenario-format.md");
  std::map<std::string, DocRow> rows;
  const std::string heading = "\n### " + std::string(strategy) + "\n";
  const std::size_t at = doc.find(heading);
  if (at == std::string::npos) return rows;
  std::istringstream lines(doc.substr(doc.find("| key |", at)));
  std::string line;
  std::getline(lines, line);  // header
  std::getline(lines, line);  // |---|
  while (std::getline(lines, line) && line.starts_with("|")) {
    const auto cells = cells_of(line);
    if (cells.size() < 3) continue;
    std::string key = cells[0];
    std::erase(key, '`');
    rows[key] = DocRow{cells[1], cells[2]};
  }
  return rows;
}

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

// Whether a member holds no default: none, an empty list or string, or kNever.
template <class T>
bool unset(const T& value) {
  if constexpr (IsOptional<T>::value) {
    return !value.has_value();
  } else if constexpr (requires { value.empty(); }) {
    return value.empty();
  } else if constexpr (std::is_same_v<T, Nanos>) {
    return value == kNever;
  } else {
    return false;
  }
}

// How the documentation writes a bound: 1000000 as "1e6", 0.0001 as "0.0001".
std::set<std::string> spellings(double bound) {
  std::set<std::string> out{fmt::format("{}", bound)};
  if (bound >= 1e6 && bound == std::floor(bound)) {
    out.insert(fmt::format("{:.0f}", bound));
    const int exponent = static_cast<int>(std::lround(std::log10(bound)));
    if (std::pow(10.0, exponent) == bound) out.insert(fmt::format("1e{}", exponent));
  }
  return out;
}
bool mentions_range(const std::string& cell, char open, double min, double max) {
  for (const auto& lo : spellings(min)) {
    for (const auto& hi : spellings(max)) {
      if (cell.find(fmt::format("{}{}, {}]", open, lo, hi)) != std::string::npos) return true;
    }
  }
  return false;
}

// The default a documentation cell should start with: `"500ms"`, `3`, or `a`, `b` for a
// list of names.
std::vector<std::string> doc_defaults(const Json& value) {
  if (value.is_array()) {
    std::vector<std::string> names;
    std::vector<std::string> items;
    for (const Json& item : value) {
      items.push_back(item.dump());
      if (item.is_string()) names.push_back(fmt::format("`{}`", item.get<std::string>()));
    }
    std::vector<std::string> out{fmt::format("`{}`", value.dump()), fmt::format("`[{}]`", fmt::join(items, ", "))};
    if (names.size() == value.size()) out.insert(out.begin(), fmt::format("{}", fmt::join(names, ", ")));
    return out;
  }
  if (value.is_number_float()) return {fmt::format("`{}`", value.get<double>())};
  return {fmt::format("`{}`", value.dump())};
}

template <class C>
class ConfigTable : public ::testing::Test {};

template <class V>
struct AsTypes;
template <class... C>
struct AsTypes<std::variant<C...>> {
  using type = ::testing::Types<C...>;
};
struct ConfigNames {
  template <class C>
  static std::string GetName(int) {
    return std::string(C::kName);
  }
};
TYPED_TEST_SUITE(ConfigTable, AsTypes<StrategyConfig>::type, ConfigNames);

template <class C, class F>
void expect_default(const F& field, const C& defaults) {
  SCOPED_TRACE(fmt::format("{}.{}", C::kName, field.key));
  if (field.default_json.empty()) {
    EXPECT_TRUE(unset(defaults.*field.member)) << "the member has a default the table does not give";
    return;
  }
  // The table's default, read as a scenario file would give it, is the member's default.
  Diagnostics diag("table");
  typename F::Value value{};
  ASSERT_TRUE(config_reader::read_value(Json::parse(field.default_json), "", diag, field, value))
      << to_string(diag.take().front());
  EXPECT_TRUE(value == defaults.*field.member);
}

// Polly's Ctor_Ok: every default the table states is the default-constructed member.
TYPED_TEST(ConfigTable, DefaultsAreTheStructs) {
  const TypeParam defaults{};
  std::apply([&](const auto&... field) { (expect_default(field, defaults), ...); }, fields_of<TypeParam>().fields);
}

template <class F>
void expect_schema_field(const F& field, const Json& property) {
  SCOPED_TRACE(std::string(field.key));
  if (field.default_json.empty()) {
    EXPECT_FALSE(property.contains("default"));
  } else {
    ASSERT_TRUE(property.contains("default"));
    EXPECT_EQ(property.at("default"), Json::parse(field.default_json));
  }
  const auto has = [&](const char* key, double value) {
    return property.contains(key) && std::abs(property.at(key).template get<double>() - value) < 1e-12;
  };
  switch (field.kind) {
    case FieldKind::integer:
      EXPECT_EQ(property.value("type", ""), "integer");
      EXPECT_TRUE(has("minimum", static_cast<double>(field.ints.min)));
      EXPECT_TRUE(has("maximum", static_cast<double>(field.ints.max)));
      break;
    case FieldKind::number:
    case FieldKind::scaled:
      EXPECT_EQ(property.value("type", ""), "number");
      EXPECT_TRUE(has(field.numbers.min_exclusive ? "exclusiveMinimum" : "minimum", field.numbers.min));
      EXPECT_TRUE(has("maximum", field.numbers.max));
      if (field.kind == FieldKind::scaled) {
        // multipleOf, or in words where a validator's floating-point division would refuse
        // exact decimals (0.2 / 0.000001 is 199999.99999999997 in binary).
        std::string step = fmt::format("{:.6f}", 1 / field.per);
        step.erase(step.find_last_not_of('0') + 1);
        EXPECT_TRUE(has("multipleOf", 1 / field.per) ||
                    property.value("description", "").find("a multiple of " + step) != std::string::npos)
            << "expected multipleOf or \"a multiple of " << step << "\" in the description";
      }
      break;
    case FieldKind::duration:
      EXPECT_EQ(property.value("$ref", ""),
                field.durations == DurationMin::positive ? "#/$defs/positive_duration" : "#/$defs/duration");
      break;
    case FieldKind::boolean: EXPECT_EQ(property.value("type", ""), "boolean"); break;
    case FieldKind::kinds: EXPECT_EQ(property.value("$ref", ""), "#/$defs/outcome_kinds"); break;
    case FieldKind::provider_kinds: EXPECT_EQ(property.value("$ref", ""), "#/$defs/provider_outcome_kinds"); break;
    case FieldKind::choice:
    case FieldKind::choices: {
      if constexpr (!std::is_same_v<typename F::Choice, detail::NoChoice>) {
        const Json& values = field.kind == FieldKind::choice ? property.at("enum") : property.at("items").at("enum");
        std::vector<std::string> names;
        for (const auto name : choice_names(field.values)) names.emplace_back(name);
        EXPECT_EQ(values, Json(names));
      }
      break;
    }
    default:  // text, names, words, whole seconds and shapes: their forms are the schema's own
      break;
  }
}

// The schema's $defs entry of each strategy has the table's keys, bounds, enums and defaults.
TYPED_TEST(ConfigTable, SchemaMatchesTheTable) {
  constexpr auto kTable = fields_of<TypeParam>();
  const Json& def = schema_defs().at(std::string(TypeParam::kName));
  std::set<std::string> schema_keys;
  for (const auto& [key, value] : def.at("properties").items()) schema_keys.insert(key);
  constexpr auto kKeys = kTable.keys();
  std::set<std::string> table_keys(kKeys.begin(), kKeys.end());
  EXPECT_EQ(schema_keys, table_keys);
  std::apply(
      [&](const auto&... field) {
        ((def.at("properties").contains(std::string(field.key))
              ? expect_schema_field(field, def.at("properties").at(std::string(field.key)))
              : void()),
         ...);
      },
      kTable.fields);
}

template <class F>
void expect_doc_row(const F& field, const DocRow& row) {
  SCOPED_TRACE(fmt::format("{}: | {} | {} |", field.key, row.type, row.default_text));
  if (field.required) {
    EXPECT_EQ(row.default_text, "**required**");
  } else if (field.default_json.empty()) {
    // No default, or one that depends on another key ("`1`; `10` with `sliding_window`").
    EXPECT_TRUE(row.default_text.starts_with("none") || row.default_text.starts_with("all") ||
                row.default_text.find(" with `") != std::string::npos);
  } else if (const Json value = Json::parse(field.default_json);
             !value.is_array() || value.empty() || (value.size() <= 5 && !value.front().is_object())) {
    // A long list (filler words) or a list of objects (escalation's rules) is documented in
    // words; the schema test checks its JSON.
    bool found = false;
    for (const auto& text : doc_defaults(value)) found = found || row.default_text.starts_with(text);
    EXPECT_TRUE(found) << "expected the default " << doc_defaults(value).front();
  }
  if (field.kind == FieldKind::integer) {
    EXPECT_TRUE(
        mentions_range(row.type, '[', static_cast<double>(field.ints.min), static_cast<double>(field.ints.max)));
  } else if (field.kind == FieldKind::number || field.kind == FieldKind::scaled) {
    EXPECT_TRUE(
        mentions_range(row.type, field.numbers.min_exclusive ? '(' : '[', field.numbers.min, field.numbers.max));
  } else if (field.kind == FieldKind::duration) {
    // Bounded by zero, or by another key of the table ("duration ≥ `base_delay`").
    const bool bounded_by_key = row.type.find("≥ `") != std::string::npos || row.type.find(">= `") != std::string::npos;
    EXPECT_TRUE(bounded_by_key ||
                row.type.find(field.durations == DurationMin::positive ? "> 0" : "0") != std::string::npos)
        << row.type;
  }
  if constexpr (!std::is_same_v<typename F::Choice, detail::NoChoice>) {
    for (const auto name : choice_names(field.values)) {
      EXPECT_NE(row.type.find(fmt::format("\"{}\"", name)), std::string::npos) << name;
    }
  }
}

// docs/scenario-format.md's table of each strategy lists the table's keys, with their
// defaults and bounds.
TYPED_TEST(ConfigTable, FormatReferenceMatchesTheTable) {
  constexpr auto kTable = fields_of<TypeParam>();
  const auto rows = doc_table(TypeParam::kName);
  std::set<std::string> doc_keys;
  for (const auto& [key, row] : rows) doc_keys.insert(key);
  constexpr auto kKeys = kTable.keys();
  std::set<std::string> table_keys(kKeys.begin(), kKeys.end());
  EXPECT_EQ(doc_keys, table_keys);
  std::apply(
      [&](const auto&... field) {
        ((rows.contains(std::string(field.key)) ? expect_doc_row(field, rows.at(std::string(field.key))) : void()),
         ...);
      },
      kTable.fields);
}

}  // namespace
}  // namespace squall

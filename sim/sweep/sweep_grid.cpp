#include "sim/sweep/sweep_grid.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "reports/sweep_names.hpp"
#include "sim/scenario/policy_reader.hpp"
#include "sim/scenario/tool_reader.hpp"
#include "sim/scenario_loader.hpp"

namespace squall {
namespace {

// The first error of a policy made by the sweep, as one clause; the others are alike.
std::string first_problem(const std::vector<ValidationError>& errors) {
  const ValidationError& e = errors.front();
  std::string text = e.path.empty() ? e.message : fmt::format("{}: {}", e.path, e.message);
  if (errors.size() > 1) text += fmt::format(" (and {} more)", errors.size() - 1);
  return text;
}

// Splits a JSON Pointer into its parent and its unescaped last token; nullopt when it is
// not a pointer to a member (it must start with '/' and parse as RFC 6901).
std::optional<std::pair<Json::json_pointer, std::string>> split_pointer(const std::string& pointer) {
  if (pointer.empty() || pointer.front() != '/') return std::nullopt;
  try {
    Json::json_pointer p(pointer);
    std::string last = p.back();
    return std::make_pair(p.parent_pointer(), std::move(last));
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

// The pointer inside its document of an axis: a scenario axis's without "/scenario".
std::string document_pointer(const std::string& pointer) {
  return is_scenario_pointer(pointer) ? pointer.substr(kScenarioAxisPrefix.size()) : pointer;
}

// The value `pointer` names in `policy`, or null. nlohmann's contains() throws on an array
// index it cannot represent (out_of_range 404 for one above 2^64), which names no element.
const Json* value_at(const Json& policy, const Json::json_pointer& pointer) {
  try {
    return policy.contains(pointer) ? &policy.at(pointer) : nullptr;
  } catch (const nlohmann::json::exception&) {
    return nullptr;
  }
}

}  // namespace

std::vector<std::vector<std::size_t>> grid_combinations(const std::vector<GridAxis>& axes) {
  std::vector<std::vector<std::size_t>> out;
  std::vector<std::size_t> current(axes.size(), 0);
  for (const GridAxis& axis : axes) {
    if (axis.values.empty()) return out;
  }
  while (true) {
    out.push_back(current);
    // An odometer: the last axis turns fastest.
    std::size_t a = axes.size();
    while (a > 0) {
      --a;
      if (++current[a] < axes[a].values.size()) break;
      current[a] = 0;
      if (a == 0) return out;
    }
    if (axes.empty()) return out;
  }
}

std::string expanded_name(const std::string& name, const std::vector<GridAxis>& axes,
                          const std::vector<std::size_t>& combination) {
  SweepParams params;
  for (std::size_t a = 0; a < axes.size(); ++a)
    params.emplace_back(axes[a].pointer, axes[a].values[combination[a]].dump());
  return fmt::format("{}{}", name, grid_suffix(params));
}

std::vector<ValidationError> read_variant_policy(const Json& policy, PolicyOrigin origin, const Scenario& scenario,
                                                 const std::string& file, PolicyConfig& out) {
  Diagnostics diag(file);
  if (origin == PolicyOrigin::scenario) {
    // As the loader reads the scenario's own block: cross-checked, but a tool it leaves
    // out calls its provider directly.
    const ScenarioNames names = scenario_names(scenario);
    out = read_policy(policy, "", &names, diag);
    return diag.take();
  }
  out = read_policy(policy, "", nullptr, diag);
  if (diag.count() > 0) return diag.take();
  PolicyMerge merge = merge_policy(scenario, out, file);
  if (merge.errors.empty()) out = std::move(merge.policy);
  return std::move(merge.errors);
}

std::string effective_policy_json(const Json& policy, PolicyOrigin origin, const Json& scenario_root,
                                  const PolicyConfig& merged) {
  Json out = policy;
  if (origin == PolicyOrigin::file) {
    out = scenario_root.contains("policy") ? scenario_root.at("policy") : Json::object();
    for (const auto& [key, value] : policy.items()) {
      if (merged.contains(key)) out[key] = value;
    }
  }
  // With every object's keys sorted (nlohmann::json's std::map), so key order is not identity.
  return nlohmann::json(out).dump();
}

namespace {

// Whether pointer `inner` is `outer` or lies inside it, token by token ("/a/b" is inside
// "/a", "/ab" is not).
bool is_within(const std::string& inner, const std::string& outer) {
  return inner.size() >= outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
         (inner.size() == outer.size() || inner[outer.size()] == '/');
}

// The number of combinations of `axes` (as a double: 100 axes of 1,000 values are 1e300).
double combination_count(const std::vector<GridAxis>& axes) {
  double n = 1;
  for (const GridAxis& axis : axes) n *= static_cast<double>(axis.values.size());
  return n;
}

// At most this many failing combinations are listed, then a count of the rest: a grid
// of a thousand combinations that all fail alike needs one line, not a thousand.
constexpr std::size_t kListedCombinationErrors = 10;

// A scenario axis's path must not enter the scenario's policy block: that is the
// variant's policy, which an axis without "/scenario" addresses. Nor its thresholds: they
// are the sweep's constraints, one set for every variant (feasibility is the share of seeds
// on which each passes), so a variant cannot bring its own.
std::optional<std::string> scenario_path_problem(const std::string& pointer) {
  const std::string inside = document_pointer(pointer);
  if (is_within(inside, "/policy")) {
    return fmt::format("\"{}\" is in the scenario's policy block, which is the variant's policy: write \"{}\"", pointer,
                       inside.size() > 7 ? inside.substr(7) : std::string("/TOOL/..."));
  }
  if (is_within(inside, "/thresholds")) {
    return fmt::format(
        "\"{}\" is in the scenario's thresholds, which are the sweep's constraints for every variant: change them in "
        "the scenario file, or loosen `decision.feasible_pass_rate`",
        pointer);
  }
  return std::nullopt;
}

// An axis's path: a pointer to a member of an object its document (the policy, or the
// scenario for "/scenario/..." paths) has; a message when it is not.
std::optional<std::string> path_problem(const GridDocuments& docs, const std::string& pointer) {
  const bool scenario = is_scenario_pointer(pointer);
  const auto split = split_pointer(document_pointer(pointer));
  if (!split || split->second.empty()) {  // "/llm/1/retry/" names the key ""
    return fmt::format("expected a JSON Pointer such as \"{}\", got \"{}\"",
                       scenario ? "/scenario/providers/llm/faults/0/probability" : "/llm/1/retry/max_attempts",
                       pointer);
  }
  if (scenario) {
    if (auto problem = scenario_path_problem(pointer)) return problem;
  }
  const char* document = scenario ? "scenario" : "policy";
  const Json* parent = value_at(scenario ? docs.scenario : docs.policy, split->first);
  if (parent != nullptr && parent->is_object()) return std::nullopt;
  // An array there is a list of strategies (or of values): its items are replaced
  // whole by an axis on the array itself, never one by one.
  if (parent != nullptr && parent->is_array()) {
    return fmt::format(
        "\"{}\" is an array in the {}: a grid path ends in a key of an object (\"{}\"), not an item "
        "of an array",
        split->first.to_string(), document,
        scenario ? "/scenario/providers/llm/faults/0/probability" : "/llm/1/retry/max_attempts");
  }
  return fmt::format("the {} has no object at \"{}\" to hold \"{}\"", document, split->first.to_string(),
                     split->second);
}

// Each axis's path is a member of an object its document has, and not within another
// axis's path (the outer axis's value would replace what the inner one wrote, or the inner
// write would fail on the value put there).
void check_axes(const GridDocuments& docs, const std::vector<GridAxis>& axes, Diagnostics& diag) {
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const GridAxis& axis = axes[a];
    const std::string path_path = pointer_append(axis.path, "path");
    if (const auto problem = path_problem(docs, axis.pointer)) {
      diag.error(path_path, *problem);
      continue;
    }
    for (std::size_t b = 0; b < a; ++b) {
      const GridAxis& other = axes[b];
      if (is_within(axis.pointer, other.pointer) || is_within(other.pointer, axis.pointer)) {
        diag.error(path_path, fmt::format("\"{}\" overlaps \"{}\" ({}/path): one axis would overwrite what the other "
                                          "writes; sweep the outer value's variations as its values",
                                          axis.pointer, other.pointer, other.path));
      }
    }
  }
}

// One grid point read: the scenario (when an axis sets it) and the policy, or the errors
// of the first that is not valid.
struct Point {
  std::vector<ValidationError> errors;
  const char* invalid = "policy";  // which document the errors are of
  SweepVariant variant;
};

// The documents with the values `pick` chooses (a value index per axis, or none: as
// written) written in, read: the scenario with the loader's every rule, the policy
// cross-checked against that scenario.
Point read_point(const GridDocuments& docs, const SweepVariant& base, const std::vector<GridAxis>& axes,
                 const std::vector<std::optional<std::size_t>>& pick) {
  Point point{{}, "policy", base};
  Json policy = docs.policy;
  std::optional<Json> scenario;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    if (!pick[a]) continue;
    const bool in_scenario = is_scenario_pointer(axes[a].pointer);
    if (in_scenario && !scenario) scenario = docs.scenario;
    const auto split = split_pointer(document_pointer(axes[a].pointer));
    Json& document = in_scenario ? *scenario : policy;
    document.at(split->first)[split->second] = axes[a].values[*pick[a]];
  }
  if (scenario) {
    LoadResult loaded = load_scenario_text(scenario->dump(), docs.scenario_config.source);
    if (!loaded.ok()) {
      point.errors = std::move(loaded.errors);
      point.invalid = "scenario";
      return point;
    }
    point.variant.scenario = std::make_shared<const Scenario>(std::move(*loaded.scenario));
  }
  const Scenario& against = point.variant.scenario ? *point.variant.scenario : docs.scenario_config;
  point.errors = read_variant_policy(policy, docs.origin, against, "", point.variant.policy);
  if (point.errors.empty()) {
    point.variant.policy_json =
        effective_policy_json(policy, docs.origin, scenario ? *scenario : docs.scenario, point.variant.policy);
  }
  return point;
}

// Every combination of the axes' values read, and per axis and value how many
// combinations hold it and how many of those fail.
struct GridReading {
  std::vector<std::vector<std::size_t>> combinations;
  std::vector<Point> points;                      // per combination
  std::vector<std::vector<std::size_t>> failing;  // per axis and value
  std::vector<std::vector<std::size_t>> holding;  // per axis and value
};

GridReading read_combinations(const GridDocuments& docs, const SweepVariant& base, const std::vector<GridAxis>& axes) {
  GridReading g;
  g.combinations = grid_combinations(axes);
  g.failing.resize(axes.size());
  for (std::size_t a = 0; a < axes.size(); ++a) g.failing[a].assign(axes[a].values.size(), 0);
  g.holding = g.failing;
  for (const std::vector<std::size_t>& combination : g.combinations) {
    g.points.push_back(read_point(docs, base, axes, {combination.begin(), combination.end()}));
    for (std::size_t a = 0; a < axes.size(); ++a) {
      ++g.holding[a][combination[a]];
      if (!g.points.back().errors.empty()) ++g.failing[a][combination[a]];
    }
  }
  return g;
}

// The values that are wrong whatever the other axes say, reported at themselves: every
// combination holding one fails, and it fails alone too (on the documents as written). The
// message is the value's first combination's, which names the other axes' values rather
// than those of the files that no combination runs. Returns per axis and value whether it
// was reported.
std::vector<std::vector<bool>> report_bad_values(const GridReading& g, const GridDocuments& docs,
                                                 const SweepVariant& base, const std::vector<GridAxis>& axes,
                                                 Diagnostics& diag) {
  std::vector<std::vector<bool>> reported(axes.size());
  for (std::size_t a = 0; a < axes.size(); ++a) {
    reported[a].assign(axes[a].values.size(), false);
    for (std::size_t k = 0; k < axes[a].values.size(); ++k) {
      if (g.failing[a][k] != g.holding[a][k]) continue;
      std::vector<std::optional<std::size_t>> alone(axes.size());
      alone[a] = k;
      if (read_point(docs, base, axes, alone).errors.empty()) continue;
      std::size_t first = 0;
      while (g.combinations[first][a] != k) ++first;
      diag.error(
          pointer_append(pointer_append(axes[a].path, "values"), k),
          fmt::format("makes an invalid {}: {}", g.points[first].invalid, first_problem(g.points[first].errors)));
      reported[a][k] = true;
    }
  }
  return reported;
}

// The other failing combinations, at the grid: their values are each fine, but not together
// (base_delay above max_delay), so a cross-field rule checks combinations, never a value
// against the other fields as written.
void report_bad_combinations(const GridReading& g, const std::vector<std::vector<bool>>& reported,
                             const std::string& base_name, const std::vector<GridAxis>& axes,
                             const std::string& grid_path, Diagnostics& diag) {
  std::size_t listed = 0;
  std::size_t unlisted = 0;
  for (std::size_t c = 0; c < g.combinations.size(); ++c) {
    if (g.points[c].errors.empty()) continue;
    bool by_value = false;
    for (std::size_t a = 0; a < axes.size(); ++a) by_value = by_value || reported[a][g.combinations[c][a]];
    if (by_value) continue;
    if (listed == kListedCombinationErrors) {
      ++unlisted;
      continue;
    }
    ++listed;
    const std::string name = expanded_name(base_name, axes, g.combinations[c]);
    diag.error(grid_path, fmt::format("{} makes an invalid {}: {}", name.substr(base_name.size()), g.points[c].invalid,
                                      first_problem(g.points[c].errors)));
  }
  if (unlisted > 0) diag.error(grid_path, fmt::format("and {} more combinations make invalid policies", unlisted));
}

}  // namespace

void expand_grid(const SweepVariant& base, const GridDocuments& docs, const std::vector<GridAxis>& axes,
                 const std::string& grid_path, Diagnostics& diag, std::vector<SweepVariant>& out) {
  const std::size_t errors_before = diag.count();
  check_axes(docs, axes, diag);
  if (diag.count() != errors_before) return;
  // Counted before any is built: five axes of 100 values are 10^10 combinations.
  if (const double n = combination_count(axes); n > static_cast<double>(kMaxSweepVariants)) {
    diag.error(grid_path,
               fmt::format("expected at most {} combinations of the axes' values, got {:.15g}", kMaxSweepVariants, n));
    return;
  }
  GridReading g = read_combinations(docs, base, axes);
  const auto reported = report_bad_values(g, docs, base, axes, diag);
  report_bad_combinations(g, reported, base.name, axes, grid_path, diag);
  if (diag.count() != errors_before) return;
  for (std::size_t c = 0; c < g.combinations.size(); ++c) {
    SweepVariant& variant = g.points[c].variant;
    variant.name = expanded_name(base.name, axes, g.combinations[c]);
    for (std::size_t a = 0; a < axes.size(); ++a) {
      variant.params.emplace_back(axes[a].pointer, axes[a].values[g.combinations[c][a]].dump());
    }
    out.push_back(std::move(variant));
  }
}

}  // namespace squall

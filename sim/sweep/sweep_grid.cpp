#include "sim/sweep/sweep_grid.hpp"

#include <algorithm>

#include <fmt/format.h>

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

// The policy with `values[i]` of each axis written in; nullopt when a path holds no object.
Json with_values(const Json& policy, const std::vector<GridAxis>& axes, const std::vector<std::size_t>& combination) {
  Json copy = policy;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const auto split = split_pointer(axes[a].pointer);
    copy.at(split->first)[split->second] = axes[a].values[combination[a]];
  }
  return copy;
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

std::string last_token(const std::string& pointer) {
  const auto split = split_pointer(pointer);
  return split ? split->second : pointer;
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

std::string axis_key(const std::vector<GridAxis>& axes, std::size_t a) {
  const auto unique = [&](const auto& key_of) {
    for (std::size_t b = 0; b < axes.size(); ++b) {
      if (b != a && key_of(b) == key_of(a)) return false;
    }
    return true;
  };
  const auto last = [&](std::size_t i) { return last_token(axes[i].pointer); };
  if (unique(last)) return last(a);
  const auto first_last = [&](std::size_t i) {
    Json::json_pointer p(axes[i].pointer);  // valid: expansion checked every path
    while (!p.parent_pointer().empty()) p = p.parent_pointer();
    return fmt::format("{}.{}", p.back(), last(i));
  };
  if (unique(first_last)) return first_last(a);
  return axes[a].pointer;
}

std::string expanded_name(const std::string& name, const std::vector<GridAxis>& axes,
                          const std::vector<std::size_t>& combination) {
  if (axes.empty()) return name;
  std::string out = name + "[";
  for (std::size_t a = 0; a < axes.size(); ++a) {
    if (a > 0) out += ',';
    out += fmt::format("{}={}", axis_key(axes, a), axes[a].values[combination[a]].dump());
  }
  out += ']';
  return out;
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

// Each axis's path: a pointer to a member of an object the policy has, and not within
// another axis's path (the outer axis's value would replace what the inner one wrote, or
// the inner write would fail on the value put there).
void check_axes(const Json& policy, const std::vector<GridAxis>& axes, Diagnostics& diag) {
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const GridAxis& axis = axes[a];
    const auto split = split_pointer(axis.pointer);
    const std::string path_path = pointer_append(axis.path, "path");
    if (!split || split->second.empty()) {  // "/llm/1/retry/" names the key ""
      diag.error(path_path, fmt::format("expected a JSON Pointer such as \"/llm/1/retry/max_attempts\", got \"{}\"",
                                        axis.pointer));
      continue;
    }
    const Json* parent = value_at(policy, split->first);
    if (parent == nullptr || !parent->is_object()) {
      // An array there is a list of strategies (or of values): its items are replaced
      // whole by an axis on the array itself, never one by one.
      diag.error(path_path, parent != nullptr && parent->is_array()
                                ? fmt::format("\"{}\" is an array in the policy: a grid path ends in a key of an "
                                              "object (\"/llm/1/retry/max_attempts\"), not an item of an array",
                                              split->first.to_string())
                                : fmt::format("the policy has no object at \"{}\" to hold \"{}\"",
                                              split->first.to_string(), split->second));
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

// Every combination of the axes' values read as a policy, and per axis and value how many
// combinations hold it and how many of those fail.
struct GridReading {
  std::vector<std::vector<std::size_t>> combinations;
  std::vector<std::vector<ValidationError>> errors;  // per combination
  std::vector<SweepVariant> variants;                // per combination
  std::vector<std::vector<std::size_t>> failing;     // per axis and value
  std::vector<std::vector<std::size_t>> holding;     // per axis and value
};

GridReading read_combinations(const SweepVariant& base, const Json& policy, const std::vector<GridAxis>& axes,
                              PolicyOrigin origin, const Scenario& scenario) {
  GridReading g;
  g.combinations = grid_combinations(axes);
  g.errors.resize(g.combinations.size());
  g.variants.assign(g.combinations.size(), base);
  g.failing.resize(axes.size());
  for (std::size_t a = 0; a < axes.size(); ++a) g.failing[a].assign(axes[a].values.size(), 0);
  g.holding = g.failing;
  for (std::size_t c = 0; c < g.combinations.size(); ++c) {
    const Json document = with_values(policy, axes, g.combinations[c]);
    g.errors[c] = read_variant_policy(document, origin, scenario, "", g.variants[c].policy);
    for (std::size_t a = 0; a < axes.size(); ++a) {
      ++g.holding[a][g.combinations[c][a]];
      if (!g.errors[c].empty()) ++g.failing[a][g.combinations[c][a]];
    }
    g.variants[c].policy_json = g.errors[c].empty() ? document.dump() : std::string();
  }
  return g;
}

// The values that are wrong whatever the other axes say, reported at themselves: every
// combination holding one fails, and it fails alone too (on the policy as written). The
// message is the value's first combination's, which names the other axes' values rather
// than those of the file that no combination runs. Returns per axis and value whether it
// was reported.
std::vector<std::vector<bool>> report_bad_values(const GridReading& g, const Json& policy,
                                                 const std::vector<GridAxis>& axes, PolicyOrigin origin,
                                                 const Scenario& scenario, Diagnostics& diag) {
  std::vector<std::vector<bool>> reported(axes.size());
  for (std::size_t a = 0; a < axes.size(); ++a) {
    reported[a].assign(axes[a].values.size(), false);
    const auto split = split_pointer(axes[a].pointer);
    for (std::size_t k = 0; k < axes[a].values.size(); ++k) {
      if (g.failing[a][k] != g.holding[a][k]) continue;
      Json alone = policy;
      alone.at(split->first)[split->second] = axes[a].values[k];
      PolicyConfig ignored;
      if (read_variant_policy(alone, origin, scenario, "", ignored).empty()) continue;
      std::size_t first = 0;
      while (g.combinations[first][a] != k) ++first;
      diag.error(pointer_append(pointer_append(axes[a].path, "values"), k),
                 "makes an invalid policy: " + first_problem(g.errors[first]));
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
    if (g.errors[c].empty()) continue;
    bool by_value = false;
    for (std::size_t a = 0; a < axes.size(); ++a) by_value = by_value || reported[a][g.combinations[c][a]];
    if (by_value) continue;
    if (listed == kListedCombinationErrors) {
      ++unlisted;
      continue;
    }
    ++listed;
    const std::string name = expanded_name(base_name, axes, g.combinations[c]);
    diag.error(grid_path, fmt::format("{} makes an invalid policy: {}", name.substr(base_name.size()),
                                      first_problem(g.errors[c])));
  }
  if (unlisted > 0) diag.error(grid_path, fmt::format("and {} more combinations make invalid policies", unlisted));
}

}  // namespace

void expand_grid(const SweepVariant& base, const Json& policy, const std::vector<GridAxis>& axes,
                 const std::string& grid_path, const Scenario& scenario, Diagnostics& diag,
                 std::vector<SweepVariant>& out) {
  const std::size_t errors_before = diag.count();
  const PolicyOrigin origin = base.policy_file ? PolicyOrigin::file : PolicyOrigin::scenario;
  check_axes(policy, axes, diag);
  if (diag.count() != errors_before) return;
  // Counted before any is built: five axes of 100 values are 10^10 combinations.
  if (const double n = combination_count(axes); n > static_cast<double>(kMaxSweepVariants)) {
    diag.error(grid_path,
               fmt::format("expected at most {} combinations of the axes' values, got {:.15g}", kMaxSweepVariants, n));
    return;
  }
  GridReading g = read_combinations(base, policy, axes, origin, scenario);
  const auto reported = report_bad_values(g, policy, axes, origin, scenario, diag);
  report_bad_combinations(g, reported, base.name, axes, grid_path, diag);
  if (diag.count() != errors_before) return;
  for (std::size_t c = 0; c < g.combinations.size(); ++c) {
    SweepVariant& variant = g.variants[c];
    variant.name = expanded_name(base.name, axes, g.combinations[c]);
    for (std::size_t a = 0; a < axes.size(); ++a) {
      variant.params.emplace_back(axes[a].pointer, axes[a].values[g.combinations[c][a]].dump());
    }
    out.push_back(std::move(variant));
  }
}

}  // namespace squall

#include "sim/sweep/sweep_grid.hpp"

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

// Whether `pointer` names an object in `policy`. nlohmann's contains() throws on an array
// index it cannot represent (out_of_range 404 for one above 2^64), which names no element.
bool holds_object(const Json& policy, const Json::json_pointer& pointer) {
  try {
    return policy.contains(pointer) && policy.at(pointer).is_object();
  } catch (const nlohmann::json::exception&) {
    return false;
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
  return check_policy(scenario, out, file);
}

void expand_grid(const SweepVariant& base, const Json& policy, const std::vector<GridAxis>& axes,
                 const std::string& grid_path, const Scenario& scenario, Diagnostics& diag,
                 std::vector<SweepVariant>& out) {
  const std::size_t errors_before = diag.count();
  const PolicyOrigin origin = base.policy_file ? PolicyOrigin::file : PolicyOrigin::scenario;
  // Each axis alone: its path, then each of its values on the policy as written.
  std::vector<std::vector<bool>> value_ok(axes.size());
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const GridAxis& axis = axes[a];
    value_ok[a].assign(axis.values.size(), false);
    const auto split = split_pointer(axis.pointer);
    const std::string path_path = pointer_append(axis.path, "path");
    if (!split) {
      diag.error(path_path, fmt::format("expected a JSON Pointer such as \"/llm/1/retry/max_attempts\", got \"{}\"",
                                        axis.pointer));
      continue;
    }
    if (!holds_object(policy, split->first)) {
      diag.error(path_path, fmt::format("the policy has no object at \"{}\" to hold \"{}\"", split->first.to_string(),
                                        split->second));
      continue;
    }
    for (std::size_t k = 0; k < axis.values.size(); ++k) {
      Json copy = policy;
      copy.at(split->first)[split->second] = axis.values[k];
      PolicyConfig ignored;
      const auto errors = read_variant_policy(copy, origin, scenario, "", ignored);
      if (!errors.empty()) {
        diag.error(pointer_append(pointer_append(axis.path, "values"), k),
                   "makes an invalid policy: " + first_problem(errors));
      } else {
        value_ok[a][k] = true;
      }
    }
  }
  if (diag.count() != errors_before) return;
  for (const std::vector<std::size_t>& combination : grid_combinations(axes)) {
    SweepVariant variant = base;
    variant.name = expanded_name(base.name, axes, combination);
    const Json document = with_values(policy, axes, combination);
    const auto errors = read_variant_policy(document, origin, scenario, "", variant.policy);
    if (!errors.empty()) {
      diag.error(grid_path, fmt::format("{} makes an invalid policy: {}", variant.name.substr(base.name.size()),
                                        first_problem(errors)));
      continue;
    }
    for (std::size_t a = 0; a < axes.size(); ++a) {
      variant.params.emplace_back(axes[a].pointer, axes[a].values[combination[a]].dump());
    }
    variant.policy_json = document.dump();
    out.push_back(std::move(variant));
    if (out.size() > kMaxSweepVariants) return;  // the caller reports it
  }
}

}  // namespace squall

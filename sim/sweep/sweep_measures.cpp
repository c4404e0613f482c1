#include "sim/sweep/sweep_measures.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include <fmt/format.h>

#include "reports/compare.hpp"

namespace squall {
namespace {

constexpr std::array<std::string_view, 2> kGoalNames{"max", "min"};

bool known_metric(std::string_view name) {
  const auto& names = headline_metric_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::optional<std::string> read_metric(const Json& v, const std::string& path, Diagnostics& diag) {
  auto name = read_string(v, path, diag);
  if (!name) return std::nullopt;
  if (!known_metric(*name)) {
    std::vector<std::string_view> names(headline_metric_names().begin(), headline_metric_names().end());
    diag.error(path, fmt::format("unknown metric \"{}\"; metrics are: {}", *name, join(names)));
    return std::nullopt;
  }
  return name;
}

// {"metric": NAME, "goal": "max" | "min"}, both required.
std::optional<SweepObjective> read_objective(const Json& v, const std::string& path, Diagnostics& diag) {
  const ObjectReader obj(v, path, diag, {"metric", "goal"});
  if (!obj.valid()) return std::nullopt;
  SweepObjective objective;
  const Json* metric = obj.require("metric");
  const auto name = metric != nullptr ? read_metric(*metric, obj.path_of("metric"), diag) : std::nullopt;
  obj.require("goal");
  const std::array<Goal, 2> goals{Goal::max, Goal::min};
  const bool goal = obj.get_choice<Goal>("goal", objective.goal, kGoalNames, goals);
  if (!name || !goal) return std::nullopt;
  objective.metric = *name;
  return objective;
}

// A min_effect value: a number >= 0 in the metric's unit, or "N%" of the baseline's mean.
std::optional<MinEffect> read_min_effect(const Json& v, const std::string& path, Diagnostics& diag) {
  MinEffect effect;
  if (v.is_string()) {
    const std::string& text = v.get_ref<const std::string&>();
    double percent = -1;
    const char* end = text.data() + text.size();
    const auto [at, ec] = std::from_chars(text.data(), end, percent);
    if (text.empty() || text.back() != '%' || ec != std::errc() || at != end - 1 || !(percent >= 0) || percent > 100) {
      diag.error(path, fmt::format("expected a number >= 0 or a percentage of the baseline's mean in [0%, 100%] "
                                   "such as \"5%\", got \"{}\"",
                                   text));
      return std::nullopt;
    }
    effect.value = percent / 100;
    effect.relative = true;
    return effect;
  }
  const auto value = read_number(v, path, diag, NumberRange{0, false});
  if (!value) return std::nullopt;
  effect.value = *value;
  return effect;
}

}  // namespace

std::size_t read_count(const ObjectReader& obj, std::string_view key, std::int64_t min, std::size_t fallback) {
  std::int64_t n = static_cast<std::int64_t>(fallback);
  obj.get(key, n, IntRange{min, static_cast<std::int64_t>(kMaxSweepSeeds)});
  return static_cast<std::size_t>(n);
}

std::optional<SweepTarget> read_target(const Json& v, const std::string& path, Diagnostics& diag) {
  const ObjectReader obj(v, path, diag, {"metric", "width", "min_seeds", "max_seeds"});
  if (!obj.valid()) return std::nullopt;
  SweepTarget target;
  const std::size_t before = diag.count();
  if (const Json* metric = obj.require("metric")) {
    if (auto m = read_metric(*metric, obj.path_of("metric"), diag)) target.metric = *m;
  }
  obj.get_number_required("width", target.width, NumberRange{0, true});
  target.min_seeds = read_count(obj, "min_seeds", 2, target.min_seeds);
  if (obj.require("max_seeds") != nullptr) {
    target.max_seeds = read_count(obj, "max_seeds", 2, 0);
    if (target.max_seeds != 0 && target.max_seeds < target.min_seeds) {
      diag.error(obj.path_of("max_seeds"),
                 fmt::format("expected an integer >= min_seeds ({}), got {}", target.min_seeds, target.max_seeds));
    }
  }
  if (diag.count() != before) return std::nullopt;
  return target;
}

std::vector<std::string> read_metrics(const Json& v, const std::string& path, Diagnostics& diag) {
  std::vector<std::string> out;
  const auto items = read_array(v, path, diag, /*nonempty=*/true);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto name = read_metric(items[i], pointer_append(path, i), diag);
    if (!name) continue;
    const auto seen = std::find(out.begin(), out.end(), *name);
    if (seen != out.end()) {
      diag.error(pointer_append(path, i), fmt::format("duplicate metric \"{}\"", *name));
      continue;
    }
    out.push_back(*name);
  }
  return out;
}

std::vector<SweepObjective> read_objectives(const Json& v, const std::string& path, Diagnostics& diag) {
  std::vector<SweepObjective> out;
  const auto items = read_array(v, path, diag, /*nonempty=*/true);
  for (std::size_t i = 0; i < items.size(); ++i) {
    auto objective = read_objective(items[i], pointer_append(path, i), diag);
    if (!objective) continue;
    for (const SweepObjective& o : out) {
      if (o.metric == objective->metric) {
        diag.error(pointer_append(pointer_append(path, i), "metric"),
                   fmt::format("duplicate objective \"{}\"", objective->metric));
      }
    }
    out.push_back(std::move(*objective));
  }
  return out;
}

// "decision": {"objective", "feasible_pass_rate", "min_effect"}, all optional.
SweepDecision read_decision(const Json& v, const std::string& path, Diagnostics& diag) {
  SweepDecision decision;
  const ObjectReader obj(v, path, diag, {"objective", "feasible_pass_rate", "min_effect"});
  if (!obj.valid()) return decision;
  if (const Json* objective = obj.find("objective")) {
    if (auto o = read_objective(*objective, obj.path_of("objective"), diag)) decision.objective = std::move(*o);
  }
  obj.get("feasible_pass_rate", decision.feasible_pass_rate, kProbability);
  if (const Json* effects = obj.find("min_effect")) {
    const std::string at = obj.path_of("min_effect");
    if (!effects->is_object()) {
      diag.error(at, "expected an object of metric names to minimum effects, e.g. {\"latency_ms.p99\": \"5%\"}");
      return decision;
    }
    for (const auto& [name, value] : effects->items()) {
      const std::string key_path = pointer_append(at, name);
      if (!read_metric(Json(name), key_path, diag)) continue;
      if (auto effect = read_min_effect(value, key_path, diag)) {
        effect->metric = name;
        decision.min_effects.push_back(std::move(*effect));
      }
    }
  }
  return decision;
}

}  // namespace squall

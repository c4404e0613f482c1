#include "reports/sweep_partial_header.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "engine/text.hpp"
#include "reports/compare.hpp"

namespace squall {
namespace {

using namespace partial_json;

// The seeds: first_seed, first_seed + 1, ... (sweep_spec.hpp), so a message can show them as
// a range.
void read_seeds(const std::string& file, const Json& h, const std::string& at, SweepResult& r) {
  const Json& seeds = array_at(file, h, at, "seeds", 1, kMaxSweepSeeds);
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    const Json& s = seeds[i];
    const bool next = s.is_number_unsigned() &&
                      (i == 0 || (r.seeds.back() != UINT64_MAX && s.get<std::uint64_t>() == r.seeds.back() + 1));
    if (!next) {
      bad_value(file, fmt::format("{}/seeds/{}", at, i),
                i == 0 ? std::string("an unsigned integer") : fmt::format("the seed after {}", r.seeds.back()), &s);
    }
    r.seeds.push_back(s.get<std::uint64_t>());
  }
}

void read_metrics(const std::string& file, const Json& h, const std::string& at, SweepResult& r) {
  const Json& metrics = array_at(file, h, at, "metrics", 1, headline_metric_names().size());
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    const std::string pointer = fmt::format("{}/metrics/{}", at, m);
    std::string name = metric_at(file, metrics[m], pointer, nullptr);
    if (std::find(r.metrics.begin(), r.metrics.end(), name) != r.metrics.end()) {
      bad(file, fmt::format("{}: duplicate metric \"{}\"", pointer, name));
    }
    r.metrics.push_back(std::move(name));
  }
}

// The objectives, each over one of the metrics read before.
void read_objectives(const std::string& file, const Json& h, const std::string& at, SweepResult& r) {
  const Json& objectives = array_at(file, h, at, "objectives", 1, r.metrics.size());
  for (std::size_t o = 0; o < objectives.size(); ++o) {
    const std::string pointer = fmt::format("{}/objectives/{}", at, o);
    const Json& j = objectives[o];
    if (!j.is_object()) bad_value(file, pointer, "an object {\"metric\", \"goal\"}", &j);
    only_keys(file, j, pointer, {"metric", "goal"});
    const Json* metric = member(j, "metric");
    if (metric == nullptr) bad_value(file, pointer + "/metric", "one of the sweep's metrics", nullptr);
    std::string name = metric_at(file, *metric, pointer + "/metric", &r.metrics);
    for (const SweepObjective& seen : r.objectives) {
      if (seen.metric == name) bad(file, fmt::format("{}/metric: duplicate objective \"{}\"", pointer, name));
    }
    const Json* goal = member(j, "goal");
    if (goal == nullptr || (*goal != "max" && *goal != "min")) {
      bad_value(file, pointer + "/goal", "\"max\" or \"min\"", goal);
    }
    r.objectives.push_back({std::move(name), *goal == "max" ? Goal::max : Goal::min});
  }
}

// The scenario's thresholds as the sweep names them: printable, non-empty lines.
void read_thresholds(const std::string& file, const Json& h, const std::string& at, SweepResult& r) {
  constexpr std::size_t kMaxThresholds = 10000;  // far above any scenario's; bounds the runs' "passed"
  const Json& thresholds = array_at(file, h, at, "thresholds", 0, kMaxThresholds);
  for (std::size_t t = 0; t < thresholds.size(); ++t) {
    r.thresholds.push_back(text_at(file, &thresholds[t], fmt::format("{}/thresholds/{}", at, t), Text::name));
  }
}

// The decision's settings (partial_json_text): an objective over one of the metrics, a
// pass rate in [0, 1], minimum effects of distinct metrics.
void read_decision(const std::string& file, const Json& h, const std::string& at, SweepResult& r) {
  const std::string here = at + "/decision";
  const Json* d = member(h, "decision");
  if (d == nullptr || !d->is_object()) bad_value(file, here, "an object", d);
  only_keys(file, *d, here, {"objective", "feasible_pass_rate", "min_effect"});
  const Json* objective = member(*d, "objective");
  if (objective == nullptr || !objective->is_object()) bad_value(file, here + "/objective", "an object", objective);
  only_keys(file, *objective, here + "/objective", {"metric", "goal"});
  const Json* metric = member(*objective, "metric");
  if (metric == nullptr) bad_value(file, here + "/objective/metric", "one of the sweep's metrics", nullptr);
  r.decision.objective.metric = metric_at(file, *metric, here + "/objective/metric", &r.metrics);
  const Json* goal = member(*objective, "goal");
  if (goal == nullptr || (*goal != "max" && *goal != "min")) {
    bad_value(file, here + "/objective/goal", "\"max\" or \"min\"", goal);
  }
  r.decision.objective.goal = *goal == "max" ? Goal::max : Goal::min;
  const Json* rate = member(*d, "feasible_pass_rate");
  if (rate == nullptr || !rate->is_number() || !(rate->get<double>() >= 0 && rate->get<double>() <= 1)) {
    bad_value(file, here + "/feasible_pass_rate", "a number in [0, 1]", rate);
  }
  r.decision.feasible_pass_rate = rate->get<double>();
  const Json& effects = array_at(file, *d, here, "min_effect", 0, r.metrics.size());
  for (std::size_t i = 0; i < effects.size(); ++i) {
    const std::string pointer = fmt::format("{}/min_effect/{}", here, i);
    const Json& e = effects[i];
    if (!e.is_object()) bad_value(file, pointer, "an object {\"metric\", \"value\", \"relative\"}", &e);
    only_keys(file, e, pointer, {"metric", "value", "relative"});
    const Json* m = member(e, "metric");
    if (m == nullptr) bad_value(file, pointer + "/metric", "one of the sweep's metrics", nullptr);
    MinEffect effect;
    effect.metric = metric_at(file, *m, pointer + "/metric", &r.metrics);
    for (const MinEffect& seen : r.decision.min_effects) {
      if (seen.metric == effect.metric) bad(file, fmt::format("{}/metric: duplicate \"{}\"", pointer, effect.metric));
    }
    const Json* value = member(e, "value");
    if (value == nullptr || !value->is_number() || !(value->get<double>() >= 0) ||
        !std::isfinite(value->get<double>())) {
      bad_value(file, pointer + "/value", "a finite number >= 0", value);
    }
    effect.value = value->get<double>();
    const Json* relative = member(e, "relative");
    if (relative == nullptr || !relative->is_boolean())
      bad_value(file, pointer + "/relative", "true or false", relative);
    effect.relative = relative->get<bool>();
    r.decision.min_effects.push_back(std::move(effect));
  }
}

// A variant's params: JSON Pointers (RFC 6901: ~ only as ~0 or ~1) to the values they set.
void read_params(const std::string& file, const Json& j, const std::string& pointer, SweepVariantInfo& info) {
  const Json* params = member(j, "params");
  if (params == nullptr || !params->is_object()) bad_value(file, pointer + "/params", "an object", params);
  for (const auto& [path, value] : params->items()) {
    bool is_pointer = !path.empty() && path.front() == '/';
    try {
      if (is_pointer) Json::json_pointer{path};
    } catch (const nlohmann::json::exception&) {
      is_pointer = false;
    }
    if (!is_pointer) {
      bad(file, fmt::format("{}/params: expected JSON Pointers as keys, got \"{}\"", pointer, path));
    }
    info.params.emplace_back(path, value.dump(-1, ' ', false, Json::error_handler_t::replace));
  }
}

SweepVariantInfo read_variant(const std::string& file, const Json& j, const std::string& pointer,
                              const std::vector<SweepVariantInfo>& before) {
  if (!j.is_object()) bad_value(file, pointer, "an object {\"name\", \"policy\", \"params\", \"policy_digest\"}", &j);
  only_keys(file, j, pointer, {"name", "policy", "params", "policy_digest"});
  SweepVariantInfo info;
  info.name = string_at(file, j, pointer, "name", Text::name);
  for (const SweepVariantInfo& seen : before) {
    if (seen.name == info.name) bad(file, fmt::format("{}/name: duplicate variant \"{}\"", pointer, info.name));
  }
  info.policy = string_at(file, j, pointer, "policy", Text::path);
  read_params(file, j, pointer, info);
  info.policy_digest = digest_at(file, j, pointer, "policy_digest");
  return info;
}

}  // namespace

SweepResult read_partial_header(const std::string& file, const Json& h) {
  const std::string at = "/sweep";
  only_keys(file, h, at,
            {"name", "description", "sweep_file", "scenario", "squall_version", "seeds", "target", "baseline",
             "metrics", "objectives", "inputs_digest", "variants", "thresholds", "decision"});
  SweepResult r;
  r.name = string_at(file, h, at, "name", Text::name);
  r.description = string_at(file, h, at, "description", Text::description);
  r.sweep_file = string_at(file, h, at, "sweep_file", Text::path);
  const Json* scenario = member(h, "scenario");
  if (scenario == nullptr || !scenario->is_object()) bad_value(file, at + "/scenario", "an object", scenario);
  only_keys(file, *scenario, at + "/scenario", {"file", "name"});
  r.scenario_file = string_at(file, *scenario, at + "/scenario", "file", Text::path);
  r.scenario_name = string_at(file, *scenario, at + "/scenario", "name", Text::name);
  r.squall_version = string_at(file, h, at, "squall_version", Text::name);
  r.inputs_digest = digest_at(file, h, at, "inputs_digest");

  read_seeds(file, h, at, r);
  if (const Json* target = member(h, "target"); target == nullptr || !target->is_null()) {
    bad_value(file, at + "/target", "null (a sweep with a target is not sharded)", target);
  }
  read_metrics(file, h, at, r);
  read_objectives(file, h, at, r);
  const Json& variants = array_at(file, h, at, "variants", 1, kMaxSweepVariants);
  for (std::size_t v = 0; v < variants.size(); ++v) {
    r.variants.push_back(read_variant(file, variants[v], fmt::format("{}/variants/{}", at, v), r.variants));
  }
  const std::string baseline = string_at(file, h, at, "baseline", Text::name);
  const auto it =
      std::find_if(r.variants.begin(), r.variants.end(), [&](const SweepVariantInfo& v) { return v.name == baseline; });
  if (it == r.variants.end())
    bad_value(file, at + "/baseline", "the name of one of the variants", member(h, "baseline"));
  r.baseline = static_cast<std::size_t>(it - r.variants.begin());
  read_thresholds(file, h, at, r);
  read_decision(file, h, at, r);
  return r;
}

}  // namespace squall

#include "sim/sweep/sweep_spec.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include <fmt/format.h>

#include "reports/compare.hpp"
#include "reports/file_kind.hpp"
#include "sim/scenario/json_document.hpp"
#include "sim/scenario_loader.hpp"
#include "sim/sweep/sweep_grid.hpp"
#include "sim/sweep/sweep_measures.hpp"

namespace squall {
namespace {

namespace fs = std::filesystem;

constexpr std::array<std::string_view, 12> kSweepKeys{"$schema",    "name",     "description", "scenario",
                                                      "variants",   "baseline", "seeds",       "target",
                                                      "first_seed", "metrics",  "objectives",  "decision"};

// Where a sweep's errors that belong to other files (the scenario, a policy file) go: after
// the sweep file's own, each with its own file.
struct Reading {
  Diagnostics diag;
  std::vector<ValidationError> others;
};

// A JSON document of `file` (already validated by the loader, so errors are unexpected).
std::optional<Json> document_of(const fs::path& file, Reading& r) {
  Diagnostics diag(file.string());
  const auto text = read_text_file(file, diag);
  std::optional<ParsedDocument> doc;
  if (text) doc = parse_document(*text, file, diag);
  for (ValidationError& e : diag.take()) r.others.push_back(std::move(e));
  if (!doc) return std::nullopt;
  return std::move(doc->root);
}

std::vector<GridAxis> read_grid(const Json& v, const std::string& path, Diagnostics& diag) {
  std::vector<GridAxis> axes;
  const auto items = read_array(v, path, diag, /*nonempty=*/true);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const ObjectReader obj(items[i], pointer_append(path, i), diag, {"path", "values"});
    if (!obj.valid()) continue;
    GridAxis axis;
    axis.path = obj.path();
    const std::size_t before = diag.count();
    if (obj.require("path") != nullptr) obj.get("path", axis.pointer);
    if (const Json* values = obj.require("values")) {
      const std::string values_path = obj.path_of("values");
      const auto elements = read_array(*values, values_path, diag, /*nonempty=*/true);
      // More values than variants can never expand: refused before they are compared.
      if (elements.size() > kMaxSweepVariants) {
        diag.error(values_path, fmt::format("expected at most {} values, got {}", kMaxSweepVariants, elements.size()));
        continue;
      }
      for (std::size_t k = 0; k < elements.size(); ++k) {
        for (std::size_t j = 0; j < axis.values.size(); ++j) {
          // As values, whatever the order of an object's keys ({"a":1,"b":2} is {"b":2,"a":1}).
          // Each repeat is reported once, against the first value it repeats.
          if (nlohmann::json(axis.values[j]) == nlohmann::json(elements[k])) {
            diag.error(pointer_append(values_path, k),
                       fmt::format("duplicate value {} (also {})", elements[k].dump(), pointer_append(values_path, j)));
            break;
          }
        }
        axis.values.push_back(elements[k]);
      }
    }
    for (const GridAxis& other : axes) {
      if (!axis.pointer.empty() && other.pointer == axis.pointer) {
        diag.error(obj.path_of("path"), fmt::format("duplicate path \"{}\" (also {}/path)", axis.pointer, other.path));
      }
    }
    if (diag.count() == before) axes.push_back(std::move(axis));
  }
  return axes;
}

void read_variant(const Json& v, const std::string& path, const fs::path& dir, const Scenario& scenario,
                  const Json& scenario_document, Reading& r, std::vector<SweepVariant>& out) {
  Diagnostics& diag = r.diag;
  const ObjectReader obj(v, path, diag, {"name", "policy", "grid"});
  if (!obj.valid()) return;
  const std::size_t before = diag.count();
  SweepVariant variant;
  if (obj.require("name") != nullptr && obj.get_nonempty("name", variant.name)) {
    check_printable(variant.name, obj.path_of("name"), diag);
  }
  std::string policy_file;
  const bool has_file = obj.get_nonempty("policy", policy_file);
  if (obj.find("policy") != nullptr && !has_file) return;
  std::vector<GridAxis> axes;
  if (const Json* grid = obj.find("grid")) axes = read_grid(*grid, obj.path_of("grid"), diag);
  if (diag.count() != before) return;

  std::optional<Json> document;
  if (has_file) {
    variant.policy_file = policy_file;
    const fs::path resolved = dir / policy_file;
    PolicyLoadResult loaded = load_policy_file(resolved);
    if (!loaded.ok()) {
      diag.error(obj.path_of("policy"),
                 fmt::format("the policy file \"{}\" is not valid (its errors follow)", resolved.string()));
      for (ValidationError& e : loaded.errors) r.others.push_back(std::move(e));
      return;
    }
    document = document_of(resolved, r);
    // The notes of the file as written: a grid's values do not change which tools it names.
    variant.policy_notes = merge_policy(scenario, *loaded.policy, resolved).notes;
  } else {
    document = scenario_document.contains("policy") ? scenario_document.at("policy") : Json::object();
  }
  if (!document) return;
  if (axes.empty()) {
    const std::string label = has_file ? (dir / policy_file).string() : scenario.source.string();
    auto errors = read_variant_policy(*document, has_file ? PolicyOrigin::file : PolicyOrigin::scenario, scenario,
                                      label, variant.policy);
    if (!errors.empty()) {
      diag.error(has_file ? obj.path_of("policy") : path,
                 fmt::format("the policy {} does not fit the scenario (its errors follow)",
                             has_file ? "file \"" + label + "\"" : "of the scenario"));
      for (ValidationError& e : errors) r.others.push_back(std::move(e));
      return;
    }
    variant.policy_json = effective_policy_json(*document, has_file ? PolicyOrigin::file : PolicyOrigin::scenario,
                                                scenario_document, variant.policy);
    out.push_back(std::move(variant));
    return;
  }
  const GridDocuments docs{*document, scenario_document, scenario,
                           has_file ? PolicyOrigin::file : PolicyOrigin::scenario};
  expand_grid(variant, docs, axes, obj.path_of("grid"), diag, out);
}

void check_names(const std::vector<SweepVariant>& variants, const std::string& path, Diagnostics& diag) {
  for (std::size_t i = 0; i < variants.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (variants[i].name == variants[j].name) {
        diag.error(path, fmt::format("two variants are named \"{}\": names must be unique", variants[i].name));
        return;
      }
    }
  }
}

void read_seeds(const ObjectReader& obj, SweepSpec& spec, Diagnostics& diag) {
  const Json* seeds = obj.find("seeds");
  const Json* target = obj.find("target");
  if (seeds != nullptr && target != nullptr) {
    diag.error(obj.path_of("target"), "expected either \"seeds\" or \"target\", not both");
    return;
  }
  if (seeds == nullptr && target == nullptr) {
    diag.error("", "missing required key \"seeds\" (or \"target\")");
    return;
  }
  if (seeds != nullptr) spec.seeds = read_count(obj, "seeds", 1, 0);
  if (target != nullptr) spec.target = read_target(*target, obj.path_of("target"), diag);
  const std::size_t most = spec.target ? spec.target->max_seeds : spec.seeds;
  if (most > 0 && spec.first_seed > std::numeric_limits<std::uint64_t>::max() - (most - 1)) {
    if (obj.find("first_seed") != nullptr) {
      diag.error(obj.path_of("first_seed"), fmt::format("first_seed + {} - 1 exceeds 18446744073709551615", most));
    } else {
      // The first seed is the scenario's: the count is what this file says.
      diag.error(seeds != nullptr ? obj.path_of("seeds") : pointer_append(obj.path_of("target"), "max_seeds"),
                 fmt::format("the scenario's seed {} + {} - 1 exceeds 18446744073709551615: set first_seed lower",
                             spec.first_seed, most));
    }
  }
}

// Every metric the sweep measures: the reported ones, then objective and target metrics.
void complete_metrics(SweepSpec& spec) {
  const auto add = [&spec](const std::string& name) {
    if (std::find(spec.metrics.begin(), spec.metrics.end(), name) == spec.metrics.end()) spec.metrics.push_back(name);
  };
  for (const SweepObjective& o : spec.objectives) add(o.metric);
  if (spec.target) add(spec.target->metric);
  add(spec.decision.objective.metric);
}

// A min_effect of a metric the sweep does not report could never act.
void check_min_effects(const SweepSpec& spec, const std::string& path, Diagnostics& diag) {
  for (const MinEffect& e : spec.decision.min_effects) {
    if (std::find(spec.metrics.begin(), spec.metrics.end(), e.metric) != spec.metrics.end()) continue;
    diag.error(
        pointer_append(path, e.metric),
        fmt::format("a minimum effect for \"{}\", which the sweep does not report: add it to /metrics", e.metric));
  }
}

// The scenario the sweep runs, its errors after the sweep's own; false when it is not valid.
bool read_sweep_scenario(const ObjectReader& obj, SweepSpec& spec, Reading& r) {
  Diagnostics& diag = r.diag;
  const fs::path dir = spec.file.parent_path();
  std::string scenario_file;
  const bool has_scenario = obj.require("scenario") != nullptr && obj.get_nonempty("scenario", scenario_file);
  bool scenario_ok = false;
  if (has_scenario) {
    spec.scenario_file = dir / scenario_file;
    LoadResult loaded = load_scenario(spec.scenario_file);
    // Named here first, so the sweep's own error says which key led to the file's errors.
    if (!loaded.errors.empty()) {
      diag.error(obj.path_of("scenario"),
                 fmt::format("the scenario \"{}\" is not valid (its errors follow)", spec.scenario_file.string()));
    }
    for (ValidationError& e : loaded.errors) r.others.push_back(std::move(e));
    if (loaded.scenario) {
      spec.scenario = std::move(*loaded.scenario);
      spec.first_seed = spec.scenario.seed;
      scenario_ok = true;
    }
  }
  return scenario_ok;
}

// The variants, grids expanded, each checked against the scenario; false when reading
// stopped early (nothing more to check).
bool read_variants(const ObjectReader& obj, bool scenario_ok, SweepSpec& spec, Reading& r) {
  Diagnostics& diag = r.diag;
  const fs::path dir = spec.file.parent_path();
  const Json* variants = obj.require("variants");
  if (variants == nullptr) return false;
  const auto items = read_array(*variants, obj.path_of("variants"), diag, /*nonempty=*/true);
  if (!scenario_ok) return false;  // variants are checked against the scenario
  const std::optional<Json> scenario_document = document_of(spec.scenario_file, r);
  if (!scenario_document) return false;
  for (std::size_t i = 0; i < items.size(); ++i) {
    read_variant(items[i], pointer_append(obj.path_of("variants"), i), dir, spec.scenario, *scenario_document, r,
                 spec.variants);
    if (spec.variants.size() > kMaxSweepVariants) {
      diag.error(obj.path_of("variants"),
                 fmt::format("expected at most {} variants once grids are expanded, got {} by the end of {}",
                             kMaxSweepVariants, spec.variants.size(), pointer_append(obj.path_of("variants"), i)));
      return false;
    }
  }
  return true;
}

// The baseline variant, by name; the first few names listed when none has it.
void read_baseline(const Json& baseline, const std::string& path, SweepSpec& spec, Diagnostics& diag) {
  const auto name = read_string(baseline, path, diag);
  if (!name) return;
  const auto it =
      std::find_if(spec.variants.begin(), spec.variants.end(), [&](const SweepVariant& v) { return v.name == *name; });
  if (it == spec.variants.end()) {
    // The first few names: a grid's thousand would make a line of kilobytes.
    constexpr std::size_t kListed = 10;
    std::vector<std::string_view> names;
    for (std::size_t i = 0; i < std::min(kListed, spec.variants.size()); ++i) names.push_back(spec.variants[i].name);
    const std::string more =
        spec.variants.size() > kListed ? fmt::format(" and {} more", spec.variants.size() - kListed) : "";
    diag.error(path, fmt::format("no variant named \"{}\"; variants are: {}{}", *name, join(names), more));
    return;
  }
  spec.baseline = static_cast<std::size_t>(it - spec.variants.begin());
}

void read_sweep(const Json& root, SweepSpec& spec, Reading& r) {
  Diagnostics& diag = r.diag;
  const ObjectReader obj(root, "", diag, kSweepKeys);
  if (!obj.valid()) return;
  if (const Json* schema = obj.find("$schema")) read_string(*schema, obj.path_of("$schema"), diag);
  if (obj.require("name") != nullptr && obj.get_nonempty("name", spec.name)) {
    check_printable(spec.name, obj.path_of("name"), diag);
  }
  if (obj.get("description", spec.description)) {
    check_printable(spec.description, obj.path_of("description"), diag, AllowedControls::newline_and_tab);
  }
  for (const std::string_view m : kDefaultSweepMetrics) spec.metrics.emplace_back(m);
  if (const Json* metrics = obj.find("metrics")) spec.metrics = read_metrics(*metrics, obj.path_of("metrics"), diag);
  spec.objectives = {{"task_success", Goal::max}, {"latency_ms.p99", Goal::min}, {"cost_usd.total", Goal::min}};
  if (const Json* objectives = obj.find("objectives")) {
    spec.objectives = read_objectives(*objectives, obj.path_of("objectives"), diag);
  }
  const bool scenario_ok = read_sweep_scenario(obj, spec, r);
  if (const Json* first = obj.find("first_seed")) {
    if (const auto s = read_unsigned(*first, obj.path_of("first_seed"), diag)) spec.first_seed = *s;
  }
  read_seeds(obj, spec, diag);
  if (const Json* decision = obj.find("decision"))
    spec.decision = read_decision(*decision, obj.path_of("decision"), diag);
  complete_metrics(spec);
  check_min_effects(spec, pointer_append(obj.path_of("decision"), "min_effect"), diag);

  if (!read_variants(obj, scenario_ok, spec, r)) return;
  check_names(spec.variants, obj.path_of("variants"), diag);
  if (diag.count() > 0 || !r.others.empty() || spec.variants.empty()) return;
  if (const Json* baseline = obj.find("baseline")) read_baseline(*baseline, obj.path_of("baseline"), spec, diag);
}

}  // namespace

SweepLoadResult load_sweep(const fs::path& file) {
  Diagnostics diag(file.string());
  const auto text = read_text_file(file, diag);
  if (!text) return SweepLoadResult{std::nullopt, diag.take()};
  return load_sweep_text(*text, file);
}

SweepLoadResult load_sweep_text(std::string_view text, const fs::path& file) {
  Reading r{Diagnostics(file.string()), {}};
  const auto document = parse_document(text, file, r.diag);
  if (!document) return SweepLoadResult{std::nullopt, r.diag.take()};
  r.diag.locate_with(&document->marks);
  if (const auto problem = wrong_kind_problem(document->root, FileKind::sweep)) {
    r.diag.error("", *problem);
    return SweepLoadResult{std::nullopt, r.diag.take()};
  }
  SweepSpec spec;
  spec.file = file;
  read_sweep(document->root, spec, r);
  std::vector<ValidationError> errors = r.diag.take();
  for (ValidationError& e : r.others) errors.push_back(std::move(e));
  if (!errors.empty()) return SweepLoadResult{std::nullopt, std::move(errors)};
  return SweepLoadResult{std::move(spec), {}};
}

}  // namespace squall

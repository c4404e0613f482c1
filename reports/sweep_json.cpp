#include "reports/sweep_json.hpp"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/text.hpp"
#include "reports/compare.hpp"
#include "reports/rounding.hpp"
#include "reports/sweep_robustness.hpp"

namespace squall {
namespace {

using Json = nlohmann::ordered_json;

double r6(double x) { return round_to(x, 1e6); }

Json number_or_null(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

Json interval_json(const Interval& i) {
  Json out = Json::object();
  out["n"] = i.n;
  out["mean"] = i.n > 0 ? Json(r6(i.mean)) : Json(nullptr);
  out["sd"] = i.n > 1 ? Json(r6(i.sd)) : Json(nullptr);  // a sample sd needs two values
  out["ci95"] = i.half_width ? Json::array({r6(i.low()), r6(i.high())}) : Json(nullptr);
  return out;
}

Json params_json(const SweepVariantInfo& v) {
  Json params = Json::object();
  for (const auto& [pointer, value] : v.params) params[pointer] = Json::parse(value);
  return params;
}

// The header both files share: what was run.
Json header_json(const SweepResult& r) {
  Json h = Json::object();
  h["name"] = r.name;
  h["description"] = r.description;
  h["sweep_file"] = r.sweep_file;
  h["scenario"] = Json{{"file", r.scenario_file}, {"name", r.scenario_name}};
  h["squall_version"] = r.squall_version;
  h["seeds"] = r.seeds;
  if (r.target) {
    h["target"] = Json{{"metric", r.target->metric},
                       {"width", r.target->width},
                       {"max_seeds", r.target->max_seeds},
                       {"reached", r.target->reached}};
  } else {
    h["target"] = nullptr;
  }
  h["baseline"] = r.variants.empty() ? "" : r.variants[r.baseline].name;
  h["metrics"] = r.metrics;
  Json objectives = Json::array();
  for (const SweepObjective& o : r.objectives)
    objectives.push_back(Json{{"metric", o.metric}, {"goal", to_string(o.goal)}});
  h["objectives"] = objectives;
  return h;
}

// What the sweep decides by: the scenario's thresholds and the decision's settings. Last in
// the header (fields are added at the end of their object).
void add_decision(const SweepResult& r, Json& h) {
  h["thresholds"] = r.thresholds;
  Json effects = Json::array();
  for (const MinEffect& e : r.decision.min_effects) {
    effects.push_back(Json{{"metric", e.metric}, {"value", e.value}, {"relative", e.relative}});
  }
  h["decision"] =
      Json{{"objective", {{"metric", r.decision.objective.metric}, {"goal", to_string(r.decision.objective.goal)}}},
           {"feasible_pass_rate", r.decision.feasible_pass_rate},
           {"min_effect", effects}};
}

Json passed_json(const SweepRun& run) {
  Json passed = Json::array();
  for (const bool p : run.passed) passed.push_back(p);
  return passed;
}

// A file's text: two-space indentation and a final newline. Bytes that are not UTF-8 (a
// file name's: paths are bytes) become U+FFFD, as in a run's report (json_writer.cpp),
// instead of failing the write after every run.
std::string file_text(const Json& doc) { return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n"; }

Json values_json(const SweepRun& run) {
  Json values = Json::array();
  for (const auto& v : run.values) values.push_back(number_or_null(v));
  return values;
}

// The robustness curves (reports/sweep_robustness.hpp): null without scenario axes.
Json robustness_json(const SweepResult& r, const SweepAnalysis& a) {
  const auto g = robustness_grid(r);
  if (!g) return nullptr;
  Json columns = Json::array();
  for (std::size_t c = 0; c < g->columns.size(); ++c) {
    Json settings = Json::object();
    for (const auto& [pointer, value] : g->column_params[c]) settings[pointer] = Json::parse(value);
    columns.push_back(Json{{"label", g->columns[c]}, {"settings", settings}, {"x", number_or_null(g->x[c])}});
  }
  Json metrics = Json::object();
  for (std::size_t m = 0; m < r.metrics.size(); ++m) {
    Json rows = Json::array();
    for (const auto& row : g->variant) {
      Json cells = Json::array();
      for (const auto& v : row) {
        if (!v) {
          cells.push_back(nullptr);
          continue;
        }
        const Json stats = interval_json(a.variants[*v][m].value);
        Json cell = Json::object();
        cell["variant"] = r.variants[*v].name;
        for (const char* key : {"n", "mean", "sd", "ci95"}) cell[key] = stats.at(key);
        cells.push_back(cell);
      }
      rows.push_back(cells);
    }
    metrics[r.metrics[m]] = rows;
  }
  return Json{{"columns", columns}, {"rows", g->rows}, {"metrics", metrics}};
}

}  // namespace

std::string sweep_json_text(const SweepResult& r, const SweepAnalysis& a) {
  Json out = Json::object();
  out["squall_sweep_version"] = 1;
  const Json header = header_json(r);
  for (const auto& [key, value] : header.items()) out[key] = value;
  Json variants = Json::array();
  Json front = Json::array();
  for (std::size_t v = 0; v < r.variants.size(); ++v) {
    const SweepVariantInfo& info = r.variants[v];
    Json j = Json::object();
    j["name"] = info.name;
    j["policy"] = info.policy;
    j["params"] = params_json(info);
    j["policy_digest"] = info.policy_digest;
    j["pareto"] = static_cast<bool>(a.pareto[v]);
    if (a.pareto[v]) front.push_back(info.name);
    Json metrics = Json::object();
    for (std::size_t m = 0; m < r.metrics.size(); ++m) {
      const MetricSummary& s = a.variants[v][m];
      Json mj = interval_json(s.value);
      if (s.difference) {
        Json d = interval_json(*s.difference);
        d["verdict"] = s.verdict == Verdict::none ? Json(nullptr) : Json(to_string(s.verdict));
        mj["difference"] = d;
      }
      metrics[r.metrics[m]] = mj;
    }
    j["metrics"] = metrics;
    Json runs = Json::array();
    for (const SweepRun& run : r.runs) {
      if (run.variant == v) {
        runs.push_back(Json{{"seed", run.seed}, {"values", values_json(run)}, {"passed", passed_json(run)}});
      }
    }
    j["runs"] = runs;
    j["feasible"] = static_cast<bool>(a.feasibility[v].feasible);
    Json rates = Json::array();
    for (const double rate : a.feasibility[v].pass_rates) rates.push_back(r6(rate));
    j["threshold_pass_rates"] = rates;
    variants.push_back(j);
  }
  out["variants"] = variants;
  out["pareto_front"] = front;
  add_decision(r, out);
  out["recommendation"] = Json{{"variant", a.recommended ? Json(r.variants[*a.recommended].name) : Json(nullptr)},
                               {"line", recommendation_line(r, a)}};
  out["warnings"] = sweep_warnings(r);
  out["robustness"] = robustness_json(r, a);
  return file_text(out);
}

std::string partial_json_text(const SweepResult& r, std::size_t shard_index, std::size_t shard_count,
                              const std::string& sweep_file_from_partial) {
  Json out = Json::object();
  out["squall_sweep_partial_version"] = 1;
  out["shard"] = Json{{"index", shard_index}, {"count", shard_count}};
  out["sweep_file_from_partial"] = sweep_file_from_partial;
  Json header = header_json(r);
  header["inputs_digest"] = r.inputs_digest;
  Json variants = Json::array();
  for (const SweepVariantInfo& v : r.variants) {
    variants.push_back(
        Json{{"name", v.name}, {"policy", v.policy}, {"params", params_json(v)}, {"policy_digest", v.policy_digest}});
  }
  header["variants"] = variants;
  add_decision(r, header);
  out["sweep"] = header;
  Json runs = Json::array();
  for (const SweepRun& run : r.runs) {
    runs.push_back(
        Json{{"variant", run.variant}, {"seed", run.seed}, {"values", values_json(run)}, {"passed", passed_json(run)}});
  }
  out["runs"] = runs;
  return file_text(out);
}

}  // namespace squall

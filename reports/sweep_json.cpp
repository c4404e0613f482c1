#include "reports/sweep_json.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "reports/rounding.hpp"

namespace squall {
namespace {

using Json = nlohmann::ordered_json;

double r6(double x) { return round_to(x, 1e6); }

Json number_or_null(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

Json interval_json(const Interval& i) {
  Json out = Json::object();
  out["n"] = i.n;
  out["mean"] = i.n > 0 ? Json(r6(i.mean)) : Json(nullptr);
  out["sd"] = r6(i.sd);
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
    h["target"] = Json{{"metric", r.target->metric}, {"width", r.target->width}, {"max_seeds", r.target->max_seeds},
                       {"reached", r.target->reached}};
  } else {
    h["target"] = nullptr;
  }
  h["baseline"] = r.variants.empty() ? "" : r.variants[r.baseline].name;
  h["metrics"] = r.metrics;
  Json objectives = Json::array();
  for (const SweepObjective& o : r.objectives) objectives.push_back(Json{{"metric", o.metric}, {"goal", to_string(o.goal)}});
  h["objectives"] = objectives;
  return h;
}

Json values_json(const SweepRun& run) {
  Json values = Json::array();
  for (const auto& v : run.values) values.push_back(number_or_null(v));
  return values;
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
      if (run.variant == v) runs.push_back(Json{{"seed", run.seed}, {"values", values_json(run)}});
    }
    j["runs"] = runs;
    variants.push_back(j);
  }
  out["variants"] = variants;
  out["pareto_front"] = front;
  return out.dump(2) + "\n";
}

std::string partial_json_text(const SweepResult& r, std::size_t shard_index, std::size_t shard_count) {
  Json out = Json::object();
  out["squall_sweep_partial_version"] = 1;
  out["shard"] = Json{{"index", shard_index}, {"count", shard_count}};
  Json header = header_json(r);
  Json variants = Json::array();
  for (const SweepVariantInfo& v : r.variants) {
    variants.push_back(Json{{"name", v.name}, {"policy", v.policy}, {"params", params_json(v)},
                            {"policy_digest", v.policy_digest}});
  }
  header["variants"] = variants;
  out["sweep"] = header;
  Json runs = Json::array();
  for (const SweepRun& run : r.runs) {
    runs.push_back(Json{{"variant", run.variant}, {"seed", run.seed}, {"values", values_json(run)}});
  }
  out["runs"] = runs;
  return out.dump(2) + "\n";
}

namespace {

struct Partial {
  std::string file;
  Json doc;
  std::size_t index = 0;
  std::size_t count = 0;
};

[[noreturn]] void bad(const std::string& file, const std::string& what) {
  throw std::runtime_error(fmt::format("{}: {}", file, what));
}

Partial read_partial(const PartialFile& f) {
  Partial p;
  p.file = f.file;
  try {
    p.doc = Json::parse(f.text);
  } catch (const nlohmann::json::parse_error& e) {
    bad(f.file, fmt::format("not JSON: {}", e.what()));
  }
  if (!p.doc.is_object() || !p.doc.contains("squall_sweep_partial_version")) {
    bad(f.file, "not a squall sweep partial result: no squall_sweep_partial_version");
  }
  if (p.doc["squall_sweep_partial_version"] != 1) {
    bad(f.file, fmt::format("squall_sweep_partial_version {} is not supported (this squall reads 1)",
                            p.doc["squall_sweep_partial_version"].dump()));
  }
  try {
    p.index = p.doc.at("shard").at("index").get<std::size_t>();
    p.count = p.doc.at("shard").at("count").get<std::size_t>();
    p.doc.at("sweep").at("variants").get_ref<const Json::array_t&>();
    p.doc.at("runs").get_ref<const Json::array_t&>();
  } catch (const nlohmann::json::exception&) {
    bad(f.file, "not a squall sweep partial result: no shard, sweep or runs");
  }
  if (p.count == 0 || p.index == 0 || p.index > p.count) bad(f.file, "shard index is not within 1..count");
  return p;
}

SweepResult header_from(const Json& h) {
  SweepResult r;
  r.name = h.at("name").get<std::string>();
  r.description = h.at("description").get<std::string>();
  r.sweep_file = h.at("sweep_file").get<std::string>();
  r.scenario_file = h.at("scenario").at("file").get<std::string>();
  r.scenario_name = h.at("scenario").at("name").get<std::string>();
  r.squall_version = h.at("squall_version").get<std::string>();
  r.seeds = h.at("seeds").get<std::vector<std::uint64_t>>();
  r.metrics = h.at("metrics").get<std::vector<std::string>>();
  for (const Json& o : h.at("objectives")) {
    r.objectives.push_back({o.at("metric").get<std::string>(), o.at("goal") == "max" ? Goal::max : Goal::min});
  }
  const std::string baseline = h.at("baseline").get<std::string>();
  for (const Json& v : h.at("variants")) {
    SweepVariantInfo info;
    info.name = v.at("name").get<std::string>();
    info.policy = v.at("policy").get<std::string>();
    for (const auto& [pointer, value] : v.at("params").items()) info.params.emplace_back(pointer, value.dump());
    info.policy_digest = v.at("policy_digest").get<std::string>();
    if (info.name == baseline) r.baseline = r.variants.size();
    r.variants.push_back(std::move(info));
  }
  return r;
}

}  // namespace

SweepResult merge_partials(const std::vector<PartialFile>& files) {
  if (files.empty()) throw std::runtime_error("give the partial results of every shard");
  std::vector<Partial> partials;
  for (const PartialFile& f : files) partials.push_back(read_partial(f));
  const Partial& first = partials.front();
  std::map<std::size_t, std::string> seen;  // shard index -> file
  for (const Partial& p : partials) {
    if (p.doc["sweep"] != first.doc["sweep"]) {
      bad(p.file, fmt::format("a shard of another sweep than {} (name, scenario, variants, policies, seeds, metrics or "
                              "squall version differ)",
                              first.file));
    }
    if (p.count != first.count) {
      bad(p.file, fmt::format("shard {} of {}, but {} is a shard of {}", p.index, p.count, first.file, first.count));
    }
    if (const auto it = seen.find(p.index); it != seen.end()) {
      bad(p.file, fmt::format("shard {} of {} again (also {})", p.index, p.count, it->second));
    }
    seen.emplace(p.index, p.file);
  }
  for (std::size_t i = 1; i <= first.count; ++i) {
    if (!seen.contains(i)) throw std::runtime_error(fmt::format("missing shard {} of {}", i, first.count));
  }
  SweepResult result;
  try {
    result = header_from(first.doc["sweep"]);
  } catch (const nlohmann::json::exception&) {
    bad(first.file, "not a squall sweep partial result: its sweep header is incomplete");
  }
  const std::size_t seeds = result.seeds.size();
  const std::size_t total = result.variants.size() * seeds;
  std::vector<std::optional<SweepRun>> runs(total);
  for (const Partial& p : partials) {
    for (const Json& j : p.doc["runs"]) {
      SweepRun run;
      try {
        run.variant = j.at("variant").get<std::size_t>();
        run.seed = j.at("seed").get<std::uint64_t>();
        for (const Json& v : j.at("values")) {
          run.values.push_back(v.is_null() ? std::nullopt : std::optional<double>(v.get<double>()));
        }
      } catch (const nlohmann::json::exception&) {
        bad(p.file, "a run without variant, seed or values");
      }
      const auto s = std::find(result.seeds.begin(), result.seeds.end(), run.seed);
      const std::size_t k = run.variant * seeds + static_cast<std::size_t>(s - result.seeds.begin());
      if (run.variant >= result.variants.size() || s == result.seeds.end() || k % p.count != p.index - 1 ||
          runs[k] || run.values.size() != result.metrics.size()) {
        bad(p.file, fmt::format("run of variant {} seed {} is not one of shard {} of {}", run.variant, run.seed,
                                p.index, p.count));
      }
      runs[k] = std::move(run);
    }
  }
  for (std::size_t k = 0; k < total; ++k) {
    if (!runs[k]) {
      throw std::runtime_error(fmt::format("shard {} of {} ({}) lacks the run of variant \"{}\" seed {}",
                                           k % first.count + 1, first.count, seen[k % first.count + 1],
                                           result.variants[k / seeds].name, result.seeds[k % seeds]));
    }
    result.runs.push_back(std::move(*runs[k]));
  }
  return result;
}

}  // namespace squall

#include "reports/sweep_merge.hpp"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/text.hpp"
#include "reports/compare.hpp"

namespace squall {
namespace {

using Json = nlohmann::ordered_json;

struct Partial {
  std::string file;
  const Json* doc = nullptr;  // the PartialFile's
  std::size_t index = 0;
  std::size_t count = 0;
};

[[noreturn]] void bad(const std::string& file, const std::string& what) {
  throw std::runtime_error(fmt::format("{}: {}", file, what));
}

// A value as a message shows it: compact JSON, at most 40 characters.
std::string shown(const Json& v) {
  std::string text = v.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

// `pointer: expected ..., got ...` for a value of a partial file.
[[noreturn]] void bad_value(const std::string& file, const std::string& pointer, std::string_view expected,
                            const Json* found) {
  bad(file, fmt::format("{}: expected {}, got {}", pointer, expected, found != nullptr ? shown(*found) : "nothing"));
}

const Json* member(const Json& object, const char* key) {
  return object.is_object() && object.contains(key) ? &object[key] : nullptr;
}

// The unsigned integer at object[key] within [low, high], or an error naming its pointer.
std::uint64_t unsigned_at(const std::string& file, const Json& object, const std::string& pointer, const char* key,
                          std::uint64_t low, std::uint64_t high) {
  const Json* v = member(object, key);
  const std::string at = pointer + "/" + key;
  if (v == nullptr || !v->is_number_unsigned() || v->get<std::uint64_t>() < low || v->get<std::uint64_t>() > high) {
    bad_value(file, at, fmt::format("an integer in [{}, {}]", low, high), v);
  }
  return v->get<std::uint64_t>();
}

// The JSON Pointer of member `key` of the object at `pointer`, the key escaped as RFC 6901
// says (~ as ~0, / as ~1).
std::string member_pointer(const std::string& pointer, const std::string& key) {
  std::string escaped;
  for (const char c : key) escaped += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return pointer + "/" + escaped;
}

// Every key of `object` is one of `known`: an unknown key is an error, not ignored (a
// partial is squall's own output, so anything else was added by hand or by another tool).
void only_keys(const std::string& file, const Json& object, const std::string& pointer,
               std::initializer_list<std::string_view> known) {
  for (const auto& [key, value] : object.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      bad(file, fmt::format("{}: unknown key \"{}\" (expected one of {})", member_pointer(pointer, key), key,
                            fmt::join(known, ", ")));
    }
  }
}

Partial read_partial(const PartialFile& f) {
  Partial p;
  p.file = f.file;
  p.doc = &f.doc;
  const Json* version = member(f.doc, "squall_sweep_partial_version");
  if (version == nullptr) bad(f.file, "not a squall sweep partial result: no squall_sweep_partial_version");
  if (!version->is_number_unsigned() || version->get<std::uint64_t>() != 1) {
    bad(f.file, fmt::format("squall_sweep_partial_version {} is not supported (this squall reads 1)", shown(*version)));
  }
  only_keys(f.file, f.doc, "", {"squall_sweep_partial_version", "shard", "sweep_file_from_partial", "sweep", "runs"});
  // Optional: partials written before it have none.
  if (const Json* from = member(f.doc, "sweep_file_from_partial");
      from != nullptr && (!from->is_string() || from->get_ref<const std::string&>().empty())) {
    bad_value(f.file, "/sweep_file_from_partial", "a non-empty string (a path)", from);
  }
  const Json* shard = member(f.doc, "shard");
  if (shard == nullptr || !shard->is_object()) bad_value(f.file, "/shard", "an object {\"index\", \"count\"}", shard);
  only_keys(f.file, *shard, "/shard", {"index", "count"});
  p.count = unsigned_at(f.file, *shard, "/shard", "count", 1, kMaxShards);
  p.index = unsigned_at(f.file, *shard, "/shard", "index", 1, p.count);
  const Json* sweep = member(f.doc, "sweep");
  if (sweep == nullptr || !sweep->is_object()) bad_value(f.file, "/sweep", "the sweep's header, an object", sweep);
  const Json* runs = member(f.doc, "runs");
  if (runs == nullptr || !runs->is_array()) bad_value(f.file, "/runs", "an array of runs", runs);
  return p;
}

// What a string of the header may hold, as the sweep loader allows it
// (sim/sweep/sweep_spec.cpp): names are printed in tables and on the terminal, so they are
// not empty and hold no control character (engine/text.hpp); a description may hold
// newlines and tabs; a path may be anything but empty.
enum class Text : std::uint8_t { name, description, path };

// The string at object[key] by `rule`, or an error naming its pointer.
std::string string_at(const std::string& file, const Json& object, const std::string& pointer, const char* key,
                      Text rule) {
  const Json* v = member(object, key);
  const std::string at = pointer + "/" + key;
  if (v == nullptr || !v->is_string() || (rule != Text::description && v->get_ref<const std::string&>().empty())) {
    bad_value(file, at, rule == Text::description ? "a string" : "a non-empty string", v);
  }
  const std::string& text = v->get_ref<const std::string&>();
  if (rule == Text::path) return text;
  if (const auto problem = printable_problem(text, rule == Text::description)) bad(file, at + ": " + *problem);
  return text;
}

// A digest as squall writes them: 16 lowercase hex digits.
std::string digest_at(const std::string& file, const Json& object, const std::string& pointer, const char* key) {
  const Json* v = member(object, key);
  const bool ok = v != nullptr && v->is_string() && v->get_ref<const std::string&>().size() == 16 &&
                  v->get_ref<const std::string&>().find_first_not_of("0123456789abcdef") == std::string::npos;
  if (!ok) bad_value(file, pointer + "/" + key, "a digest of 16 lowercase hex digits", v);
  return v->get<std::string>();
}

// The array at object[key] with `min` to `max` items, or an error naming its pointer.
const Json& array_at(const std::string& file, const Json& object, const std::string& pointer, const char* key,
                     std::size_t min, std::size_t max) {
  const Json* v = member(object, key);
  if (v == nullptr || !v->is_array() || v->size() < min || v->size() > max) {
    bad_value(file, pointer + "/" + key, fmt::format("an array of {} to {} items", min, max), v);
  }
  return *v;
}

// A metric name at `pointer`: a headline metric (reports/compare.hpp), and, with `among`,
// one of those.
std::string metric_at(const std::string& file, const Json& v, const std::string& pointer,
                      const std::vector<std::string>* among) {
  const auto& names = among != nullptr ? *among : headline_metric_names();
  if (!v.is_string() || std::find(names.begin(), names.end(), v.get_ref<const std::string&>()) == names.end()) {
    bad_value(file, pointer, among != nullptr ? "one of the sweep's metrics" : "a headline metric's name", &v);
  }
  return v.get<std::string>();
}

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

// The header a partial result holds (partial_json_text), every value checked: it names
// the sweep's variants, seeds and metrics that the runs are read against and that every
// output is built from. A partial comes from a sweep with a seed count (a target sweep
// cannot be sharded), so its target is null.
SweepResult header_from(const std::string& file, const Json& h) {
  const std::string at = "/sweep";
  only_keys(file, h, at,
            {"name", "description", "sweep_file", "scenario", "squall_version", "seeds", "target", "baseline",
             "metrics", "objectives", "inputs_digest", "variants"});
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
  return r;
}

// The partials are the shards 1..count of one sweep, each once: shard index -> its file.
std::map<std::size_t, std::string> check_shards(const std::vector<Partial>& partials) {
  const Partial& first = partials.front();
  std::map<std::size_t, std::string> seen;
  for (const Partial& p : partials) {
    // Compared as text: JSON equality holds 100 == 100.0, which the first header's
    // checks would refuse, so the order of the partials would decide.
    if (p.doc->at("sweep").dump() != first.doc->at("sweep").dump()) {
      bad(p.file, fmt::format("a shard of another sweep than {} (name, scenario, its contents or its corpora's, "
                              "variants, policies, seeds, metrics or squall version differ)",
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
  return seen;
}

// One run of a partial: a variant and seed of the header's, one value per metric.
SweepRun read_run(const std::string& file, const Json& j, const std::string& at, const SweepResult& result) {
  if (!j.is_object()) bad_value(file, at, "a run {\"variant\", \"seed\", \"values\"}", &j);
  only_keys(file, j, at, {"variant", "seed", "values"});
  SweepRun run;
  run.variant = unsigned_at(file, j, at, "variant", 0, result.variants.size() - 1);
  // The seeds are consecutive (header_from), so a seed's place is its offset.
  const Json* seed = member(j, "seed");
  const bool known = seed != nullptr && seed->is_number_unsigned() &&
                     seed->get<std::uint64_t>() >= result.seeds.front() &&
                     seed->get<std::uint64_t>() <= result.seeds.back();
  if (!known) {
    bad_value(file, at + "/seed",
              fmt::format("one of the sweep's seeds ({}..{})", result.seeds.front(), result.seeds.back()), seed);
  }
  run.seed = seed->get<std::uint64_t>();
  const Json* values = member(j, "values");
  if (values == nullptr || !values->is_array() || values->size() != result.metrics.size()) {
    bad_value(file, at + "/values", fmt::format("an array of {} values, one per metric", result.metrics.size()),
              values);
  }
  for (std::size_t m = 0; m < values->size(); ++m) {
    const Json& v = (*values)[m];
    // What a run's report can hold (reports/compare.hpp): no headline metric is negative,
    // and none beyond 2^53, so no mean or difference overflows.
    if (!v.is_null() && !v.is_number()) bad_value(file, fmt::format("{}/values/{}", at, m), "null or a number", &v);
    if (const char* expected = v.is_number() ? headline_number_problem(v) : nullptr) {
      bad_value(file, fmt::format("{}/values/{}", at, m), fmt::format("null or {}", expected), &v);
    }
    run.values.push_back(v.is_null() ? std::nullopt : std::optional<double>(v.get<double>()));
  }
  return run;
}

}  // namespace

SweepResult merge_partials(const std::vector<PartialFile>& files) {
  if (files.empty()) throw std::runtime_error("give the partial results of every shard");
  std::vector<Partial> partials;
  for (const PartialFile& f : files) partials.push_back(read_partial(f));
  const Partial& first = partials.front();
  std::map<std::size_t, std::string> seen = check_shards(partials);
  SweepResult result = header_from(first.file, first.doc->at("sweep"));
  const std::size_t seeds = result.seeds.size();
  const std::size_t total = result.variants.size() * seeds;
  // Bits for the runs seen, the runs themselves as found: a header may promise 10 million
  // runs (1,000 variants x 10,000 seeds) that a small file does not hold, and a table of
  // that many runs was half a gigabyte before the first missing one was noticed.
  std::vector<bool> present(total, false);
  std::vector<std::pair<std::size_t, SweepRun>> found;
  for (const Partial& p : partials) {
    const Json& list = p.doc->at("runs");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string at = fmt::format("/runs/{}", i);
      SweepRun run = read_run(p.file, list[i], at, result);
      const std::size_t k = run.variant * seeds + static_cast<std::size_t>(run.seed - result.seeds.front());
      if (k % p.count != p.index - 1) {
        bad(p.file, fmt::format("{}: the run of variant {} seed {} belongs to shard {} of {}, not {}", at, run.variant,
                                run.seed, k % p.count + 1, p.count, p.index));
      }
      if (present[k]) {
        bad(p.file, fmt::format("{}: the run of variant {} seed {} appears twice", at, run.variant, run.seed));
      }
      present[k] = true;
      found.emplace_back(k, std::move(run));
    }
  }
  for (std::size_t k = 0; k < total; ++k) {
    if (!present[k]) {
      throw std::runtime_error(fmt::format("shard {} of {} ({}) lacks the run of variant \"{}\" seed {}",
                                           k % first.count + 1, first.count, seen[k % first.count + 1],
                                           result.variants[k / seeds].name, result.seeds[k % seeds]));
    }
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  result.runs.reserve(found.size());
  for (auto& [k, run] : found) result.runs.push_back(std::move(run));
  return result;
}

}  // namespace squall

#include "reports/sweep_merge.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "reports/compare.hpp"
#include "reports/partial_json.hpp"
#include "reports/sweep_partial_header.hpp"

namespace squall {
namespace {

using namespace partial_json;

struct Partial {
  std::string file;
  const Json* doc = nullptr;  // the PartialFile's
  std::size_t index = 0;
  std::size_t count = 0;
};

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
  if (!j.is_object()) bad_value(file, at, "a run {\"variant\", \"seed\", \"values\", \"passed\"}", &j);
  only_keys(file, j, at, {"variant", "seed", "values", "passed"});
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
  const Json* passed = member(j, "passed");
  if (passed == nullptr || !passed->is_array() || passed->size() != result.thresholds.size()) {
    bad_value(file, at + "/passed", fmt::format("an array of {} booleans, one per threshold", result.thresholds.size()),
              passed);
  }
  for (std::size_t t = 0; t < passed->size(); ++t) {
    const Json& p = (*passed)[t];
    if (!p.is_boolean()) bad_value(file, fmt::format("{}/passed/{}", at, t), "true or false", &p);
    run.passed.push_back(p.get<bool>());
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
  SweepResult result = read_partial_header(first.file, first.doc->at("sweep"));
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

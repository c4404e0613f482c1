#include "sim/sweep/sweep_runner.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "mocks/input_file.hpp"
#include "reports/compare.hpp"
#include "reports/fingerprint.hpp"
#include "reports/json_writer.hpp"
#include "reports/sweep_names.hpp"
#include "reports/sweep_stats.hpp"
#include "sim/parallel_runs.hpp"

namespace squall {
namespace {

// The scenario each variant runs, prepared once per scenario setting: the spec's for the
// variants without "/scenario/..." settings, and one per distinct setting for the others
// (each loads its corpora itself).
class Prepared {
 public:
  Prepared(const SweepSpec& spec, const PreparedScenario& base) {
    std::map<SweepParams, std::size_t> index;
    for (const SweepVariant& v : spec.variants) {
      if (!v.scenario) {
        of_variant_.push_back(&base);
        continue;
      }
      SweepParams key = scenario_params(v.params);
      std::sort(key.begin(), key.end());
      const auto [it, fresh] = index.emplace(std::move(key), settings_.size());
      if (fresh) settings_.push_back(std::make_unique<PreparedScenario>(*v.scenario));
      of_variant_.push_back(settings_[it->second].get());
    }
  }
  const PreparedScenario& of(std::size_t variant) const { return *of_variant_[variant]; }

 private:
  std::vector<std::unique_ptr<PreparedScenario>> settings_;
  std::vector<const PreparedScenario*> of_variant_;
};

struct Job {
  std::size_t variant;
  std::uint64_t seed;
};

struct Outcome {
  std::vector<std::optional<double>> values;
  std::vector<bool> passed;  // per threshold
  std::optional<std::string> error;
  bool limit = false;
};

Outcome run_one(const SweepSpec& spec, const Prepared& prepared, const std::vector<std::size_t>& columns,
                const Job& job) {
  Outcome out;
  const SweepVariant& variant = spec.variants[job.variant];
  try {
    Provenance provenance;
    provenance.scenario_file = spec.scenario_file.string();
    const Report report = prepared.of(job.variant).run(variant.policy, job.seed, std::move(provenance));
    const std::vector<std::optional<double>> all = headline_metrics(to_json(report));
    for (const std::size_t c : columns) out.values.push_back(all[c]);
    // A threshold not evaluated (a client_* metric) is left out, as sweep_header leaves it.
    for (const ThresholdResult& t : report.thresholds) {
      if (t.not_evaluated.empty()) out.passed.push_back(t.passed);
    }
  } catch (const RunLimitExceeded& e) {
    out.error = fmt::format("variant \"{}\", seed {}: run stopped: {}", variant.name, job.seed, e.what());
    out.limit = true;
  } catch (const std::exception& e) {
    out.error = fmt::format("variant \"{}\", seed {}: internal error: {}", variant.name, job.seed, e.what());
  }
  return out;
}

// Runs `jobs` on the pool, appending their runs to `result` in the jobs' order.
void run_jobs(const SweepSpec& spec, const Prepared& prepared, const std::vector<Job>& jobs,
              const SweepRunOptions& options, std::size_t done_before, std::size_t planned, SweepResult& result) {
  std::vector<std::size_t> columns;
  const std::vector<std::string>& names = headline_metric_names();
  for (const std::string& m : spec.metrics) {
    columns.push_back(static_cast<std::size_t>(std::find(names.begin(), names.end(), m) - names.begin()));
  }
  const std::vector<Outcome> outcomes = run_parallel<Outcome>(
      jobs.size(), options.jobs, [&](std::size_t i) { return run_one(spec, prepared, columns, jobs[i]); },
      [&](std::size_t i, const Outcome&) {
        if (options.progress) options.progress(done_before + i + 1, planned);
      });
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (outcomes[i].error) throw SweepRunFailed(*outcomes[i].error, outcomes[i].limit);
    result.runs.push_back(SweepRun{jobs[i].variant, jobs[i].seed, outcomes[i].values, outcomes[i].passed});
  }
}

std::string digest(const std::string& text) {
  Fingerprint f;
  f.add_text(text);
  return fmt::format("{:016x}", f.value());
}

// SweepResult::inputs_digest: each file's path as the sweep resolved it, then its bytes
// (or why it could not be read again, which a shard run elsewhere would see too).
std::string inputs_digest(const SweepSpec& spec) {
  Fingerprint f;
  const auto add_file = [&f](const std::filesystem::path& file) {
    f.add_text(file.string());
    const auto bytes = read_input_file(file);
    if (const auto* text = std::get_if<std::string>(&bytes)) {
      f.add_text(*text);
    } else {
      f.add_text(std::get<InputFileError>(bytes).message);
    }
  };
  add_file(spec.scenario_file);
  for (const ProviderConfig& provider : spec.scenario.providers) {
    if (const auto corpus = corpus_path(spec.scenario, provider)) add_file(*corpus);
  }
  return fmt::format("{:016x}", f.value());
}

void sort_runs(SweepResult& result) {
  std::stable_sort(result.runs.begin(), result.runs.end(), [](const SweepRun& a, const SweepRun& b) {
    return a.variant != b.variant ? a.variant < b.variant : a.seed < b.seed;
  });
}

// The seed count the target asks for after `n` seeds per variant, or n when it is met.
std::size_t seeds_needed(const SweepSpec& spec, const SweepResult& result, std::size_t n) {
  const SweepTarget& target = *spec.target;
  const std::size_t m = static_cast<std::size_t>(
      std::find(result.metrics.begin(), result.metrics.end(), target.metric) - result.metrics.begin());
  const SweepAnalysis analysis = analyse(result);
  std::size_t needed = n;
  for (const auto& variant : analysis.variants) {
    const Interval& i = variant[m].value;
    if (i.half_width && 2 * *i.half_width < target.width) continue;
    const double t = t_quantile_975(i.n > 1 ? i.n - 1 : 1);
    const double estimate = std::ceil(std::pow(2 * t * i.sd / target.width, 2));
    const std::size_t want =
        estimate > static_cast<double>(kMaxSweepSeeds) ? kMaxSweepSeeds : static_cast<std::size_t>(estimate);
    needed = std::max({needed, n + 1, want});
  }
  return needed;
}

void run_to_target(const SweepSpec& spec, const Prepared& prepared, const SweepRunOptions& options,
                   SweepResult& result) {
  const SweepTarget& target = *spec.target;
  std::size_t n = 0;
  std::size_t next = target.min_seeds;
  while (true) {
    std::vector<Job> jobs;
    for (std::size_t v = 0; v < spec.variants.size(); ++v) {
      for (std::size_t s = n; s < next; ++s) jobs.push_back(Job{v, spec.first_seed + s});
    }
    for (std::size_t s = n; s < next; ++s) result.seeds.push_back(spec.first_seed + s);
    run_jobs(spec, prepared, jobs, options, n * spec.variants.size(), next * spec.variants.size(), result);
    sort_runs(result);
    n = next;
    const std::size_t needed = seeds_needed(spec, result, n);
    result.target->reached = needed == n;
    if (needed == n || n >= target.max_seeds) return;
    next = std::min(needed, target.max_seeds);
  }
}

}  // namespace

SweepResult sweep_header(const SweepSpec& spec) {
  SweepResult r;
  r.name = spec.name;
  r.description = spec.description;
  r.sweep_file = spec.file.string();
  r.scenario_file = spec.scenario_file.string();
  r.scenario_name = spec.scenario.name;
  r.squall_version = std::string(squall_version());
  r.inputs_digest = inputs_digest(spec);
  for (const SweepVariant& v : spec.variants) {
    r.variants.push_back(SweepVariantInfo{v.name, v.policy_file.value_or("scenario"), v.params, digest(v.policy_json)});
  }
  r.baseline = spec.baseline;
  r.metrics = spec.metrics;
  r.objectives = spec.objectives;
  for (const Threshold& t : spec.scenario.thresholds) {
    // The client_* metrics are squall serve's: a simulated sweep cannot judge them.
    const MetricInfo* info = find_metric(t.metric_name);
    if (info == nullptr || !live_only(info->id)) r.thresholds.push_back(t.metric + " " + t.expression);
  }
  r.decision = spec.decision;
  if (spec.target) {
    r.target = SweepTargetInfo{spec.target->metric, spec.target->width, spec.target->max_seeds, false};
  } else {
    for (std::size_t s = 0; s < spec.seeds; ++s) r.seeds.push_back(spec.first_seed + s);
  }
  return r;
}

SweepResult run_sweep(const SweepSpec& spec, const PreparedScenario& base, const SweepRunOptions& options) {
  SweepResult result = sweep_header(spec);
  const Prepared prepared(spec, base);
  if (spec.target) {
    if (options.shard) throw std::invalid_argument("a sweep with a target cannot be sharded");
    run_to_target(spec, prepared, options, result);
    return result;
  }
  std::vector<Job> jobs;
  const std::size_t seeds = result.seeds.size();
  for (std::size_t k = 0; k < spec.variants.size() * seeds; ++k) {
    if (options.shard && k % options.shard->count != options.shard->index - 1) continue;
    jobs.push_back(Job{k / seeds, result.seeds[k % seeds]});
  }
  run_jobs(spec, prepared, jobs, options, 0, jobs.size(), result);
  return result;
}

}  // namespace squall

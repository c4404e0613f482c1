// The measurements of a policy sweep (`squall sweep`, docs/sweeps.md): what was run
// (variants, seeds, metrics, objectives) and each run's metric values. Everything the
// sweep's outputs show is computed from this (reports/sweep_stats.hpp), so a sweep run
// whole and the same sweep run in shards and merged (reports/sweep_json.hpp) give the
// same bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace squall {

// A sweep's bounds: expanded variants, and seeds per variant (sim/sweep/sweep_spec.hpp
// enforces them on a sweep file, reports/sweep_json.hpp on a partial result).
inline constexpr std::size_t kMaxSweepVariants = 1000;
inline constexpr std::size_t kMaxSweepSeeds = 10000;

// Which way an objective (or a metric's verdict) is better.
enum class Goal : std::uint8_t { max, min };
std::string_view to_string(Goal goal);  // "max", "min"

struct SweepObjective {
  std::string metric;  // a headline metric name (reports/compare.hpp)
  Goal goal = Goal::max;
};

// A metric's smallest difference that matters (docs/sweeps.md, "Decision"): a difference
// whose 95% interval lies within ±it is "same", and only one at least this large is
// "better" or "worse". Absolute in the metric's unit, or relative to the baseline's mean.
struct MinEffect {
  std::string metric;
  double value = 0;
  bool relative = false;
};

// Without a min_effect for a metric: 1% of the baseline's mean, a difference too small to
// act on for success rates, latencies and costs alike.
inline constexpr double kDefaultMinEffectRelative = 0.01;
// A variant is feasible when every threshold of the scenario passes on at least this share
// of its seeds: 90%, the pass rate `ci --seeds` gates on in docs/ci.md's example.
inline constexpr double kDefaultFeasiblePassRate = 0.9;

// How a sweep decides: the variant it recommends is the feasible one with the best mean
// of `objective` (the first in expansion order on a tie).
struct SweepDecision {
  SweepObjective objective{"task_success", Goal::max};
  double feasible_pass_rate = kDefaultFeasiblePassRate;
  std::vector<MinEffect> min_effects;  // at most one per metric
};

struct SweepVariantInfo {
  std::string name;
  std::string policy;                                       // the policy file as the sweep names it, or "scenario"
  std::vector<std::pair<std::string, std::string>> params;  // grid settings: JSON Pointer -> value as compact JSON
  std::string policy_digest;                                // 16 hex digits: a hash of the policy document
};

struct SweepTargetInfo {
  std::string metric;
  double width = 0;
  std::size_t max_seeds = 0;
  bool reached = false;  // every variant's interval of `metric` narrower than width
};

struct SweepRun {
  std::size_t variant = 0;  // index into SweepResult::variants
  std::uint64_t seed = 0;
  std::vector<std::optional<double>> values;  // one per SweepResult::metrics; nullopt when the report lacks it
  std::vector<bool> passed;                   // one per SweepResult::thresholds
};

struct SweepResult {
  std::string name;
  std::string description;
  std::string sweep_file;     // as given on the command line
  std::string scenario_file;  // as resolved against the sweep file
  std::string scenario_name;
  std::string squall_version;
  // 16 hex digits: a hash of the bytes of the scenario file and of each corpus it reads, in
  // its providers' order. Part of a shard's identity (a partial result holds it), so that
  // shards run on different contents of the same files are not merged; not in the reports.
  std::string inputs_digest;
  std::vector<SweepVariantInfo> variants;  // in expansion order
  std::size_t baseline = 0;
  std::vector<std::string> metrics;  // reported, in order
  std::vector<SweepObjective> objectives;
  std::vector<std::uint64_t> seeds;  // every variant's, in order
  std::optional<SweepTargetInfo> target;
  // The scenario's thresholds, "METRIC EXPRESSION" as written, in its order: the
  // constraints a variant must meet to be feasible.
  std::vector<std::string> thresholds;
  SweepDecision decision;
  std::vector<SweepRun> runs;  // variant-major, then seed order
};

}  // namespace squall

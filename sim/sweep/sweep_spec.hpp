// A sweep file (`squall sweep SWEEP`, docs/sweeps.md): one base scenario run under several
// policy variants on a common list of seeds, so that the variants can be compared with
// confidence intervals (common random numbers: keyed fault decisions make two policies meet
// the same faults where their calls coincide, DESIGN section 3).
//
// JSON (comments allowed) or YAML by extension, read with the scenario loader's rules:
// unknown and duplicate keys are errors, every error is reported with its JSON Pointer
// (and, for YAML, its line and column). The shape:
//   {
//     "name": "launch-surge-policies",              required, printable
//     "description": "...",                          optional
//     "scenario": "../incidents/x.json",             required; relative to the sweep file
//     "variants": [                                   required, non-empty
//       { "name": "scenario" },                       the scenario's own policy block
//       { "name": "naive", "policy": "../policies/naive-retry.json" },
//       { "name": "retry", "policy": "p.json",        a grid over the policy's parameters:
//         "grid": [ { "path": "/llm/1/retry/max_attempts", "values": [2, 3, 4] },
//                   { "path": "/llm/2/circuit_breaker/failure_threshold", "values": [3, 5] } ] }
//     ],
//     "baseline": "scenario",                        a variant's expanded name; default the first
//     "seeds": 10,                                    runs per variant, [1, 10000]; or
//     "target": { "metric": "task_success", "width": 0.02, "min_seeds": 5, "max_seeds": 60 },
//     "first_seed": 1,                                default the scenario's seed
//     "metrics": ["task_success", "latency_ms.p99"],  default kDefaultSweepMetrics
//     "objectives": [ { "metric": "task_success", "goal": "max" }, ... ]   default success max,
//                                                     latency_ms.p99 min, cost_usd.total min
//     "decision": {                                   optional (reports/sweep_decision.hpp)
//       "objective": { "metric": "cost_usd.total", "goal": "min" },  default task_success max
//       "feasible_pass_rate": 0.9,                    [0, 1], default 0.9
//       "min_effect": { "latency_ms.p99": "5%", "task_success": 0.01 }  a reported metric's
//     }                                               smallest difference that matters
//   }
// Exactly one of `seeds` and `target`. The seed list is first_seed, first_seed + 1, ...:
// every variant runs the same seeds, so each run is `squall run SCENARIO --seed S
// [--policy FILE]` for its policy.
//
// Grid addresses are JSON Pointers (RFC 6901) into the variant's policy document (the
// policy file, or the scenario's `policy` block), e.g. /llm/1/retry/max_attempts: the
// policy's tool "llm", its strategy item 1 (0-based, outermost first), the retry
// strategy's config, its key max_attempts. The object holding the last key must exist in
// the policy; the key itself may be absent (a parameter left at its default). Each value
// is written there and the resulting policy is read and cross-checked exactly as a
// `--policy` file is, its errors reported at the value.
//
// A grid path under "/scenario/" addresses the scenario file's document instead (e.g.
// /scenario/providers/llm/faults/0/probability): each combination's scenario is read again
// with the loader's every rule and carried by its variant (SweepVariant::scenario), which
// runs it; comparisons with the baseline take only the variants on the baseline's scenario
// settings (reports/sweep_names.hpp, docs/sweeps.md "Scenario axes").
//
// Grid expansion order (docs/sweeps.md): the cartesian product of the axes in the order
// written, the last axis varying fastest (nested loops, Python's itertools.product); the
// variants in file order, each replaced by its expansion. An expanded variant is named
// `NAME[KEY=VALUE,KEY=VALUE]`, KEY being the last token of the axis's path ("tool.last"
// when two axes end alike, sweep_grid.hpp) and VALUE the value as compact JSON.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/policy.hpp"
#include "reports/sweep_result.hpp"
#include "sim/scenario.hpp"
#include "sim/scenario/validation_error.hpp"

namespace squall {

// The metrics a sweep may report: the headline metrics of `squall compare`
// (reports/compare.hpp), by the same names.
// Default reported metrics: success, the tail and the typical latency, the cost, and the
// retry load.
inline constexpr std::string_view kDefaultSweepMetrics[] = {"task_success", "latency_ms.p50", "latency_ms.p99",
                                                            "cost_usd.total", "retry_amplification.overall"};

struct SweepTarget {
  std::string metric;         // replicate until this metric's 95% CI is narrow enough
  double width = 0;           // the full width of the interval (2 x half width), in the metric's unit
  std::size_t min_seeds = 5;  // the first round; at least 2 (an interval needs two runs)
  std::size_t max_seeds = 0;  // never more seeds than this per variant
};

// One policy variant after grid expansion.
struct SweepVariant {
  std::string name;                        // unique
  std::optional<std::string> policy_file;  // as written, relative to the sweep file; none: the scenario's
  std::vector<std::pair<std::string, std::string>> params;  // grid settings: path -> value as compact JSON
  PolicyConfig policy;                                      // validated against the scenario
  std::string policy_json;  // the policy as run, compact JSON (effective_policy_json): its identity
  // The scenario with the variant's "/scenario/..." grid settings written in, read and
  // validated; null when it has none: the spec's scenario.
  std::shared_ptr<const Scenario> scenario;
  // How the policy file merged into the scenario's policy (sim/scenario_loader.hpp
  // merge_policy): tools skipped, tools that kept the scenario's entry. Empty without one.
  std::vector<std::string> policy_notes;
};

struct SweepSpec {
  std::filesystem::path file;  // the sweep file as given
  std::string name;
  std::string description;
  std::filesystem::path scenario_file;  // resolved against the sweep file's directory
  Scenario scenario;                    // loaded and validated
  std::vector<SweepVariant> variants;   // expanded, in expansion order
  std::size_t baseline = 0;             // index into variants
  std::uint64_t first_seed = 0;
  std::size_t seeds = 0;  // runs per variant when target is not set
  std::optional<SweepTarget> target;
  std::vector<std::string> metrics;  // reported, in order; then objective and target metrics not listed
  std::vector<SweepObjective> objectives;
  SweepDecision decision;
};

struct SweepLoadResult {
  std::optional<SweepSpec> spec;  // set exactly when errors is empty
  std::vector<ValidationError> errors;
  bool ok() const { return errors.empty(); }
};

// Reads, validates and expands a sweep file; the scenario's and policy files' own errors
// are reported as the loader reports them (their files, their paths). Rules and messages
// are listed in docs/sweeps.md; the bounds (reports/sweep_result.hpp): at most
// kMaxSweepVariants expanded variants, seeds and max_seeds at most kMaxSweepSeeds.
SweepLoadResult load_sweep(const std::filesystem::path& file);
SweepLoadResult load_sweep_text(std::string_view text, const std::filesystem::path& file);

}  // namespace squall

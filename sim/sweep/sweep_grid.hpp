// Grid expansion of one sweep variant (sim/sweep/sweep_spec.hpp): the cartesian product of
// its axes, the last axis varying fastest, each combination written into a copy of the
// variant's policy document at the axes' JSON Pointers and read and cross-checked as a
// `--policy` file is.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sim/scenario/json_reader.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace squall {

struct GridAxis {
  std::string pointer;       // where the values go, e.g. /llm/1/retry/max_attempts
  std::vector<Json> values;  // in file order
  std::string path;          // the axis's own JSON Pointer in the sweep file (/variants/2/grid/0)
};

// The combinations of `axes` in expansion order, each as one value index per axis.
std::vector<std::vector<std::size_t>> grid_combinations(const std::vector<GridAxis>& axes);

// "NAME[max_attempts=3,failure_threshold=5]" (NAME alone without axes). An axis's KEY is
// the last token of its path; when two axes share it, the first token (the tool) and the
// last joined by a dot ("llm.max_attempts"); when those are shared too, the whole path.
std::string expanded_name(const std::string& name, const std::vector<GridAxis>& axes,
                          const std::vector<std::size_t>& combination);

// Where a variant's policy document comes from, which decides what it must name.
enum class PolicyOrigin {
  file,      // a policy file replacing the scenario's block: it names every tool (check_policy)
  scenario,  // the scenario's own block: a tool it leaves out calls its provider directly
};

// What a grid writes into: the variant's policy document (a policy file's root, or the
// scenario's policy block) and the scenario's document, as the files hold them.
struct GridDocuments {
  const Json& policy;
  const Json& scenario;             // the scenario file's root
  const Scenario& scenario_config;  // the same, loaded (its `source` names it in errors)
  PolicyOrigin origin;
};

// Expands a variant into `out`. An axis whose path starts with "/scenario/" writes into the
// scenario document (the rest of the path is the pointer inside it); the others into the
// policy. Each combination's scenario (when a scenario axis is set) is read again with the
// scenario loader's every rule, and its policy is cross-checked against that scenario.
// Errors go to `diag` at the sweep file's paths:
//   <axis>/path:       expected a JSON Pointer such as "/llm/1/retry/max_attempts", got "llm.retry"
//   <axis>/path:       the policy has no object at "/llm/5/retry" to hold "max_attempts"
//                      (scenario axes: the scenario has no object at "/providers/llm/faults/9" ...)
//   <axis>/path:       "/llm" is an array in the policy: a grid path ends in a key of an object ...
//   <axis>/path:       "/scenario/policy/llm/0/timeout" is in the scenario's policy block ...
//   <axis>/path:       "/llm/1/retry/max_attempts" overlaps "/llm/1/retry" (<other axis>/path): ...
//   <grid>:            expected at most 1000 combinations of the axes' values, got 10000000000
//   <axis>/values/<k>: makes an invalid policy: /llm/1/retry/max_attempts: expected an integer in [1, 1000], got 0
//                      (or "makes an invalid scenario: /providers/...": a value that fails in every
//                      combination and alone on the documents as written)
//   <grid>:            [base_delay="10s",max_delay="5s"] makes an invalid policy: ... (a combination
//                      whose values are not wrong alone; at most 10 listed, then "and N more ...")
// Every combination is read whole, so values valid together are never refused for the
// other values as written (a base_delay axis above the file's max_delay, with a max_delay
// axis). `base` carries the variant's name and policy file; its params, policy,
// policy_json and scenario are filled per combination.
void expand_grid(const SweepVariant& base, const GridDocuments& docs, const std::vector<GridAxis>& axes,
                 const std::string& grid_path, Diagnostics& diag, std::vector<SweepVariant>& out);

// Reads and cross-checks a policy document as the policy of `scenario`, with `file` as
// the errors' file: for a policy file, the errors of load_policy_text followed by
// check_policy's; for the scenario's own block, those of the scenario loader.
std::vector<ValidationError> read_variant_policy(const Json& policy, PolicyOrigin origin, const Scenario& scenario,
                                                 const std::string& file, PolicyConfig& out);

// The policy a variant runs, as compact JSON with sorted keys (its identity and digest): a
// policy file's document written over the scenario's own `policy` block for the tools
// `merged` (what read_variant_policy made of it) kept, so two variants whose documents say
// the same for the tools the scenario has get the same digest, whatever their files' key
// order or the tools they skip; the scenario's own block as it is. Values are compared as
// written ("2s" is not "2000ms").
std::string effective_policy_json(const Json& policy, PolicyOrigin origin, const Json& scenario_root,
                                  const PolicyConfig& merged);

}  // namespace squall

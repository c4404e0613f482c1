// Loading and validating scenario files and policy files (docs/scenario-format.md is the
// reference of the format; scenarios/schema/scenario.schema.json its JSON Schema).
//
// Scenario files are JSON with // and /* */ comments, or YAML when their names end in
// ".yaml" or ".yml" (sim/scenario/yaml_document.hpp: the same document and rules; errors
// also carry the line and column of the node at their path). Every problem is reported, not
// just the first, each with the file and a JSON Pointer path:
//   scenarios/x.json: /providers/web_search/faults/2/probability: expected a number in [0, 1], got "high"
// Unknown keys, duplicate keys, bare numbers where a duration belongs and references to
// undefined providers or query lists are errors. Defaults are the ones documented on the
// config structs' fields (sim/scenario.hpp and the headers it includes).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/policy.hpp"
#include "engine/runtime/duration.hpp"
#include "sim/scenario.hpp"
#include "sim/scenario/validation_error.hpp"

namespace squall {

struct LoadResult {
  std::optional<Scenario> scenario;     // set exactly when errors is empty
  std::vector<ValidationError> errors;  // every problem found, in reading order
  bool ok() const { return errors.empty(); }
};

struct PolicyLoadResult {
  std::optional<PolicyConfig> policy;  // set exactly when errors is empty
  std::vector<ValidationError> errors;
  bool ok() const { return errors.empty(); }
};

// Reads, parses and validates a scenario file. A missing or unreadable file, a JSON
// syntax error (reported as `file:line:column: <nlohmann's message>`; yaml-cpp's for YAML), and any invalid
// content are errors. Relative corpus paths are checked against the file's directory, as
// sim::World resolves them; Scenario::source is `file`.
LoadResult load_scenario(const std::filesystem::path& file);

// The scenario file as plain JSON (RFC 8259) for standard JSON Schema validators
// (`squall validate --print-json`): comments dropped, keys in the file's order, two-space
// indentation, a final newline. Set only when the file is a valid scenario; otherwise
// errors holds exactly what load_scenario reports.
struct PlainJsonResult {
  std::optional<std::string> json;
  std::vector<ValidationError> errors;
};
PlainJsonResult scenario_as_plain_json(const std::filesystem::path& file);
// The same for a policy file (`squall validate --print-json --policy FILE`), valid as
// load_policy_file judges it; scenarios/schema/scenario.schema.json's #/$defs/policy is its
// schema.
PlainJsonResult policy_as_plain_json(const std::filesystem::path& file);

// The same for a scenario already in memory; `file` names it in errors and is the base
// of relative corpus paths (tests use it to avoid temporary files).
LoadResult load_scenario_text(std::string_view text, const std::filesystem::path& file);

// Reads a policy file for `squall run --policy FILE`: its top level is a policy object
// (tool -> strategies), with the same rules as a scenario's `policy` block. Paths in
// errors are relative to the policy file's own root (`/web_search/1/retry/max_attempts`),
// since they point into that file. Tool names cannot be checked without a scenario: see
// check_policy.
PolicyLoadResult load_policy_file(const std::filesystem::path& file);
PolicyLoadResult load_policy_text(std::string_view text, const std::filesystem::path& file);

// A policy file merged into a scenario's policy, the one rule of `run --policy`, `ci
// --policy`, `compare --policy`, `validate SCENARIO --policy` and a sweep's variant
// policies. A policy file is written for many scenarios, so:
// - an entry for a tool (or provider stack) the scenario does not have is skipped, with a
//   note: `p.json: skipped "pinecone": the scenario has no tool or provider of that name`;
// - a tool the scenario calls or configures that the file does not name keeps the
//   scenario's own entry (none: no strategies), with a note: `p.json: "search" not named
//   in it: the scenario's own policy kept`;
// - a file naming no tool of the scenario at all is an error at its root (`names no tool
//   of the scenario (its tools are "gpt", "search")`): it was meant for another scenario;
//   except, with UnsharedPolicy::keep_scenario_policy (`ci --policy` over many scenarios,
//   which refuses a file naming no tool of any of them up front), a note and the scenario's
//   own policy: `p.json: names no tool of the scenario (its tools are "gpt"): the scenario's
//   own policy kept`;
// - the entries kept are cross-checked as the scenario's own block is (sim/scenario/
//   policy_reader.hpp check_policy: simplify_query's and fallback's rules), errors naming
//   `policy_file` with the file's paths.
enum class UnsharedPolicy : std::uint8_t { error, keep_scenario_policy };
struct PolicyMerge {
  std::vector<ValidationError> errors;
  std::vector<std::string> notes;     // one sentence each, naming the policy file
  PolicyConfig policy;                // the merged policy, when there are no errors
  bool scenario_policy_kept = false;  // keep_scenario_policy applied: the file changed nothing
};
PolicyMerge merge_policy(const Scenario& scenario, const PolicyConfig& policy, const std::filesystem::path& policy_file,
                         UnsharedPolicy unshared = UnsharedPolicy::error);

// Whether `policy` has an entry for a tool or provider stack of `scenario`.
bool shares_a_tool(const Scenario& scenario, const PolicyConfig& policy);

// merge_policy's errors.
std::vector<ValidationError> check_policy(const Scenario& scenario, const PolicyConfig& policy,
                                          const std::filesystem::path& policy_file);

// What `squall run --policy FILE` does: load_policy_file, then merge_policy with
// `scenario`; when both find nothing, scenario.policy becomes the merged policy and
// `notes` (when given) gets the merge's notes, `kept` (when given) whether the file named
// no tool of the scenario and its own policy was kept. Returns the errors (the scenario is
// unchanged when there are any).
std::vector<ValidationError> apply_policy_file(Scenario& scenario, const std::filesystem::path& policy_file,
                                               std::vector<std::string>* notes = nullptr,
                                               UnsharedPolicy unshared = UnsharedPolicy::error, bool* kept = nullptr);

}  // namespace squall

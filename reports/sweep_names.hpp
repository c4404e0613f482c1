// The names a sweep gives its grid points (docs/sweeps.md, "Expansion order and names"),
// computed from a variant's params alone (JSON Pointer -> value as compact JSON, in axis
// order), so that a merged sweep names and groups its variants as the sweep file did.
//
// A grid axis whose pointer starts with "/scenario/" addresses the scenario document (the
// rest is the pointer inside it); any other axis addresses the variant's policy.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace squall {

using SweepParams = std::vector<std::pair<std::string, std::string>>;

inline constexpr std::string_view kScenarioAxisPrefix = "/scenario";

// Whether `pointer` addresses the scenario: it is "/scenario" or starts with "/scenario/".
bool is_scenario_pointer(std::string_view pointer);

// The last token of a JSON Pointer, unescaped ("/llm/1/retry/max_attempts" -> "max_attempts");
// the pointer itself when it is not one.
std::string pointer_last_token(const std::string& pointer);

// Axis `a`'s KEY among `pointers`: its last token; when another axis shares it, the first
// token and the last joined by a dot ("llm.max_attempts"); when those are shared too, the
// whole pointer. Every pointer must be a valid JSON Pointer.
std::string grid_axis_key(const std::vector<std::string>& pointers, std::size_t a);

// "[KEY=VALUE,...]" for `params`, "" without params: an expanded name is NAME + this.
std::string grid_suffix(const SweepParams& params);

// The scenario params of `params` (in order), and the others (the policy's).
SweepParams scenario_params(const SweepParams& params);
SweepParams policy_params(const SweepParams& params);

// A variant's name without its scenario settings: "naive[probability=0.5]" -> "naive",
// "p[max_attempts=3,probability=0.5]" -> "p[max_attempts=3]" (the policy's keys as the
// policy axes alone name them). `name` must be a name made from `params`.
std::string policy_part_name(const std::string& name, const SweepParams& params);

// Per variant: whether it runs the baseline's scenario settings (the same "/scenario/..."
// params, in any order; no such params: the scenario as written). Only those are compared
// with the baseline (docs/sweeps.md, "Scenario axes").
std::vector<bool> shares_baseline_scenario(const std::vector<SweepParams>& params, std::size_t baseline);

// "probability=0.5,retry_after=\"20s\"": a variant's scenario settings, keyed as in its
// name; "" without any.
std::string scenario_setting_label(const SweepParams& params);

}  // namespace squall

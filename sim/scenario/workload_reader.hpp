// Reading the `workload` block of a scenario: arrivals, task templates and query lists.
#pragma once

#include <optional>

#include "sim/scenario/json_reader.hpp"
#include "sim/scenario/provider_reader.hpp"
#include "sim/workload_config.hpp"

namespace squall {

// What the workload is checked against: the providers its steps call (nullptr when the
// scenario has no valid `providers` object, so references cannot be checked) and the
// scenario's duration when valid.
struct WorkloadContext {
  const ScenarioNames* names = nullptr;
  std::optional<Nanos> run_end;
};

// Keys and rules:
//   arrivals: process ("poisson" | "constant"), rate_per_s ([1e-6, 1e6]), bursts (at
//             most 10000 windows [from, to) with rate_per_s in [1e-6, 1e6]; from < to,
//             from before the end of the run, no two overlapping), max_tasks ([1, 1e8]).
//             Default: poisson at 1 per second.
//   tasks:    required, non-empty; each { name (required, unique, a name in check_name's
//             sense), weight ((0, 1e6]), deadline (> 0), steps (required, non-empty) }.
//   steps:    { tool (required, a tool: a key of `tools`, or of `providers` when the
//             scenario has no tools block), query_from (a key of queries: required when
//             the tool is served by a web_search provider, not allowed for llm),
//             prompt_tokens and max_output_tokens ([0, 1e9]; llm steps only), optional
//             (boolean, default false: a failure degrades the task instead of ending it),
//             requires (a non-empty list of distinct capabilities the serving provider
//             must have; default none) }.
//   queries:  name -> non-empty array of non-empty strings.
// The bounds and their reasons are in workload_reader.cpp. An overlap is reported at the
// burst that starts later (`overlaps burst 0 [2m, 6m)`), once, against the earlier-
// starting burst that ends last.
WorkloadConfig read_workload(const Json& value, const std::string& path, const WorkloadContext& context,
                             Diagnostics& diag);

}  // namespace squall

// Reading a policy: tool -> its strategies, outermost first, as a scenario's `policy`
// block or a `--policy` file writes it:
//   { "web_search": [ { "timeout": { "per_attempt": "10s" } },
//                     { "retry": { "max_attempts": 3, "backoff": "exponential" } } ] }
// Each list item is an object with exactly one key, the strategy's name
// (engine/policy.hpp strategy_name), whose value is the strategy's config object.
#pragma once

#include "engine/policy.hpp"
#include "sim/scenario/json_reader.hpp"
#include "sim/scenario/provider_reader.hpp"

namespace squall {

// Reads a policy object at `path`. Config rules (defaults are the config structs'):
//   timeout          per_attempt (> 0), total (> 0)
//   retry            max_attempts ([1, 1000]), retry_on (non-empty, distinct outcome
//                    kinds other than success), backoff (constant | linear |
//                    exponential | fibonacci; not with jitter decorrelated),
//                    base_delay (>= 0), multiplier ([1, 1000]; exponential backoff
//                    only, not with jitter decorrelated),
//                    max_delay (>= base_delay), jitter (none | full | equal |
//                    proportional | decorrelated), jitter_range ([min, max], each in
//                    (0, 1000], min <= max; jitter proportional only),
//                    honour_retry_after, max_retry_after (>= 0; only when
//                    honour_retry_after is true)
//   circuit_breaker  failure_threshold ([1, 1e6]; not with sliding_window),
//                    open_duration (> 0), half_open_probes ([1, 1e6]), failure_on (like
//                    retry_on), sliding_window ({type: count_based | time_based
//                    (required), size: [1, 1e5] calls, or whole seconds 1s..1h}),
//                    failure_rate_threshold and slow_call_rate_threshold ((0, 100]),
//                    minimum_number_of_calls ([1, 1e6]), slow_call_duration_threshold
//                    (> 0) (these four only with sliding_window),
//                    open_duration_multiplier ([1, 1000]), max_open_duration
//                    (>= open_duration)
//   simplify_query   steps (non-empty, distinct rung names), filler_words (non-empty
//                    strings; only when steps include drop_filler_words)
//   budget           max_tokens ([1, 1e15]), max_cost_usd ((0, 1e9]),
//                    max_iterations ([1, 1000]); at least one of them
//   fallback         providers (required, non-empty, distinct provider names),
//                    on (like retry_on), routing (in_order | cheapest | fastest)
//   validate         require (non-empty, distinct check names: json | non_empty | no_error)
//   reflect          provider (required, non-empty), on (like retry_on),
//                    prompt_tokens ([1, 1e9]), max_output_tokens ([1, 1e9]),
//                    max_reflections ([1, 100]), include_tools or exclude_tools (not
//                    both; non-empty, distinct tool names)
//   relax_threshold  initial ([0, 1]), step ([0.01, 1]), floor ([0, 1], <= initial),
//                    keyword (boolean)
//   rewrite_query    provider (required, non-empty), prompt_tokens ([1, 1e9]),
//                    max_output_tokens ([1, 1e9]), max_rewrites ([1, 100])
//   escalation       rules (non-empty; each {when, at_least, level}: when a condition
//                    name, level a level name, at_least an integer in [1, 1e9] for
//                    count conditions, a number in (0, 1e9] for cost_usd, absent for
//                    flags; no two rules with the same when and at_least); at most one
//                    escalation item per list
//   cache            ttl (> 0), max_entries ([1, 1e7]), stale_if_error (> 0),
//                    stale_on (like retry_on; only with stale_if_error), cache_empty (> 0)
// The upper bounds and their reasons are in policy_reader.cpp.
// With `names`, the cross-checks of check_policy are applied while reading, at the
// items' positions in the file.
PolicyConfig read_policy(const Json& value, const std::string& path, const ScenarioNames* names, Diagnostics& diag);

// Reads the config object of the strategy called `name` ("retry", ...) at `path`: for
// configs written outside a policy (a provider's sdk_retry). Nullopt on any error.
std::optional<StrategyConfig> read_strategy_config(std::string_view name, const Json& value, const std::string& path,
                                                   Diagnostics& diag);

// Cross-checks of a complete policy against the tools and providers of a scenario:
//   - every key names a tool, or, in a scenario with a `tools` block, a provider (whose
//     list is that provider's own stack) (`/<key>`);
//   - simplify_query applies only to tools served by web_search providers
//     (`/<key>/<i>/simplify_query`);
//   - fallback applies only to tools; each of its providers exists, is not the tool's
//     own provider, and is of the same type as it (`/<key>/<i>/fallback/providers/<j>`);
//   - reflect applies only to tools served by tool providers (`/<key>/<i>/reflect`); its
//     provider exists and is an llm provider (`/<key>/<i>/reflect/provider`); its
//     include_tools and exclude_tools name tools (`/<key>/<i>/reflect/include_tools/<j>`).
//   - relax_threshold and rewrite_query apply only to tools and providers of a search
//     type (web_search) (`/<key>/<i>/relax_threshold`);
//   - rewrite_query applies only to tools (`/<key>/<i>/rewrite_query`); its provider
//     exists and is an llm provider (`/<key>/<i>/rewrite_query/provider`);
//   - escalation applies only to tools (`/<key>/<i>/escalation`).
//   - cache applies only to tools served by, and stacks of, the provider types in
//     CacheConfig::kAppliesTo (web_search, vector_search) (`/<key>/<i>/cache`).
// A chain cannot loop: fallback only lives in tools' pipelines and only names providers,
// whose stacks cannot fall back. Paths start with `path`.
void check_policy(const PolicyConfig& policy, const ScenarioNames& names, const std::string& path, Diagnostics& diag);

}  // namespace squall

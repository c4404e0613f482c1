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

// Reads a policy object at `path`. Each strategy's config is read by the generic reader
// (sim/scenario/config_reader.hpp) from its field table, beside its struct in
// engine/strategies/<name>.hpp: keys, bounds, defaults and the rules between keys.
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

// Reading the `providers` block of a scenario: name -> { "type": ..., type fields,
// "faults": [...] }, and the facts about providers that cross-checks need.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mocks/provider_config.hpp"
#include "sim/scenario/json_reader.hpp"

namespace squall {

// The `type` of a provider: its ProviderKind (engine/provider_descriptor.hpp), whose names
// are the scenario files' type names.
using ProviderType = ProviderKind;

// Every provider name of a scenario, with its type when the type is valid. Cross-checks
// use it so that a reference to a provider whose own entry has an error is not reported
// a second time as a reference to nothing.
using ProviderTypes = std::map<std::string, std::optional<ProviderType>, std::less<>>;
ProviderTypes provider_types(const Json& providers);
ProviderTypes provider_types(const std::vector<ProviderConfig>& providers);

// The names that steps, policies and thresholds refer to. A scenario without a `tools`
// block has one tool per provider, of the same name, served by it.
struct ScenarioNames {
  ProviderTypes providers;                                        // provider -> its type
  ProviderTypes tools;                                            // tool -> the type of its provider
  std::map<std::string, std::string, std::less<>> tool_provider;  // tool -> its provider
  bool explicit_tools = false;                                    // the scenario has a `tools` block

  // `no tool named "x"; tools are: a, b` (with implicit tools, no_such_provider's words).
  std::string no_such_tool(std::string_view name) const;
};

// `"gpt-4.1" is an llm provider`, for messages about what applies to which type.
std::string provider_is(std::string_view name, ProviderType type);

// `no provider named "x"; providers are: a, b`.
std::string no_such_provider(std::string_view name, const ProviderTypes& providers);

// A non-empty list of distinct capability names (engine/provider_descriptor.hpp).
std::optional<Capabilities> read_capabilities(const Json& value, const std::string& path, Diagnostics& diag);

// Reads `providers`, sorted by name. Provider names are names in check_name's sense.
//   web_search: corpus (required; a path relative to `base_dir` unless absolute; the file
//               must load with Corpus::load, whose CorpusError message is reported at
//               the corpus key), latency, max_results ([0, 10000])
//   llm:        model (default: the provider's name; printable, see check_printable),
//               price_per_mtok {input, output} (USD, [0, 1e6]), context_window
//               ([1, 1e9]), max_output_tokens ([1, 1e9]), time_to_first_token (a
//               latency), tokens_per_second ((0, 1e9]), mean_output_tokens ([1, 1e9]),
//               malformed_output_rate ([0, 1]), rewrite_success_rate ([0, 1])
//   tool:       latency, argument_error_rate ([0, 1]), reflection_fix_rate ([0, 1])
//   vector_search: corpus (as web_search's), latency, top_k ([1, 10000]), read_units
//               {capacity ((0, 1e6] RU), refill_per_s ([0, 1e6]), per_query ((0, 1e6],
//               at most capacity)}; capacity must hold one query at the default cost
//               (mocks/vector_search.hpp); amounts below 0.001 RU are errors
//   faults of kind index_not_ready are allowed on vector_search providers only
// The upper bounds and their reasons are in provider_reader.cpp.
//   all types:  faults, an array of fault rules (fault_reader.hpp); capabilities (a
//               capability list, read_capabilities); idempotent (boolean); sdk_retry
//               ("openai" | "anthropic": those SDKs' documented retries; "none"; or a
//               retry object with the policy's retry rules)
// Keys of the other type are unknown keys. `run_end` is the scenario's duration when known.
std::vector<ProviderConfig> read_providers(const Json& value, const std::string& path,
                                           const std::filesystem::path& base_dir, std::optional<Nanos> run_end,
                                           Diagnostics& diag);

}  // namespace squall

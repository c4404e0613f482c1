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

// The `type` of a provider, in ProviderSpec's alternative order.
enum class ProviderType : std::uint8_t { web_search, llm };
std::string_view to_string(ProviderType type);

// Every provider name of a scenario, with its type when the type is valid. Cross-checks
// use it so that a reference to a provider whose own entry has an error is not reported
// a second time as a reference to nothing.
using ProviderTypes = std::map<std::string, std::optional<ProviderType>, std::less<>>;
ProviderTypes provider_types(const Json& providers);
ProviderTypes provider_types(const std::vector<ProviderConfig>& providers);

// `"gpt-4.1" is an llm provider`, for messages about what applies to which type.
std::string provider_is(std::string_view name, ProviderType type);

// `no provider named "x"; providers are: a, b`.
std::string no_such_provider(std::string_view name, const ProviderTypes& providers);

// Reads `providers`, sorted by name. Provider names are names in check_name's sense.
//   web_search: corpus (required; a path relative to `base_dir` unless absolute; the file
//               must load with Corpus::load, whose CorpusError message is reported at
//               the corpus key), latency, max_results ([0, 10000])
//   llm:        model (default: the provider's name; printable, see check_printable),
//               price_per_mtok {input, output} (USD, [0, 1e6]), context_window
//               ([1, 1e9]), time_to_first_token (a latency), tokens_per_second
//               ((0, 1e9]), mean_output_tokens ([1, 1e9])
// The upper bounds and their reasons are in provider_reader.cpp.
//   both:       faults, an array of fault rules (fault_reader.hpp)
// Keys of the other type are unknown keys. `run_end` is the scenario's duration when known.
std::vector<ProviderConfig> read_providers(const Json& value, const std::string& path,
                                           const std::filesystem::path& base_dir, std::optional<Nanos> run_end,
                                           Diagnostics& diag);

}  // namespace squall

// Reading the `tools` block of a scenario: tool -> { "provider": name }. A tool is what a
// task step calls (`search`, `answer`); its provider is the backend that serves it first
// (fallback may move a call to others). The block is optional: without it every provider
// is a tool of its own name, which is how scenarios written before tools read.
#pragma once

#include <vector>

#include "sim/scenario.hpp"
#include "sim/scenario/json_reader.hpp"
#include "sim/scenario/provider_reader.hpp"

namespace squall {

// Rules: a tool name is a name in check_name's sense and is not also a provider's name
// (`"llm" is a provider; a tool needs a name of its own`, so that a policy key names one
// or the other); `provider` is required and names a provider. Sorted by name.
std::vector<ToolConfig> read_tools(const Json& value, const std::string& path, const ProviderTypes* providers,
                                   Diagnostics& diag);

// The tools of a scenario whose file has no `tools` block: one per provider.
std::vector<ToolConfig> implicit_tools(const std::vector<ProviderConfig>& providers);

// The names of `scenario` (its providers and tools), as the readers check references.
ScenarioNames scenario_names(const Scenario& scenario);

}  // namespace squall

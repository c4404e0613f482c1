#include "sim/scenario/tool_reader.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace squall {

std::vector<ToolConfig> read_tools(const Json& value, const std::string& path, const ProviderTypes* providers,
                                   Diagnostics& diag) {
  std::vector<ToolConfig> tools;
  if (!value.is_object()) {
    diag.error(path, fmt::format("expected an object, got {}", describe(value)));
    return tools;
  }
  for (const auto& [name, entry] : value.items()) {
    const std::string entry_path = pointer_append(path, name);
    check_name(name, "tool name", entry_path, diag);
    if (providers != nullptr && providers->contains(name)) {
      diag.error(entry_path, fmt::format("\"{}\" is a provider; a tool needs a name of its own", name));
    }
    const ObjectReader obj(entry, entry_path, diag, {"provider"});
    if (!obj.valid()) continue;
    ToolConfig tool;
    tool.name = name;
    if (obj.require("provider") != nullptr && obj.get_nonempty("provider", tool.provider) && providers != nullptr &&
        !providers->contains(tool.provider)) {
      diag.error(obj.path_of("provider"), no_such_provider(tool.provider, *providers));
    }
    tools.push_back(std::move(tool));
  }
  std::sort(tools.begin(), tools.end(), [](const ToolConfig& a, const ToolConfig& b) { return a.name < b.name; });
  return tools;
}

std::vector<ToolConfig> implicit_tools(const std::vector<ProviderConfig>& providers) {
  std::vector<ToolConfig> tools;
  for (const ProviderConfig& p : providers) tools.push_back(ToolConfig{p.name, p.name});
  return tools;
}

ScenarioNames scenario_names(const Scenario& scenario) {
  ScenarioNames names;
  names.providers = provider_types(scenario.providers);
  names.explicit_tools = scenario.explicit_tools;
  for (const ToolConfig& tool : scenario.tools) {
    const auto provider = names.providers.find(tool.provider);
    names.tools.emplace(tool.name, provider != names.providers.end() ? provider->second : std::nullopt);
    names.tool_provider.emplace(tool.name, tool.provider);
  }
  return names;
}

}  // namespace squall

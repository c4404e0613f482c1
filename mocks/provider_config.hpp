// A provider entry of a scenario: what it is, and the faults injected into it.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "mocks/chaos/fault.hpp"
#include "mocks/llm.hpp"
#include "mocks/web_search.hpp"

namespace squall {

using ProviderSpec = std::variant<WebSearchConfig, LlmConfig>;

struct ProviderConfig {
  std::string name;  // the key in `providers`
  ProviderSpec spec;
  std::vector<FaultConfig> faults;  // in file order; see chaos_provider.hpp for semantics
};

}  // namespace squall

// A provider entry of a scenario: what it is, and the faults injected into it.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/provider_descriptor.hpp"
#include "engine/strategies/retry.hpp"

#include "mocks/capacity/capacity_config.hpp"
#include "mocks/chaos/fault.hpp"
#include "mocks/llm.hpp"
#include "mocks/tool.hpp"
#include "mocks/vector_search.hpp"
#include "mocks/web_search.hpp"

namespace squall {

// The one list of provider types. A type is its mock's header/source pair (the config with
// kKind, kKeys, kBody and fault_latency(); make_mock; describe_into: mocks/mock_build.hpp)
// plus its reader in sim/scenario/provider_reader.cpp, its schema entry and its section of
// docs/scenario-format.md. Its scenario `type` is its ProviderKind's name.
using ProviderSpec = std::variant<WebSearchConfig, LlmConfig, ToolMockConfig, VectorSearchConfig>;

struct ProviderConfig {
  std::string name;  // the key in `providers`
  ProviderSpec spec;
  std::vector<FaultConfig> faults;  // in file order; see chaos_provider.hpp for semantics
  // What the provider can do, for fallback's capability routing. Default: none.
  Capabilities capabilities;
  // Whether a request may be re-sent after it may have reached the provider
  // (engine/retry_safety.hpp). Default true.
  bool idempotent = true;
  // The retries of the client SDK in front of the provider: the innermost strategy of
  // the provider's stack, under every tool's own retries, so that retry amplification
  // multiplies the way it does in production. Default: none (the presets "openai" and "anthropic" are
  // sdk_retry_preset() in sim/scenario/provider_reader.cpp).
  std::optional<RetryConfig> sdk_retry;
  // The server's capacity (mocks/capacity/capacity_provider.hpp). Default: none, the
  // provider serves any load at its latency.
  std::optional<CapacityConfig> capacity;
  // The quota group it shares rate limits with (the scenario's `quota_groups`,
  // mocks/capacity/quota_group.hpp); empty for none.
  std::string quota_group;
};

// The descriptor the engine routes by (engine/provider_descriptor.hpp).
ProviderDescriptor describe(const ProviderConfig& config);

}  // namespace squall

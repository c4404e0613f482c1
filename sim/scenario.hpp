// Scenario: a loaded and validated scenario file as typed structs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/policy.hpp"
#include "mocks/capacity/quota_group.hpp"
#include "mocks/provider_config.hpp"
#include "reports/threshold.hpp"
#include "sim/workload_config.hpp"

namespace squall {

// A tool: what a task step calls, served by a provider (DESIGN section 1b).
struct ToolConfig {
  std::string name;      // the key in `tools`, or the provider's name for an implicit tool
  std::string provider;  // its primary provider
};

struct Scenario {
  std::string name;
  std::string description;
  std::uint64_t seed = 1;  // default 1; `squall run --seed` overrides
  Nanos duration = 0;      // required: arrivals stop after it
  WorkloadConfig workload;
  std::vector<ProviderConfig> providers;       // sorted by name
  std::vector<QuotaGroupConfig> quota_groups;  // in file order; members name theirs
  // Sorted by name. Without a `tools` block, one per provider, of the same name.
  std::vector<ToolConfig> tools;
  bool explicit_tools = false;  // the file has a `tools` block
  PolicyConfig policy;
  std::vector<Threshold> thresholds;  // in file order
  std::filesystem::path source;       // the file it was loaded from
  // The wall-clock time at virtual time 0 (`start_time`), in seconds since the Unix epoch,
  // for Retry-After HTTP-dates. Default 0: 1970-01-01T00:00:00Z.
  std::int64_t start_unix_seconds = 0;
};

// Where a web_search or vector_search provider's corpus file is: its `corpus` path, resolved against the
// directory of the scenario file when relative. The loader, the world and the CLI all
// resolve it through these functions.
std::filesystem::path corpus_path(const std::filesystem::path& scenario_dir, const std::string& corpus);
std::filesystem::path corpus_path(const Scenario& scenario, const WebSearchConfig& config);
std::filesystem::path corpus_path(const Scenario& scenario, const VectorSearchConfig& config);
// The corpus file of `config` when it is a search provider, else nullopt.
std::optional<std::filesystem::path> corpus_path(const Scenario& scenario, const ProviderConfig& config);

}  // namespace squall

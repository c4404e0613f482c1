// Reading a scenario's quota groups: providers behind one rate limit, as the models on one
// API key share its requests and tokens per minute (mocks/capacity/quota_group.hpp):
//   "quota_groups": [ { "name": "openai-key", "providers": ["gpt-4o", "gpt-4o-mini"],
//                       "requests_per_minute": 500, "tokens_per_minute": 200000 } ]
// `name` is a name as check_name allows, distinct across groups; `providers` a non-empty
// list of distinct provider names of `providers`, none in another group; at least one of
// the limits, in the ranges of a provider's `capacity` block; `tokens_per_minute` only
// with an llm member (only LLM requests carry tokens). Each member's
// ProviderConfig::quota_group is set to the name: its capacity layer takes from the
// group's buckets, and fallback's cooldowns cool the group on its 429s.
#pragma once

#include <string>
#include <vector>

#include "mocks/capacity/quota_group.hpp"
#include "mocks/provider_config.hpp"
#include "sim/scenario/json_reader.hpp"
#include "sim/scenario/provider_reader.hpp"

namespace squall {

// Reads `value` (the list at `path`) and names each member's group in `providers`.
// `declared`: every provider the scenario declares, valid or not (see read_outages); null
// when the providers block itself is not an object.
std::vector<QuotaGroupConfig> read_quota_groups(const Json& value, const std::string& path,
                                                std::vector<ProviderConfig>& providers, const ProviderTypes* declared,
                                                Diagnostics& diag);

}  // namespace squall

#include "sim/scenario/quota_group_reader.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace squall {
namespace {

constexpr IntRange kRequestsPerMinute{1, kMaxRequestsPerMinute};
constexpr IntRange kTokensPerMinute{1, kMaxTokensPerMinute};

// The group's members, checked against the declared providers and the groups read so far.
void read_members(const Json& list, const std::string& path, const ProviderTypes& types,
                  const std::map<std::string, std::string, std::less<>>& taken, QuotaGroupConfig& group,
                  Diagnostics& diag) {
  const auto elements = read_array(list, path, diag, /*nonempty=*/true);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const std::string at = pointer_append(path, i);
    const auto provider = read_nonempty_string(elements[i], at, diag);
    if (!provider) continue;
    if (types.find(*provider) == types.end()) {
      diag.error(at, no_such_provider(*provider, types));
    } else if (std::find(group.providers.begin(), group.providers.end(), *provider) != group.providers.end()) {
      diag.error(at, fmt::format("duplicate \"{}\"", *provider));
    } else if (const auto other = taken.find(*provider); other != taken.end()) {
      diag.error(at, fmt::format("\"{}\" is already in quota group \"{}\"; a provider shares one key's limits",
                                 *provider, other->second));
    } else {
      group.providers.push_back(*provider);
    }
  }
}

std::optional<QuotaGroupConfig> read_group(const Json& value, const std::string& path, const ProviderTypes& types,
                                           const std::map<std::string, std::string, std::less<>>& taken,
                                           Diagnostics& diag) {
  const ObjectReader obj(value, path, diag,
                         {"name", "providers", "requests_per_minute", "tokens_per_minute", "rejected_requests_count"});
  if (!obj.valid()) return std::nullopt;
  const std::size_t errors_before = diag.count();
  QuotaGroupConfig group;
  if (obj.require("name") != nullptr && obj.get_nonempty("name", group.name)) {
    check_name(group.name, "quota group name", obj.path_of("name"), diag);
  }
  if (const Json* list = obj.require("providers"))
    read_members(*list, obj.path_of("providers"), types, taken, group, diag);
  std::int64_t limit = 0;
  if (obj.get("requests_per_minute", limit, kRequestsPerMinute)) group.requests_per_minute = limit;
  if (obj.get("tokens_per_minute", limit, kTokensPerMinute)) group.tokens_per_minute = limit;
  obj.get("rejected_requests_count", group.rejected_requests_count);
  if (obj.find("rejected_requests_count") != nullptr && obj.find("requests_per_minute") == nullptr) {
    diag.error(obj.path_of("rejected_requests_count"), "applies only with requests_per_minute");
  }
  if (obj.find("requests_per_minute") == nullptr && obj.find("tokens_per_minute") == nullptr) {
    diag.error(path, "expected requests_per_minute or tokens_per_minute: a quota group is a shared rate limit");
  }
  const bool has_llm = std::any_of(group.providers.begin(), group.providers.end(), [&](const std::string& p) {
    const auto type = types.find(p);
    return type == types.end() || !type->second || *type->second == ProviderType::llm;
  });
  if (group.tokens_per_minute && !has_llm) {
    diag.error(obj.path_of("tokens_per_minute"),
               "applies only to a group with an llm provider (only LLM requests carry tokens)");
  }
  if (diag.count() != errors_before) return std::nullopt;
  return group;
}

}  // namespace

std::vector<QuotaGroupConfig> read_quota_groups(const Json& value, const std::string& path,
                                                std::vector<ProviderConfig>& providers, const ProviderTypes* declared,
                                                Diagnostics& diag) {
  const ProviderTypes types = declared != nullptr ? *declared : provider_types(providers);
  std::vector<QuotaGroupConfig> groups;
  std::map<std::string, std::string, std::less<>> taken;  // provider -> its group
  const auto elements = read_array(value, path, diag, /*nonempty=*/false);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const std::string at = pointer_append(path, i);
    auto group = read_group(elements[i], at, types, taken, diag);
    if (!group) continue;
    if (std::any_of(groups.begin(), groups.end(), [&](const QuotaGroupConfig& g) { return g.name == group->name; })) {
      diag.error(pointer_append(at, "name"), fmt::format("duplicate quota group name \"{}\"", group->name));
      continue;
    }
    for (const std::string& member : group->providers) taken.emplace(member, group->name);
    for (ProviderConfig& provider : providers) {
      if (taken.count(provider.name) != 0 && taken.at(provider.name) == group->name) provider.quota_group = group->name;
    }
    groups.push_back(std::move(*group));
  }
  return groups;
}

}  // namespace squall

#include "sim/scenario/policy_reader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "engine/runtime/duration.hpp"
#include "sim/scenario/config_reader.hpp"

namespace squall {
namespace {

constexpr std::size_t kStrategyCount = std::variant_size_v<StrategyConfig>;

// The provider types whose searches rewrite_query repairs: search providers (relax_threshold
// repairs only vector_search's). A new search type is one more entry here.
constexpr std::array kSearchTypes{ProviderType::web_search, ProviderType::vector_search};

// Strategy names in StrategyConfig's alternative order (engine/strategies/strategy_list.hpp).
template <std::size_t... I>
constexpr std::array<std::string_view, kStrategyCount> make_strategy_names(std::index_sequence<I...>) {
  return {std::variant_alternative_t<I, StrategyConfig>::kName...};
}
constexpr auto kStrategyNames = make_strategy_names(std::make_index_sequence<kStrategyCount>());
const std::array<std::string_view, kStrategyCount>& strategy_names() { return kStrategyNames; }

// Reads the config of the strategy with alternative index `index` from its field table.
template <std::size_t I = 0>
std::optional<StrategyConfig> read_strategy(std::size_t index, const Json& value, const std::string& path,
                                            Diagnostics& diag) {
  if constexpr (I == kStrategyCount) {
    return std::nullopt;
  } else {
    if (index != I) return read_strategy<I + 1>(index, value, path, diag);
    auto config = read_config<std::variant_alternative_t<I, StrategyConfig>>(value, path, diag);
    if (!config) return std::nullopt;
    return StrategyConfig(std::move(*config));
  }
}

// The cross-check rules, shared by read_policy (file positions) and check_policy (list
// positions, equal to the file's for a complete policy). A key names a tool (its
// pipeline) or, in a scenario with a `tools` block, a provider (its own stack).
void check_owner(std::string_view owner, const ScenarioNames& names, const std::string& path, Diagnostics& diag) {
  if (names.tools.contains(owner)) return;
  if (names.explicit_tools && names.providers.contains(owner)) return;
  if (!names.explicit_tools) {
    diag.error(path, no_such_provider(owner, names.providers));
    return;
  }
  diag.error(path, fmt::format("{}; nor is it a provider", names.no_such_tool(owner)));
}

// Whether a call to a provider of type `a` may go to one of type `b` instead: the same
// type, or two search types (a vector index may fall back to a web search, as a RAG
// agent's retriever does: both answer a query with hits; each ignores the other's
// parameters).
bool interchangeable(ProviderType a, ProviderType b) {
  const auto is_search = [](ProviderType t) {
    return std::find(kSearchTypes.begin(), kSearchTypes.end(), t) != kSearchTypes.end();
  };
  return a == b || (is_search(a) && is_search(b));
}

// The providers a tool's strategy sends the tool's requests to besides its own (fallback's
// backups, hedging's targets, at `path`): each exists and can take the tool's requests
// (interchangeable types); the tool's own provider `primary` is listed only if `own_allowed`.
void check_other_providers(const std::vector<std::string>& providers, const std::string& primary, bool own_allowed,
                           const ScenarioNames& names, const std::string& path, Diagnostics& diag) {
  const auto primary_type = names.providers.find(primary);
  for (std::size_t i = 0; i < providers.size(); ++i) {
    const std::string& name = providers[i];
    const std::string item = pointer_append(path, i);
    const auto candidate = names.providers.find(name);
    if (candidate == names.providers.end()) {
      diag.error(item, no_such_provider(name, names.providers));
    } else if (name == primary && !own_allowed) {
      diag.error(item,
                 fmt::format("\"{}\" is the tool's own provider; fallback lists the providers to try after it", name));
    } else if (candidate->second && primary_type != names.providers.end() && primary_type->second &&
               !interchangeable(*candidate->second, *primary_type->second)) {
      diag.error(item,
                 fmt::format("{}; the tool's provider \"{}\" is {} {} provider", provider_is(name, *candidate->second),
                             primary, *primary_type->second == ProviderType::llm ? "an" : "a",
                             to_string(*primary_type->second)));
    }
  }
}

// The error for a strategy that lives only in tools' pipelines, found in provider `owner`'s
// stack, which serves one provider.
std::string only_for_tools(std::string_view owner) {
  return fmt::format("applies only to a tool's pipeline; \"{}\" is a provider, whose stack serves one provider", owner);
}

void check_fallback(const FallbackConfig& config, std::string_view owner, const ScenarioNames& names,
                    const std::string& path, Diagnostics& diag) {
  const auto tool = names.tool_provider.find(owner);
  if (tool == names.tool_provider.end()) {
    if (names.providers.contains(owner)) diag.error(path, "fallback " + only_for_tools(owner));
    return;
  }
  check_other_providers(config.providers, tool->second, false, names, pointer_append(path, "providers"), diag);
}

// Hedging's `providers`: a tool's pipeline only (a provider's stack serves one provider),
// each an existing provider that can take the tool's requests (interchangeable types, as
// fallback's backups). The tool's own provider may be listed: hedges then alternate.
void check_hedging(const HedgingConfig& config, std::string_view owner, const ScenarioNames& names,
                   const std::string& path, Diagnostics& diag) {
  if (config.providers.empty()) return;
  const std::string providers = pointer_append(path, "providers");
  const auto tool = names.tool_provider.find(owner);
  if (tool == names.tool_provider.end()) {
    if (names.providers.contains(owner)) diag.error(providers, only_for_tools(owner));
    return;
  }
  check_other_providers(config.providers, tool->second, true, names, providers, diag);
}

// A strategy that calls another provider for a tool's call (reflect, rewrite_query)
// lives only in tools' pipelines: a provider's stack is built before the registry holds
// every provider, and serves one provider.
void only_in_tools(std::string_view strategy, std::string_view owner, const ScenarioNames& names,
                   const std::string& path, Diagnostics& diag) {
  if (names.tools.contains(owner) || !names.providers.contains(owner)) return;
  diag.error(path, fmt::format("{} {}", strategy, only_for_tools(owner)));
}

// The provider of a strategy that asks an LLM (`purpose`: "reflect", "rewrite queries")
// exists and is an llm provider.
void check_llm_provider(const std::string& provider, std::string_view purpose, const ScenarioNames& names,
                        const std::string& path, Diagnostics& diag) {
  if (const auto llm = names.providers.find(provider); llm == names.providers.end()) {
    diag.error(path, no_such_provider(provider, names.providers));
  } else if (llm->second && *llm->second != ProviderType::llm) {
    diag.error(path, fmt::format("expected an llm provider to {}; {}", purpose, provider_is(provider, *llm->second)));
  }
}

void check_reflect(const ReflectConfig& config, std::string_view owner, const ScenarioNames& names,
                   const std::string& path, Diagnostics& diag) {
  const auto tool = names.tools.find(owner);
  if (tool == names.tools.end()) {
    only_in_tools(ReflectConfig::kName, owner, names, path, diag);
    return;
  }
  if (tool->second && *tool->second != ProviderType::tool) {
    const auto served = names.tool_provider.find(owner);
    const std::string& provider = served != names.tool_provider.end() ? served->second : tool->first;
    diag.error(path, fmt::format("reflect applies only to tools served by tool providers; {}",
                                 provider_is(provider, *tool->second)));
  }
  check_llm_provider(config.provider, "reflect", names, pointer_append(path, "provider"), diag);
  for (const auto& [key, list] :
       {std::pair{"include_tools", &config.include_tools}, std::pair{"exclude_tools", &config.exclude_tools}}) {
    for (std::size_t i = 0; i < list->size(); ++i) {
      if (!names.tools.contains((*list)[i])) {
        diag.error(pointer_append(pointer_append(path, key), i), names.no_such_tool((*list)[i]));
      }
    }
  }
}

// The cache keys requests by their query: it serves search tools and search providers'
// stacks only (CacheConfig::kAppliesTo).
void check_cache(std::string_view owner, ProviderType type, const ScenarioNames& names, const std::string& path,
                 Diagnostics& diag) {
  const auto& kinds = CacheConfig::kAppliesTo;
  if (std::find(kinds.begin(), kinds.end(), type) != kinds.end()) return;
  const auto served = names.tool_provider.find(owner);
  const std::string_view provider = served != names.tool_provider.end() ? std::string_view(served->second) : owner;
  const auto kind_names = names_of(kinds);
  diag.error(path, fmt::format("cache applies only to tools and stacks of search providers ({}), whose requests "
                               "carry a query; {}",
                               join(kind_names), provider_is(provider, type)));
}

void check_strategy(const StrategyConfig& config, std::string_view owner, const ScenarioNames& names,
                    const std::string& path, Diagnostics& diag) {
  if (std::holds_alternative<EscalationConfig>(config)) {
    if (!names.tools.contains(owner) && names.providers.contains(owner)) {
      diag.error(path, fmt::format("escalation applies only to a tool's list; \"{}\" is a provider, whose stack "
                                   "serves calls, not tasks",
                                   owner));
    }
    return;
  }
  if (const auto* fallback = std::get_if<FallbackConfig>(&config)) {
    check_fallback(*fallback, owner, names, path, diag);
    return;
  }
  if (const auto* hedging = std::get_if<HedgingConfig>(&config)) check_hedging(*hedging, owner, names, path, diag);
  if (const auto* reflect = std::get_if<ReflectConfig>(&config)) {
    check_reflect(*reflect, owner, names, path, diag);
    return;
  }
  std::optional<ProviderType> type;
  if (const auto tool = names.tools.find(owner); tool != names.tools.end()) {
    type = tool->second;
  } else if (const auto provider = names.providers.find(owner); provider != names.providers.end()) {
    type = provider->second;
  }
  if (const auto* rewrite = std::get_if<RewriteQueryConfig>(&config)) {
    only_in_tools(RewriteQueryConfig::kName, owner, names, path, diag);
    check_llm_provider(rewrite->provider, "rewrite queries", names, pointer_append(path, "provider"), diag);
  }
  if (!type) return;
  if (std::holds_alternative<CacheConfig>(config)) {
    check_cache(owner, *type, names, path, diag);
    return;
  }
  if (std::holds_alternative<SimplifyQueryConfig>(config) && *type != ProviderType::web_search) {
    diag.error(path, fmt::format("simplify_query applies only to web_search providers; {}", provider_is(owner, *type)));
  }
  // A similarity threshold is a vector index's: a web search matches words, has no score
  // to lower, and would be sent the same request again for each rung.
  if (std::holds_alternative<RelaxThresholdConfig>(config) && *type != ProviderType::vector_search) {
    diag.error(path, fmt::format("relax_threshold applies only to vector_search providers, whose hits have a "
                                 "similarity threshold to lower; {}",
                                 provider_is(owner, *type)));
    return;
  }
  if (std::holds_alternative<RewriteQueryConfig>(config) &&
      std::find(kSearchTypes.begin(), kSearchTypes.end(), *type) == kSearchTypes.end()) {
    std::vector<std::string_view> searches;
    for (const ProviderType t : kSearchTypes) searches.push_back(to_string(t));
    diag.error(path, fmt::format("{} applies only to {} providers; {}", strategy_name(config),
                                 fmt::join(searches, " or "), provider_is(owner, *type)));
  }
}

// A list holds at most one escalation item, whose second would be silently ignored
// (find_escalation takes the first), at most one cache, since a second would cache what
// the first already does and the report, which counts a pipeline's cache events under its
// tool, would count each of them twice, and at most one adaptive_concurrency, whose limit
// the report keeps per list owner (two would blend into one series). `first` maps a
// strategy's name to the path of the first one seen.
void check_single(const StrategyConfig& config, const std::string& item_path,
                  std::map<std::string_view, std::string>& first, Diagnostics& diag) {
  const bool single = std::holds_alternative<EscalationConfig>(config) || std::holds_alternative<CacheConfig>(config) ||
                      std::holds_alternative<AdaptiveConcurrencyConfig>(config);
  if (!single) return;
  const std::string_view name = strategy_name(config);
  const auto [seen, inserted] = first.emplace(name, item_path);
  if (!inserted) {
    diag.error(item_path, fmt::format("duplicate \"{}\" (also {}); a list holds at most one", name, seen->second));
  }
}

// The retry strategy asks the strategies inside it whether a retry is admitted
// (Next::admit_retry), so a retry_budget outside a retry of the same list would never be
// asked: it must come after it.
void check_retry_budget_order(const std::vector<StrategyConfig>& strategies, const std::string& list_path,
                              Diagnostics& diag) {
  std::optional<std::size_t> budget;
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    if (std::holds_alternative<RetryBudgetConfig>(strategies[i]) && !budget) budget = i;
    if (std::holds_alternative<RetryConfig>(strategies[i]) && budget) {
      diag.error(pointer_append(pointer_append(list_path, *budget), RetryBudgetConfig::kName),
                 fmt::format("must come after the retry it limits ({}): the retry asks the strategies inside it",
                             pointer_append(list_path, i)));
      return;
    }
  }
}

bool asks_retry_budget(const StrategyConfig& s) {
  return std::holds_alternative<RetryConfig>(s) || std::holds_alternative<HedgingConfig>(s);
}

// A retry_budget is asked only by a retry or a hedging outside it (Next::admit_retry): one
// before it in the same list, or, in a provider's stack, one in the list of a tool whose
// calls reach that provider (the tool's provider, or a provider named by its hedging or
// fallback). A retry_budget nothing asks would load and limit nothing, so it is an error,
// as the loader's other rules for keys without effect are (stale_on without
// stale_if_error, a retry_budget after its retry...). A retry after it in the same list is
// check_retry_budget_order's error.
void check_retry_budget_asked(const PolicyConfig& policy, const ScenarioNames& names, const std::string& path,
                              Diagnostics& diag) {
  const auto reaches = [&](const std::string& tool, std::string_view provider) {
    if (const auto it = names.tool_provider.find(tool); it != names.tool_provider.end() && it->second == provider) {
      return true;
    }
    const auto names_it = [&](const std::vector<std::string>& list) {
      return std::find(list.begin(), list.end(), provider) != list.end();
    };
    return std::any_of(policy.at(tool).begin(), policy.at(tool).end(), [&](const StrategyConfig& s) {
      if (const auto* h = std::get_if<HedgingConfig>(&s)) return names_it(h->providers);
      if (const auto* f = std::get_if<FallbackConfig>(&s)) return names_it(f->providers);
      return false;
    });
  };
  for (const auto& owned : policy) {
    // Named references, not a structured binding: clang 14 cannot capture one in a lambda.
    const auto& owner = owned.first;
    const auto& strategies = owned.second;
    const auto budget = std::find_if(strategies.begin(), strategies.end(), [](const StrategyConfig& s) {
      return std::holds_alternative<RetryBudgetConfig>(s);
    });
    if (budget == strategies.end() || std::any_of(strategies.begin(), strategies.end(), asks_retry_budget)) continue;
    const bool stack = names.explicit_tools && names.providers.contains(owner) && !names.tools.contains(owner);
    if (stack && std::any_of(policy.begin(), policy.end(), [&](const auto& entry) {
          return names.tools.contains(entry.first) && reaches(entry.first, owner) &&
                 std::any_of(entry.second.begin(), entry.second.end(), asks_retry_budget);
        })) {
      continue;
    }
    const auto index = static_cast<std::size_t>(budget - strategies.begin());
    diag.error(pointer_append(pointer_append(pointer_append(path, owner), index), RetryBudgetConfig::kName),
               stack ? fmt::format("limits nothing: no retry or hedging comes before it in this stack, nor in the list "
                                   "of a tool whose calls reach \"{}\"",
                                   owner)
                     : std::string("limits nothing: no retry or hedging comes before it in this list"));
  }
}

std::optional<StrategyConfig> read_item(const Json& item, const std::string& path, Diagnostics& diag) {
  const auto& names = strategy_names();
  const ObjectReader obj(item, path, diag, names);
  if (!obj.valid()) return std::nullopt;
  std::vector<std::size_t> present;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (obj.find(names[i]) != nullptr) present.push_back(i);
  }
  if (present.size() > 1) {
    std::vector<std::string_view> given;
    for (const std::size_t i : present) given.push_back(names[i]);
    diag.error(path, fmt::format("expected one strategy per item, got {}: {}", given.size(), join(given)));
    return std::nullopt;
  }
  if (present.empty()) {
    if (item.empty()) {
      diag.error(path, fmt::format("expected an object with one key naming a strategy ({}), got {{}}", join(names)));
    }
    return std::nullopt;  // an unknown key was reported by the ObjectReader
  }
  return read_strategy(present.front(), *obj.find(names[present.front()]), obj.path_of(names[present.front()]), diag);
}

}  // namespace

std::optional<StrategyConfig> read_strategy_config(std::string_view name, const Json& value, const std::string& path,
                                                   Diagnostics& diag) {
  const auto& names = strategy_names();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) return std::nullopt;
  return read_strategy(static_cast<std::size_t>(it - names.begin()), value, path, diag);
}

PolicyConfig read_policy(const Json& value, const std::string& path, const ScenarioNames* names, Diagnostics& diag) {
  PolicyConfig policy;
  if (!value.is_object()) {
    diag.error(path, fmt::format("expected an object, got {}", describe(value)));
    return policy;
  }
  bool complete = true;
  for (const auto& [tool, list] : value.items()) {
    const std::string tool_path = pointer_append(path, tool);
    if (names != nullptr) check_owner(tool, *names, tool_path, diag);
    std::vector<StrategyConfig> strategies;
    std::map<std::string_view, std::string> first_single;
    const auto items = read_array(list, tool_path, diag, /*nonempty=*/false);
    for (std::size_t i = 0; i < items.size(); ++i) {
      const std::string item_path = pointer_append(tool_path, i);
      auto strategy = read_item(items[i], item_path, diag);
      if (!strategy) continue;
      check_single(*strategy, item_path, first_single, diag);
      if (names != nullptr) {
        check_strategy(*strategy, tool, *names, pointer_append(item_path, strategy_name(*strategy)), diag);
      }
      strategies.push_back(std::move(*strategy));
    }
    complete = complete && items.size() == strategies.size();
    if (items.size() == strategies.size()) check_retry_budget_order(strategies, tool_path, diag);
    policy.emplace(tool, std::move(strategies));
  }
  // Judged on the whole policy only: a list with an unreadable item may lack its retry.
  if (names != nullptr && complete) check_retry_budget_asked(policy, *names, path, diag);
  return policy;
}

void check_policy(const PolicyConfig& policy, const ScenarioNames& names, const std::string& path, Diagnostics& diag) {
  for (const auto& [tool, strategies] : policy) {
    const std::string tool_path = pointer_append(path, tool);
    check_owner(tool, names, tool_path, diag);
    for (std::size_t i = 0; i < strategies.size(); ++i) {
      check_strategy(strategies[i], tool, names,
                     pointer_append(pointer_append(tool_path, i), strategy_name(strategies[i])), diag);
    }
  }
  check_retry_budget_asked(policy, names, path, diag);
}

}  // namespace squall

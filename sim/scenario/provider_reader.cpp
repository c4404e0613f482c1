#include "sim/scenario/provider_reader.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "mocks/corpus.hpp"
#include "sim/scenario.hpp"
#include "sim/scenario/capacity_reader.hpp"
#include "sim/scenario/fault_overlaps.hpp"
#include "sim/scenario/fault_reader.hpp"
#include "sim/scenario/latency_reader.hpp"
#include "sim/scenario/policy_reader.hpp"
#include "sim/scenario/search_provider_reader.hpp"

namespace squall {
namespace {

constexpr std::size_t kTypeCount = std::variant_size_v<ProviderSpec>;

// The types in ProviderSpec's alternative order (mocks/provider_config.hpp), and their names.
template <std::size_t... I>
constexpr std::array<ProviderType, kTypeCount> make_types(std::index_sequence<I...>) {
  return {std::variant_alternative_t<I, ProviderSpec>::kKind...};
}
constexpr auto kTypes = make_types(std::make_index_sequence<kTypeCount>());
const std::array<std::string_view, kTypeCount> kTypeNames = [] {
  std::array<std::string_view, kTypeCount> names{};
  for (std::size_t i = 0; i < kTypeCount; ++i) names[i] = to_string(kTypes[i]);
  return names;
}();

// The keys of a provider entry of type Config: its type, its own keys, then the keys every
// type has.
template <class Config>
const std::vector<std::string_view>& entry_keys() {
  static const std::vector<std::string_view> keys = [] {
    std::vector<std::string_view> all{"type"};
    all.insert(all.end(), Config::kKeys.begin(), Config::kKeys.end());
    all.insert(all.end(), {"faults", "capabilities", "idempotent", "sdk_retry", "capacity"});
    return all;
  }();
  return keys;
}

// The keys of a provider entry of any type, in first-seen order over the types: what an
// entry without a valid type may hold. A key outside them is unknown whatever the type.
const std::vector<std::string_view>& keys_of_any_type() {
  static const std::vector<std::string_view> keys = [] {
    std::vector<std::string_view> all;
    for (const auto* type_keys : {&entry_keys<WebSearchConfig>(), &entry_keys<VectorSearchConfig>(),
                                  &entry_keys<ToolMockConfig>(), &entry_keys<LlmConfig>()}) {
      for (const std::string_view key : *type_keys) {
        if (std::find(all.begin(), all.end(), key) == all.end()) all.push_back(key);
      }
    }
    return all;
  }();
  return keys;
}

// An entry whose type is missing or invalid: its other keys cannot be checked against the
// type, but one that no type has is reported now, not only once the type is fixed.
void check_keys_without_type(const Json& entry, const std::string& entry_path, Diagnostics& diag) {
  const std::vector<std::string_view>& keys = keys_of_any_type();
  for (const auto& [key, member] : entry.items()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      diag.error(pointer_append(entry_path, key),
                 fmt::format("unknown key \"{}\"; no provider type has it (keys of the types: {})", key, join(keys)));
    }
  }
}

// Upper bounds, far beyond any real service, that keep what the mocks derive from them
// finite:
// - price_per_mtok: 1e6 USD per million tokens (today's models cost at most ~1e2); a
//   cost is tokens * price, and 1e9 tokens * 1e6 stays far from a double's overflow
//   (1.7e308 made costs infinite, written as null);
// - context_window, mean_output_tokens: 1e9 tokens, a thousand times the largest
//   context windows, so that token sums over steps and retries stay far from int64
//   overflow;
// - tokens_per_second: 1e9, one token per nanosecond, the clock's resolution.
constexpr NumberRange kPriceUsd{0, false, 1e6};
constexpr IntRange kTokens{1, 1'000'000'000};
constexpr NumberRange kTokensPerSecond{0, true, 1e9};

std::optional<ProviderType> type_of(const Json& provider) {
  if (!provider.is_object()) return std::nullopt;
  const auto it = provider.find("type");
  if (it == provider.end() || !it->is_string()) return std::nullopt;
  for (std::size_t i = 0; i < kTypes.size(); ++i) {
    if (kTypeNames[i] == it->get_ref<const std::string&>()) return kTypes[i];
  }
  return std::nullopt;
}

LlmConfig read_llm(const ObjectReader& obj, const std::string& name) {
  LlmConfig config;
  config.model = name;
  if (std::string model; obj.get_nonempty("model", model) && check_printable(model, obj.path_of("model"), obj.diag())) {
    config.model = std::move(model);
  }
  if (const Json* price = obj.find("price_per_mtok")) {
    const ObjectReader p(*price, obj.path_of("price_per_mtok"), obj.diag(), {"input", "output"});
    p.get("input", config.price_per_mtok.input, kPriceUsd);
    p.get("output", config.price_per_mtok.output, kPriceUsd);
  }
  obj.get("context_window", config.context_window, kTokens);
  if (const Json* ttft = obj.find("time_to_first_token")) {
    if (auto parsed = read_latency(*ttft, obj.path_of("time_to_first_token"), obj.diag())) {
      config.time_to_first_token = *parsed;
    }
  }
  if (const Json* error = obj.find("error_latency")) {
    if (auto parsed = read_latency(*error, obj.path_of("error_latency"), obj.diag())) config.error_latency = *parsed;
  }
  obj.get("max_output_tokens", config.max_output_tokens, kTokens);
  obj.get("tokens_per_second", config.tokens_per_second, kTokensPerSecond);
  obj.get("mean_output_tokens", config.mean_output_tokens, kTokens);
  obj.get("malformed_output_rate", config.malformed_output_rate, kProbability);
  obj.get("rewrite_success_rate", config.rewrite_success_rate, kProbability);
  return config;
}

ToolMockConfig read_tool(const ObjectReader& obj) {
  ToolMockConfig config;
  if (const Json* latency = obj.find("latency")) {
    if (auto parsed = read_latency(*latency, obj.path_of("latency"), obj.diag())) config.latency = *parsed;
  }
  obj.get("argument_error_rate", config.argument_error_rate, kProbability);
  obj.get("reflection_fix_rate", config.reflection_fix_rate, kProbability);
  return config;
}

// The retries of the official OpenAI and Anthropic Python SDKs (both generated by
// Stainless, with the same constants in their _constants.py and _base_client.py):
// DEFAULT_MAX_RETRIES = 2 (3 attempts), INITIAL_RETRY_DELAY = 0.5 s doubling to
// MAX_RETRY_DELAY = 8 s, each delay multiplied by a random factor in (0.75, 1] (proportional
// jitter over [0.75, 1]); retried on timeouts, 408, 409, 429 and 5xx (409 classifies as
// bad_request here, which no retry_on default includes), a 429 whose code says the quota is
// spent (quota_exhausted) included: _should_retry reads the status, not the code; Retry-After honoured up to 60 s,
// and above it ignored in favour of the SDK's own backoff (over_max_retry_after backoff), as
// is a Retry-After of 0 (zero_retry_after backoff: _calculate_retry_timeout uses the header
// only when 0 < Retry-After <= 60). An answer's x-should-retry overrides the status
// (_should_retry reads it first: "true" retries, "false" does not).
RetryConfig sdk_retry_preset() {
  RetryConfig config;
  config.max_attempts = 3;
  config.retry_on = {OutcomeKind::timeout, OutcomeKind::rate_limited, OutcomeKind::quota_exhausted,
                     OutcomeKind::overloaded, OutcomeKind::server_error};
  config.backoff = Backoff::exponential;
  config.base_delay = 500 * kMillisecond;
  config.multiplier = 2.0;
  config.max_delay = 8 * kSecond;
  config.jitter = Jitter::proportional;
  config.jitter_range = JitterRange{0.75, 1.0};
  config.honour_retry_after = true;
  config.max_retry_after = 60 * kSecond;
  config.over_max_retry_after = RetryAfterOverMax::backoff;
  config.zero_retry_after = RetryAfterZero::backoff;
  config.honour_should_retry = true;
  return config;
}

// Keys every provider type has, beside its own.
void read_common(const ObjectReader& obj, ProviderConfig& provider) {
  if (const Json* list = obj.find("capabilities")) {
    if (auto caps = read_capabilities(*list, obj.path_of("capabilities"), obj.diag())) provider.capabilities = *caps;
  }
  obj.get("idempotent", provider.idempotent);
  const Json* sdk = obj.find("sdk_retry");
  if (sdk == nullptr) return;
  const std::string path = obj.path_of("sdk_retry");
  if (sdk->is_string()) {
    static constexpr std::array<std::string_view, 3> kPresets{"openai", "anthropic", "none"};
    if (const auto preset = read_choice(*sdk, path, obj.diag(), kPresets)) {
      if (*preset < 2) provider.sdk_retry = sdk_retry_preset();
    }
  } else if (sdk->is_object()) {
    if (auto config = read_strategy_config("retry", *sdk, path, obj.diag())) {
      provider.sdk_retry = std::get<RetryConfig>(std::move(*config));
    }
  } else {
    obj.diag().error(
        path, fmt::format("expected \"openai\", \"anthropic\", \"none\" or a retry object, got {}", describe(*sdk)));
  }
}

std::vector<FaultConfig> read_faults(const ObjectReader& obj, std::optional<Nanos> run_end, ProviderType type,
                                     std::string_view name) {
  std::vector<FaultConfig> faults;
  const Json* list = obj.find("faults");
  if (list == nullptr) return faults;
  const std::string path = obj.path_of("faults");
  const auto elements = read_array(*list, path, obj.diag(), /*nonempty=*/false);
  std::vector<std::size_t> positions;  // each read fault's index in the list
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (auto fault = read_fault(elements[i], pointer_append(path, i), run_end, obj.diag())) {
      if (!fault_applies(fault->kind, type)) {
        obj.diag().error(pointer_append(pointer_append(path, i), "kind"),
                         fmt::format("\"{}\" applies only to {} providers; {}", to_string(fault->kind),
                                     fault_providers(fault->kind), provider_is(name, type)));
        continue;
      }
      faults.push_back(std::move(*fault));
      positions.push_back(i);
    }
  }
  // Delay rules decide apart from abort and transform rules (chaos_provider.hpp), so each
  // group sums to at most 1 on its own.
  for (const bool delay : {false, true}) {
    std::vector<FaultConfig> group;
    std::vector<std::size_t> group_positions;
    for (std::size_t k = 0; k < faults.size(); ++k) {
      if ((phase_of(faults[k].kind) == FaultPhase::delay) != delay) continue;
      group.push_back(faults[k]);
      group_positions.push_back(positions[k]);
    }
    check_fault_overlaps(group, group_positions, path, obj.diag());
  }
  return faults;
}

// Reads a provider entry of type Config: its own keys with `read_spec`, then its faults and
// the keys every type has.
template <class Config, class ReadSpec>
void read_entry(const Json& entry, const std::string& path, Diagnostics& diag, std::optional<Nanos> run_end,
                ProviderConfig& provider, ReadSpec&& read_spec) {
  const ObjectReader obj(entry, path, diag, entry_keys<Config>());
  provider.spec = read_spec(obj);
  provider.faults = read_faults(obj, run_end, Config::kKind, provider.name);
  read_common(obj, provider);
  if (const Json* capacity = obj.find("capacity")) {
    provider.capacity = read_capacity(*capacity, obj.path_of("capacity"), run_end, Config::kKind, provider.name, diag);
  }
}

}  // namespace

ProviderTypes provider_types(const Json& providers) {
  ProviderTypes types;
  if (!providers.is_object()) return types;
  for (const auto& [name, provider] : providers.items()) types.emplace(name, type_of(provider));
  return types;
}

ProviderTypes provider_types(const std::vector<ProviderConfig>& providers) {
  ProviderTypes types;
  for (const ProviderConfig& p : providers) {
    types.emplace(p.name, std::visit([](const auto& spec) { return std::decay_t<decltype(spec)>::kKind; }, p.spec));
  }
  return types;
}

std::string provider_is(std::string_view name, ProviderType type) {
  return fmt::format("\"{}\" is {} {} provider", name, type == ProviderType::llm ? "an" : "a", to_string(type));
}

std::string no_such_provider(std::string_view name, const ProviderTypes& providers) {
  std::string known;
  for (const auto& [provider, type] : providers) known += fmt::format("{}{}", known.empty() ? "" : ", ", provider);
  if (known.empty()) return fmt::format("no provider named \"{}\"; the scenario has no providers", name);
  return fmt::format("no provider named \"{}\"; providers are: {}", name, known);
}

std::optional<Capabilities> read_capabilities(const Json& value, const std::string& path, Diagnostics& diag) {
  static const auto kCapabilities = [] {
    std::array<Capability, kCapabilityCount> all{};
    for (std::size_t i = 0; i < kCapabilityCount; ++i) all[i] = static_cast<Capability>(i);
    return all;
  }();
  auto list = read_choice_list<Capability>(value, path, diag, capability_names(), kCapabilities);
  if (!list) return std::nullopt;
  Capabilities caps;
  for (const Capability c : *list) caps.add(c);
  return caps;
}

std::string ScenarioNames::no_such_tool(std::string_view name) const {
  if (!explicit_tools) return no_such_provider(name, providers);
  std::string known;
  for (const auto& [tool, type] : tools) known += fmt::format("{}{}", known.empty() ? "" : ", ", tool);
  if (known.empty()) return fmt::format("no tool named \"{}\"; the scenario has no tools", name);
  return fmt::format("no tool named \"{}\"; tools are: {}", name, known);
}

std::vector<ProviderConfig> read_providers(const Json& value, const std::string& path,
                                           const std::filesystem::path& base_dir, std::optional<Nanos> run_end,
                                           Diagnostics& diag) {
  std::vector<ProviderConfig> providers;
  CorpusErrors corpora;
  if (!value.is_object()) {
    diag.error(path, fmt::format("expected an object, got {}", describe(value)));
    return providers;
  }
  for (const auto& [name, entry] : value.items()) {
    const std::string entry_path = pointer_append(path, name);
    check_name(name, "provider name", entry_path, diag);
    if (!entry.is_object()) {
      diag.error(entry_path, fmt::format("expected an object, got {}", describe(entry)));
      continue;
    }
    // The type decides which keys exist, so nothing else is checked without a valid one.
    const auto type_member = entry.find("type");
    if (type_member == entry.end()) {
      diag.error(entry_path, "missing required key \"type\"");
      check_keys_without_type(entry, entry_path, diag);
      continue;
    }
    const auto type_index = read_choice(*type_member, pointer_append(entry_path, "type"), diag, kTypeNames);
    if (!type_index) {
      check_keys_without_type(entry, entry_path, diag);
      continue;
    }

    ProviderConfig provider;
    provider.name = name;
    switch (kTypes[*type_index]) {
      case ProviderType::web_search:
        read_entry<WebSearchConfig>(entry, entry_path, diag, run_end, provider,
                                    [&](const ObjectReader& obj) { return read_web_search(obj, base_dir, corpora); });
        break;
      case ProviderType::vector_search:
        read_entry<VectorSearchConfig>(entry, entry_path, diag, run_end, provider, [&](const ObjectReader& obj) {
          return read_vector_search(obj, base_dir, corpora);
        });
        break;
      case ProviderType::tool:
        read_entry<ToolMockConfig>(entry, entry_path, diag, run_end, provider,
                                   [](const ObjectReader& obj) { return read_tool(obj); });
        break;
      case ProviderType::llm:
        read_entry<LlmConfig>(entry, entry_path, diag, run_end, provider,
                              [&](const ObjectReader& obj) { return read_llm(obj, provider.name); });
        break;
    }
    providers.push_back(std::move(provider));
  }
  std::sort(providers.begin(), providers.end(),
            [](const ProviderConfig& a, const ProviderConfig& b) { return a.name < b.name; });
  return providers;
}

}  // namespace squall

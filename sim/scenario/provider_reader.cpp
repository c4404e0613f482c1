#include "sim/scenario/provider_reader.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "mocks/corpus.hpp"
#include "sim/scenario.hpp"
#include "sim/scenario/fault_reader.hpp"
#include "sim/scenario/latency_reader.hpp"

namespace squall {
namespace {

constexpr std::array<std::string_view, 2> kTypeNames{"web_search", "llm"};
constexpr std::array<ProviderType, 2> kTypes{ProviderType::web_search, ProviderType::llm};

// Upper bounds, far beyond any real service, that keep what the mocks derive from them
// finite:
// - max_results: 10000 hits; search APIs return 10 to 100 per page;
// - price_per_mtok: 1e6 USD per million tokens (today's models cost at most ~1e2); a
//   cost is tokens * price, and 1e9 tokens * 1e6 stays far from a double's overflow
//   (1.7e308 made costs infinite, written as null);
// - context_window, mean_output_tokens: 1e9 tokens, a thousand times the largest
//   context windows, so that token sums over steps and retries stay far from int64
//   overflow;
// - tokens_per_second: 1e9, one token per nanosecond, the clock's resolution.
constexpr IntRange kMaxResults{0, 10'000};
constexpr NumberRange kPriceUsd{0, false, 1e6};
constexpr IntRange kTokens{1, 1'000'000'000};
constexpr NumberRange kTokensPerSecond{0, true, 1e9};

// Corpus files already loaded, by resolved path: providers sharing a corpus read it once,
// and its errors are reported at each provider that names it.
using CorpusErrors = std::map<std::filesystem::path, std::optional<std::string>>;

std::optional<ProviderType> type_of(const Json& provider) {
  if (!provider.is_object()) return std::nullopt;
  const auto it = provider.find("type");
  if (it == provider.end() || !it->is_string()) return std::nullopt;
  for (std::size_t i = 0; i < kTypes.size(); ++i) {
    if (kTypeNames[i] == it->get_ref<const std::string&>()) return kTypes[i];
  }
  return std::nullopt;
}

// Loads the corpus as sim::World will (Corpus::load), so that `squall validate` finds
// every problem `squall run` would.
void check_corpus(const ObjectReader& obj, const std::string& corpus, const std::filesystem::path& base_dir,
                  CorpusErrors& corpora) {
  const std::filesystem::path file = corpus_path(base_dir, corpus);
  auto [entry, inserted] = corpora.try_emplace(file);
  if (inserted) {
    try {
      Corpus::load(file);
    } catch (const CorpusError& e) {
      entry->second = e.what();
    }
  }
  if (entry->second) obj.diag().error(obj.path_of("corpus"), *entry->second);
}

WebSearchConfig read_web_search(const ObjectReader& obj, const std::filesystem::path& base_dir,
                                CorpusErrors& corpora) {
  WebSearchConfig config;
  if (obj.require("corpus") != nullptr && obj.get_nonempty("corpus", config.corpus)) {
    check_corpus(obj, config.corpus, base_dir, corpora);
  }
  if (const Json* latency = obj.find("latency")) {
    if (auto parsed = read_latency(*latency, obj.path_of("latency"), obj.diag())) config.latency = *parsed;
  }
  obj.get("max_results", config.max_results, kMaxResults);
  return config;
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
  obj.get("tokens_per_second", config.tokens_per_second, kTokensPerSecond);
  obj.get("mean_output_tokens", config.mean_output_tokens, kTokens);
  return config;
}

std::vector<FaultConfig> read_faults(const ObjectReader& obj, std::optional<Nanos> run_end) {
  std::vector<FaultConfig> faults;
  const Json* list = obj.find("faults");
  if (list == nullptr) return faults;
  const std::string path = obj.path_of("faults");
  const auto elements = read_array(*list, path, obj.diag(), /*nonempty=*/false);
  std::vector<std::size_t> positions;  // each read fault's index in the list
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (auto fault = read_fault(elements[i], pointer_append(path, i), run_end, obj.diag())) {
      faults.push_back(std::move(*fault));
      positions.push_back(i);
    }
  }
  check_fault_overlaps(faults, positions, path, obj.diag());
  return faults;
}

}  // namespace

std::string_view to_string(ProviderType type) { return kTypeNames[static_cast<std::size_t>(type)]; }

ProviderTypes provider_types(const Json& providers) {
  ProviderTypes types;
  if (!providers.is_object()) return types;
  for (const auto& [name, provider] : providers.items()) types.emplace(name, type_of(provider));
  return types;
}

ProviderTypes provider_types(const std::vector<ProviderConfig>& providers) {
  ProviderTypes types;
  for (const ProviderConfig& p : providers) {
    types.emplace(p.name,
                  std::holds_alternative<WebSearchConfig>(p.spec) ? ProviderType::web_search : ProviderType::llm);
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
      continue;
    }
    const auto type_index = read_choice(*type_member, pointer_append(entry_path, "type"), diag, kTypeNames);
    if (!type_index) continue;

    ProviderConfig provider;
    provider.name = name;
    if (kTypes[*type_index] == ProviderType::web_search) {
      const ObjectReader obj(entry, entry_path, diag, {"type", "corpus", "latency", "max_results", "faults"});
      provider.spec = read_web_search(obj, base_dir, corpora);
      provider.faults = read_faults(obj, run_end);
    } else {
      const ObjectReader obj(entry, entry_path, diag,
                             {"type", "model", "price_per_mtok", "context_window", "time_to_first_token",
                              "tokens_per_second", "mean_output_tokens", "faults"});
      provider.spec = read_llm(obj, name);
      provider.faults = read_faults(obj, run_end);
    }
    providers.push_back(std::move(provider));
  }
  std::sort(providers.begin(), providers.end(),
            [](const ProviderConfig& a, const ProviderConfig& b) { return a.name < b.name; });
  return providers;
}

}  // namespace squall

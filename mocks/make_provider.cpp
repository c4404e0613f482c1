#include "mocks/make_provider.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <type_traits>
#include <variant>

namespace squall {

ProviderDescriptor describe(const ProviderConfig& config) {
  ProviderDescriptor d;
  d.name = config.name;
  d.model = config.name;
  d.capabilities = config.capabilities;
  d.idempotent = config.idempotent;
  std::visit(
      [&](const auto& spec) {
        using Spec = std::decay_t<decltype(spec)>;
        if constexpr (std::is_same_v<Spec, WebSearchConfig>) {
          d.kind = ProviderKind::web_search;
        } else if constexpr (std::is_same_v<Spec, ToolMockConfig>) {
          d.kind = ProviderKind::tool;
        } else {
          static_assert(std::is_same_v<Spec, LlmConfig>, "a ProviderSpec alternative without a descriptor");
          d.kind = ProviderKind::llm;
          if (!spec.model.empty()) d.model = spec.model;
          d.context_window = spec.context_window;
          d.max_output_tokens = spec.max_output_tokens;
          d.price_per_mtok = spec.price_per_mtok;
        }
      },
      config.spec);
  return d;
}

BuiltProvider make_provider(const ProviderConfig& config, std::shared_ptr<const Corpus> corpus, Clock& clock,
                            Scheduler& scheduler, const RngFactory& rngs) {
  BuiltProvider built;
  built.provider_rng = rngs(fmt::format("provider/{}", config.name));
  Rng& rng = *built.provider_rng;
  // What the chaos decorator needs to know about the mock: its body kind and the latency
  // its faulty answers borrow (an LLM's errors come before the first token).
  Body body = Body::search_results;
  LatencyConfig latency;
  std::visit(
      [&](const auto& spec) {
        using Spec = std::decay_t<decltype(spec)>;
        if constexpr (std::is_same_v<Spec, WebSearchConfig>) {
          if (corpus == nullptr) {
            throw std::invalid_argument(
                fmt::format("provider \"{}\": a web_search provider needs a loaded corpus", config.name));
          }
          built.provider = std::make_unique<WebSearchMock>(config.name, spec, std::move(corpus), clock, scheduler, rng);
          body = Body::search_results;
          latency = spec.latency;
        } else if constexpr (std::is_same_v<Spec, ToolMockConfig>) {
          built.provider = std::make_unique<ToolMock>(config.name, spec, clock, scheduler, rng);
          body = Body::tool_result;
          latency = spec.latency;
        } else {
          static_assert(std::is_same_v<Spec, LlmConfig>, "a ProviderSpec alternative without a mock");
          built.provider = std::make_unique<LlmMock>(config.name, spec, clock, scheduler, rng);
          body = Body::completion;
          latency = spec.time_to_first_token;
        }
      },
      config.spec);
  if (!config.faults.empty()) {
    built.chaos_rng = rngs(fmt::format("chaos/{}", config.name));
    auto chaos = std::make_unique<ChaosProvider>(std::move(built.provider), config.faults, latency, body, clock,
                                                 scheduler, *built.chaos_rng);
    built.chaos = chaos.get();
    built.provider = std::move(chaos);
  }
  return built;
}

}  // namespace squall

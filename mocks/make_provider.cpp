#include "mocks/make_provider.hpp"

#include <fmt/format.h>

#include <type_traits>
#include <variant>

namespace squall {

ProviderDescriptor describe(const ProviderConfig& config) {
  ProviderDescriptor d;
  d.name = config.name;
  d.model = config.name;
  d.capabilities = config.capabilities;
  d.idempotent = config.idempotent;
  d.quota_group = config.quota_group;
  std::visit(
      [&](const auto& spec) {
        d.kind = std::decay_t<decltype(spec)>::kKind;
        describe_into(spec, d);
      },
      config.spec);
  return d;
}

BuiltProvider make_provider(const ProviderConfig& config, std::shared_ptr<const Corpus> corpus, Clock& clock,
                            Scheduler& scheduler, const RngFactory& rngs, std::shared_ptr<const VectorIndex> index,
                            CapacitySeriesOptions series, std::int64_t start_unix_seconds, QuotaBuckets* quota) {
  BuiltProvider built;
  built.provider_rng = rngs(fmt::format("provider/{}", config.name));
  const MockBuild build{config.name, clock, scheduler, *built.provider_rng, std::move(corpus), std::move(index), [&] {
                          return rngs(fmt::format("provider/{}/decisions", config.name))->next_u64();
                        }};
  // What the chaos decorator needs to know about the mock: its body kind and the latency
  // its faulty answers borrow (an LLM's errors come before the first token).
  Body body = Body::search_results;
  LatencyConfig latency;
  std::visit(
      [&](const auto& spec) {
        built.provider = make_mock(spec, build);
        body = std::decay_t<decltype(spec)>::kBody;
        latency = spec.fault_latency();
      },
      config.spec);
  if (config.capacity || quota != nullptr) {
    auto capacity = std::make_unique<CapacityProvider>(
        std::move(built.provider), config.capacity.value_or(CapacityConfig{}), body, clock, scheduler, series, quota);
    built.capacity = capacity.get();
    built.provider = std::move(capacity);
  }
  if (!config.faults.empty()) {
    built.chaos_rng = rngs(fmt::format("chaos/{}", config.name));
    std::vector<FaultConfig> faults = config.faults;
    for (FaultConfig& fault : faults) {
      if (!fault.outage.empty()) fault.outage_key = rngs(fmt::format("outage/{}", fault.outage))->next_u64();
    }
    ChaosSettings settings;
    settings.decision_key = rngs(fmt::format("chaos/{}/decisions", config.name))->next_u64();
    settings.start_unix_seconds = start_unix_seconds;
    settings.window = series.window;
    settings.max_windows = series.max_windows;
    if (const auto* llm = std::get_if<LlmConfig>(&config.spec))
      settings.prompt_usd_per_mtok = llm->price_per_mtok.input;
    auto chaos = std::make_unique<ChaosProvider>(std::move(built.provider), std::move(faults), latency, body, clock,
                                                 scheduler, *built.chaos_rng, settings);
    built.chaos = chaos.get();
    built.provider = std::move(chaos);
  }
  return built;
}

}  // namespace squall

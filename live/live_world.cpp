#include "live/live_world.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "engine/classify.hpp"
#include "engine/runtime/rng.hpp"
#include "sim/provider_record.hpp"

namespace squall::live {

LiveWorld::LiveWorld(const Scenario& scenario, const Corpora& corpora, std::uint64_t seed, Clock& clock,
                     Scheduler& scheduler, std::int64_t start_unix_seconds, EventSink* observer)
    : scenario_(scenario), seed_(seed), clock_(clock), start_unix_seconds_(start_unix_seconds), observer_(observer) {
  // The streams the simulator's World gives each component (sim/world.cpp stream()).
  const RngFactory rngs = [seed](std::string_view component) {
    return std::make_unique<Xoshiro256>(stream_seed(seed, component));
  };
  for (const ProviderConfig& config : scenario.providers) {
    const LoadedCorpus* corpus = corpus_of(scenario, corpora, config);
    LiveProvider& provider = providers_[config.name];
    provider.config = &config;
    provider.built = make_provider(config, corpus != nullptr ? corpus->corpus : nullptr, clock, scheduler, rngs,
                                   corpus != nullptr ? corpus->index : nullptr,
                                   CapacitySeriesOptions{recorder_.window(), kMaxWindows}, start_unix_seconds,
                                   quotas_.find(config.quota_group));
  }
}

LiveProvider* LiveWorld::find_llm(std::string_view model) {
  LiveProvider* by_name = nullptr;
  for (auto& [name, provider] : providers_) {
    const auto* llm = std::get_if<LlmConfig>(&provider.config->spec);
    if (llm == nullptr) continue;
    if (llm->model == model) return &provider;
    if (name == model) by_name = &provider;
  }
  return by_name;
}

LiveProvider* LiveWorld::find(std::string_view name) {
  const auto it = providers_.find(name);
  return it != providers_.end() ? &it->second : nullptr;
}

std::vector<const LiveProvider*> LiveWorld::llms() const {
  std::vector<const LiveProvider*> out;
  for (const auto& [name, provider] : providers_) {
    if (std::holds_alternative<LlmConfig>(provider.config->spec)) out.push_back(&provider);
  }
  return out;
}

std::vector<std::string_view> LiveWorld::tool_names(const LiveProvider& provider) const {
  std::vector<std::string_view> names;
  for (const ToolConfig& tool : scenario_.tools) {
    if (tool.provider == provider.config->name) names.push_back(tool.name);
  }
  if (names.empty()) names.push_back(provider.config->name);
  return names;
}

RequestIdentity LiveWorld::identify(LiveProvider& provider, std::optional<std::string_view> idempotency_key) {
  if (!idempotency_key) return RequestIdentity{provider.next_request++, 1, next_trace_++};
  const auto [it, first] = provider.keys.try_emplace(std::string(*idempotency_key), RequestIdentity{0, 0, 0});
  if (first) it->second = RequestIdentity{provider.next_request++, 0, next_trace_++};
  it->second.attempt = std::min(it->second.attempt + 1, INT32_MAX - 1);
  return it->second;
}

void LiveWorld::record_decision(const LiveProvider& provider, RequestIdentity identity, const FaultCounts& before) {
  const ChaosProvider* chaos = provider.built.chaos;
  if (chaos == nullptr) return;  // no fault rules: nothing is decided
  std::uint64_t chosen = 0;      // a bit per fault kind chosen for this request
  for (std::size_t i = 0; i < kFaultKindCount; ++i) {
    if (chaos->injected()[i] != before[i]) chosen |= std::uint64_t{1} << i;
  }
  ++decisions_;
  decision_fingerprint_.fold(crc64_xz(provider.config->name), identity.request,
                             static_cast<std::uint64_t>(identity.attempt), chosen);
}

Task<Response> LiveWorld::call(LiveProvider& provider, Request request, RequestIdentity identity,
                               std::string_view endpoint, GenerationMeter* meter, CancellationToken cancellation,
                               bool prompt_only) {
  CallOptions options;
  options.task_id = identity.request;
  options.tool = endpoint;
  options.attempt = identity.attempt;
  options.meter = meter;
  options.cancellation = cancellation;
  const TimePoint started = clock_.now();
  const FaultCounts before = provider.built.injected_faults();
  // The decorator decides when call() is called (mocks/chaos/chaos_provider.hpp), before
  // the Task is awaited: the counts tell what it chose.
  Task<Response> pending = provider.built.provider->call(request, options);
  record_decision(provider, identity, before);
  Response response = co_await std::move(pending);
  if (prompt_only) response.truncated = false;
  AttemptEvent event;
  event.task_id = identity.trace;
  event.tool = endpoint;
  event.provider = provider.config->name;
  event.attempt = identity.attempt;
  event.started = started;
  event.finished = clock_.now();
  event.kind = classify(response);
  event.status = response.status;
  event.input_tokens = response.input_tokens;
  event.output_tokens = response.output_tokens;
  event.cost_usd = response.cost_usd;
  event.truncated = response.truncated;
  recorder_.on_attempt(event);
  if (observer_ != nullptr) observer_->on_attempt(event);
  co_return response;
}

Report LiveWorld::report(Nanos duration, const Provenance& provenance, const ClientReport* clients) {
  for (auto& [name, provider] : providers_) record_provider(recorder_, *provider.config, provider.built, duration);
  Report report = build_report(recorder_, RunInfo{scenario_.name, seed_, duration}, scenario_.thresholds, clients);
  if (clients != nullptr) report.clients = *clients;
  report.produced_by = provenance;
  report.fingerprint = decision_fingerprint();
  return report;
}

}  // namespace squall::live

// ProviderRegistry: the run's named providers, each with its own stack (DESIGN section
// 1b).
//
// A tool's pipeline ends here: run() sends the call to the stack of the provider that
// CallContext::provider names, so a fallback from one provider to another meets the
// second provider's own state (its SDK retries, its breaker), shared by every tool and
// task that reaches it. Strategies reach other providers only through the registry, by
// name or id, never by holding a mock.
//
// The registry also keeps what routing needs to know about each provider beyond its
// descriptor: the latency of its recent successful attempts (LatencyWindow), and which
// providers are cooling (CooldownBoard).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/cooldown_board.hpp"
#include "engine/pipeline.hpp"
#include "engine/provider_descriptor.hpp"

namespace squall {

// The mean latency of a provider's last kSize successful attempts: "fastest" routing's
// measure, as LiteLLM's latency-based routing averages a deployment's recent latencies
// (its lowest_latency strategy keeps a list of the last 10). Fixed size, no allocation.
class LatencyWindow {
 public:
  static constexpr std::size_t kSize = 10;
  void add(Nanos latency);
  // None before the first sample.
  std::optional<Nanos> mean() const;

 private:
  std::array<Nanos, kSize> samples_{};
  std::size_t count_ = 0;  // samples held, up to kSize
  std::size_t next_ = 0;   // where the next sample goes
};

class ProviderRegistry final : public Terminal {
 public:
  // `env.providers` is ignored: stacks built later get this registry through their own
  // env. The clock and event sink must outlive the registry.
  explicit ProviderRegistry(EngineEnv env) : env_(env) { env_.providers = this; }
  ProviderRegistry(const ProviderRegistry&) = delete;
  ProviderRegistry& operator=(const ProviderRegistry&) = delete;

  // Adds a provider with the strategies of its stack (outermost first; empty for none).
  // `provider` must outlive the registry. Ids are given in order from 0. A second
  // provider with the same name is a programmer error (the loader rejects it).
  ProviderId add(ProviderDescriptor descriptor, Provider& provider, std::vector<std::unique_ptr<Strategy>> stack);

  std::optional<ProviderId> find(std::string_view name) const;
  const ProviderDescriptor& descriptor(ProviderId id) const { return entries_[id]->descriptor; }
  const LatencyWindow& latency(ProviderId id) const { return entries_[id]->latency; }
  std::size_t size() const { return entries_.size(); }
  // The run's cooldowns, shared by every fallback that sets `cooldown`.
  CooldownBoard& cooldowns() { return cooldowns_; }
  const CooldownBoard& cooldowns() const { return cooldowns_; }
  // The environment strategies built for this registry use (env.providers is this).
  const EngineEnv& env() const { return env_; }

  // Terminal: the stack of ctx.provider, which must be a valid id.
  Task<Outcome> run(CallContext& ctx, Request& request) override;
  bool refuses(const CallContext& ctx, const Request& request) const override;
  // Asks the stack of ctx.provider (true for an unknown id).
  bool admit_retry(const CallContext& ctx, const Request& request) override;
  // Routes through the stack of ctx.provider (engine/fused_call.hpp).
  bool route(const CallContext& ctx, FusedRoute& route) const override;

 private:
  struct Entry {
    Entry(ProviderDescriptor d, Provider& provider, EngineEnv env, std::vector<std::unique_ptr<Strategy>> stack)
        : descriptor(std::move(d)),
          attempt(provider, env, &latency, descriptor.name),
          pipeline(attempt, std::move(stack)) {}
    ProviderDescriptor descriptor;
    LatencyWindow latency;
    ProviderAttempt attempt;  // records into `latency`, declared before it
    Pipeline pipeline;
  };

  EngineEnv env_;
  CooldownBoard cooldowns_;
  std::vector<std::unique_ptr<Entry>> entries_;  // by id; entries never move
  // Ids by name, so that building a world of n providers and tools is O(n log n), not
  // O(n^2). The keys view the entries' descriptors, which never move.
  std::map<std::string_view, ProviderId> ids_;
};

}  // namespace squall

// Everything replay fits from one grouped trace, in scenario time (trace time minus the
// first task's start): arrivals, fault windows, providers (kind, model, latency, output
// tokens), the workload and the as-deployed policy. replay/scenario_writer.hpp writes it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/provider_descriptor.hpp"
#include "mocks/llm.hpp"
#include "replay/fit_arrivals.hpp"
#include "replay/fit_faults.hpp"
#include "replay/fit_latency.hpp"
#include "replay/policy_fit.hpp"
#include "replay/workload_fit.hpp"

namespace squall::replay {

// An LLM's latency is time to first token plus output tokens / tokens_per_second (mocks/
// llm.hpp). tokens_per_second is the inverse of the least-squares slope of latency on output
// tokens over its answered attempts (at least kMinSlopeSamples, the slope positive); else
// the mock's default, 80, a declared prior. The time to first token is then the lognormal
// fit (replay/fit_latency.hpp) of latency minus output tokens / tokens_per_second.
inline constexpr std::size_t kMinSlopeSamples = 10;

struct FittedProvider {
  std::string name;
  ProviderKind kind = ProviderKind::llm;
  std::string model;  // the most frequent request model; empty when none
  std::uint64_t attempts = 0;
  LatencyFit latency;                                        // llm: time to first token; tool: the attempt's latency
  double tokens_per_second = LlmConfig{}.tokens_per_second;  // the mock's default until fitted
  std::uint64_t slope_samples = 0;
  bool tokens_per_second_fitted = false;
  std::optional<std::int64_t> mean_output_tokens;  // llm; nullopt without successful attempts
  std::uint64_t output_samples = 0;
  bool embeddings = false;  // every attempt an embeddings call: no text is generated
  // llm: USD per million input and output tokens, the least-squares fit of the attempts'
  // recorded cost on their tokens (gen_ai.usage.cost, LiteLLM's response_cost); nullopt
  // without kMinPriceSamples attempts that record both, or when the fit is degenerate.
  std::optional<PricePerMTok> price;
  std::uint64_t price_samples = 0;
};
inline constexpr std::size_t kMinPriceSamples = 2;

struct ReplayFit {
  std::int64_t origin_ns = 0;    // trace time of scenario time 0
  std::int64_t duration_ns = 0;  // the last task's start, rounded up to a millisecond
  ArrivalFit arrivals;
  FaultFit faults;                        // windows clipped to the duration
  std::vector<FittedProvider> providers;  // sorted by name
  WorkloadFit workload;
  std::vector<ToolPolicyFit> policy;
  bool explicit_tools = false;  // a tool is named apart from its provider: write a `tools` block
};

// Requires at least one task (the caller says "no tasks" otherwise).
ReplayFit fit_replay(const TraceData& data, const Grouping& grouping);

}  // namespace squall::replay

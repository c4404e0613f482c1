// make_provider: builds a scenario's provider entry: the mock its spec names, wrapped in
// a CapacityProvider when the entry has a `capacity` block, and that in a ChaosProvider
// when the entry lists faults (chaos outermost: an injected fault never reaches the server).
#pragma once

#include <memory>

#include "engine/policy.hpp"
#include "engine/provider.hpp"
#include "engine/runtime/clock.hpp"
#include "mocks/capacity/capacity_provider.hpp"
#include "mocks/chaos/chaos_provider.hpp"
#include "mocks/corpus.hpp"
#include "mocks/provider_config.hpp"

namespace squall {

// A built provider and the random streams it draws from. Members are declared so that the
// provider is destroyed before the streams it refers to; moving keeps `chaos` valid (it
// points at the heap object `provider` owns).
struct BuiltProvider {
  std::unique_ptr<Rng> provider_rng;     // the mock's stream, "provider/<name>"
  std::unique_ptr<Rng> chaos_rng;        // the decorator's stream, "chaos/<name>"; null without faults
  std::unique_ptr<Provider> provider;    // the mock, or the ChaosProvider that owns it
  ChaosProvider* chaos = nullptr;        // the decorator inside `provider`; null without faults
  CapacityProvider* capacity = nullptr;  // the capacity layer inside `provider`; null without one

  // Faults injected so far, by kind; all zero without faults.
  FaultCounts injected_faults() const { return chaos != nullptr ? chaos->injected() : FaultCounts{}; }
};

// Builds `config`. A web_search spec needs `corpus` (its config.corpus file, loaded by the
// caller, which resolves paths and shares a corpus between providers), a vector_search
// spec `index` (built once per corpus by the caller, sim/corpora.hpp); other specs ignore
// them. Throws std::invalid_argument when a search spec gets a null corpus or index. The
// clock and scheduler must outlive the result. `series` sets the time windows of the capacity
// layer and of the chaos decorator's injected-fault counts (the recorder's). The chaos decorator's decision key is the
// first draw of the stream "chaos/<name>/decisions", a shared outage's that of "outage/<outage name>" (the same for
// every provider in it); `start_unix_seconds` is the scenario's start_time (ChaosSettings).
// `quota`: the buckets of the provider's quota group (config.quota_group), which must
// outlive the result; a member without a `capacity` block gets a capacity layer without
// limits of its own, so that it takes from them.
BuiltProvider make_provider(const ProviderConfig& config, std::shared_ptr<const Corpus> corpus, Clock& clock,
                            Scheduler& scheduler, const RngFactory& rngs,
                            std::shared_ptr<const VectorIndex> index = nullptr, CapacitySeriesOptions series = {},
                            std::int64_t start_unix_seconds = 0, QuotaBuckets* quota = nullptr);

}  // namespace squall

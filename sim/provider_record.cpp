#include "sim/provider_record.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mocks/capacity/capacity_provider.hpp"
#include "mocks/chaos/chaos_provider.hpp"
#include "reports/capacity_recovery.hpp"

namespace squall {
namespace {

void record_injected_faults(Recorder& recorder, const ProviderConfig& config, const BuiltProvider& built) {
  const FaultCounts counts = built.injected_faults();
  const ProviderKind type = describe(config).kind;
  for (std::size_t i = 0; i < kFaultKindCount; ++i) {
    const auto kind = static_cast<FaultKind>(i);
    if (fault_applies(kind, type)) {
      std::vector<std::uint64_t> by_window;
      if (built.chaos != nullptr) {
        for (const FaultCounts& window : built.chaos->injected_by_window()) by_window.push_back(window[i]);
      }
      recorder.set_injected_faults(config.name, to_string(kind), counts[i], std::move(by_window));
    }
    if (built.chaos != nullptr && built.chaos->cut_short()[i] != 0) {
      recorder.set_injected_faults_cut_short(config.name, to_string(kind), built.chaos->cut_short()[i]);
    }
  }
  if (built.chaos != nullptr) {
    const FaultPhaseCounts phases = built.chaos->injected_phases();
    for (std::size_t i = 0; i < kFaultPhaseCount; ++i) {
      recorder.set_injected_fault_phases(config.name, to_string(static_cast<FaultPhase>(i)), phases[i]);
    }
  }
}

// The report's form of what a capacity layer saw: its counters as they are, its level
// integrals as time-weighted means over each window.
CapacityReport capacity_report(std::string_view provider, const CapacityStats& stats) {
  const CapacityTotals& t = stats.totals();
  CapacityReport c;
  c.provider = std::string(provider);
  c.arrivals = t.arrivals;
  c.goodput = t.goodput;
  c.served = t.served;
  c.queued = t.queued;
  c.rate_limited_requests = t.rate_limited_requests;
  c.rate_limited_tokens = t.rate_limited_tokens;
  c.queue_full = t.queue_full;
  c.queue_timeouts = t.queue_timeouts;
  c.abandoned = t.abandoned;
  c.wasted_requests = t.wasted_requests;
  c.wasted_service = t.wasted_service;
  c.max_queue = t.max_queue;
  c.max_in_flight = t.max_in_flight;
  const auto window = static_cast<double>(stats.window());
  for (const CapacityWindow& w : stats.windows()) {
    c.windows.push_back(CapacityWindowRow{w.arrivals, w.goodput, w.rate_limited, w.rejected,
                                          static_cast<double>(w.queue_ns) / window, w.queue_max,
                                          static_cast<double>(w.in_flight_ns) / window, w.in_flight_max});
  }
  return c;
}

void record_capacity(Recorder& recorder, const ProviderConfig& config, CapacityProvider& capacity, Nanos duration) {
  capacity.finish(duration);
  CapacityReport report = capacity_report(config.name, capacity.stats());
  const std::vector<CapacityDrop>& drops = capacity.config().drops;
  if (!drops.empty()) {
    report.recovery =
        capacity_recovery(report.windows, recorder.window(), drops.front().from, drops.back().to, duration);
  }
  recorder.set_capacity(std::move(report));
}

}  // namespace

void record_provider(Recorder& recorder, const ProviderConfig& config, BuiltProvider& built, Nanos duration) {
  record_injected_faults(recorder, config, built);
  if (built.capacity != nullptr) record_capacity(recorder, config, *built.capacity, duration);
}

}  // namespace squall

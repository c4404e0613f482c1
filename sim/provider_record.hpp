// What a built provider's chaos and capacity layers counted, handed to the recorder at the
// end of a run: injected faults by kind (every kind the provider's type can meet, zero
// included), by window, by phase and cut short; and, with a `capacity` block, its counters
// and windows (CapacityReport) with the recovery after its drops. The simulator's World and
// live mode's LiveWorld both report through it, so a live run's report has the same
// sections as a simulated one.
#pragma once

#include "engine/runtime/time.hpp"
#include "mocks/make_provider.hpp"
#include "reports/recorder.hpp"
#include "sim/scenario.hpp"

namespace squall {

// `duration`: the run's (virtual) length; the capacity layer's level integrals end there
// (CapacityProvider::finish), so record a provider once, after the run.
void record_provider(Recorder& recorder, const ProviderConfig& config, BuiltProvider& built, Nanos duration);

}  // namespace squall

// Arrivals from the grouped tasks: the piecewise-constant rate of their start times by
// Bayesian Blocks (replay/bayesian_blocks.hpp; Scargle et al. 2013), written as the
// scenario's own arrival terms (sim/workload_config.hpp, the `workload.arrivals` block of
// docs/scenario-format.md): a Poisson process at a base rate plus bursts [from, to) at
// their own rates. Only tasks are arrivals (replay/grouping.hpp says why).
//
// The base rate is the duration-weighted median of the block rates (the rate the trace
// spends most of its time near, robust to a short surge); every block at another rate is
// a burst, so the written schedule reproduces the fitted rate exactly. A block of rate 0
// (the binned form's empty stretch) is a burst at the loader's least rate, 1e-6 per second.
// Times are scenario time: trace time minus `origin_ns`.
#pragma once

#include <cstdint>
#include <vector>

#include "replay/bayesian_blocks.hpp"
#include "replay/grouping.hpp"
#include "sim/workload_config.hpp"

namespace squall::replay {

struct ArrivalFit {
  ArrivalConfig arrivals;         // poisson, rate_per_s, bursts (scenario time)
  std::vector<RateBlock> blocks;  // the fitted blocks (trace time), the bursts' provenance
  std::uint64_t tasks = 0;
  bool binned = false;
  double ncp_prior = 0;
};

// The loader's least rate (sim/scenario/workload_reader.hpp).
inline constexpr double kLeastRatePerS = 1e-6;

ArrivalFit fit_arrivals(const Grouping& grouping, std::int64_t origin_ns, const BayesianBlocksOptions& options = {});

}  // namespace squall::replay

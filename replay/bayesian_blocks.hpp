// Bayesian Blocks for event data: the optimal piecewise-constant rate of a point process
// (Scargle, Norris, Jackson and Chiang, "Studies in Astronomical Time Series Analysis. VI.
// Bayesian Block Representations", ApJ 764:167, 2013). The exact O(N^2) dynamic program of
// their section 3 over N cells with the event fitness of their eq. 19,
// N_k (ln N_k - ln T_k), and the prior on the number of blocks of their eq. 21,
// ncp_prior = 4 - ln(73.53 p0 N^-0.478), for a false-positive rate p0 (default 0.05).
//
// Cells: with at most `max_cells` distinct event times, one cell per distinct time (its
// count the events at that time), bounded by the midpoints between neighbours and by the
// first and last event (their section 3.1). With more, the span is cut into `max_cells`
// equal bins (the binned form of their section 3.2), so the work is at most max_cells^2
// (default 10,000 cells: 10^8 steps) whatever the number of events; change points are then
// bin edges. The prior takes N as the number of cells.
//
// Input: event times in integer nanoseconds, sorted ascending (std::invalid_argument
// otherwise). Output: blocks covering [first event, last event], in order; empty input
// gives no block, a single distinct time one block of zero width and rate 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace squall::replay {

struct BayesianBlocksOptions {
  double p0 = 0.05;               // false-positive rate of a change point (eq. 21)
  std::size_t max_cells = 10000;  // above it, the binned form (>= 2)
};

struct RateBlock {
  std::int64_t from_ns = 0;  // inclusive
  std::int64_t to_ns = 0;    // exclusive, except the last block's, which holds the last event
  std::uint64_t events = 0;
  double rate_per_s = 0;  // events / width; 0 for a zero-width block
};

struct BayesianBlocks {
  std::vector<RateBlock> blocks;
  std::size_t cells = 0;  // cells the program ran on
  bool binned = false;    // true when the binned form was used
  double ncp_prior = 0;   // the prior used (eq. 21 with N = cells)
};

// eq. 21 of Scargle et al. 2013: 4 - ln(73.53 p0 N^-0.478).
double ncp_prior_events(std::size_t cells, double p0);

BayesianBlocks bayesian_blocks(std::span<const std::int64_t> times_ns, const BayesianBlocksOptions& options = {});

}  // namespace squall::replay

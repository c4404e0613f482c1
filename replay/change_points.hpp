// Change points of a Bernoulli series (an attempt failed or not, in time order) by PELT
// (Killick, Fearnhead and Eckley, "Optimal detection of changepoints with a linear
// computational cost", JASA 107:1590, 2012): the exact minimiser of the sum of segment
// costs plus a penalty per change, with their pruning rule (K = 0, valid for a cost that
// is a negative log-likelihood maximised per segment).
//
// Cost of a segment of n trials with k successes ("failures" here), twice its negative
// binomial log-likelihood at the maximum-likelihood rate k/n:
//   -2 [k ln(k/n) + (n - k) ln(1 - k/n)],  0 ln 0 = 0.
// Penalty: BIC (Schwarz), (d + 1) ln N per change with d = 1 parameter (the rate) that
// changes, as the R changepoint package's "BIC" penalty for a change in one parameter
// (Killick and Eckley, J. Stat. Software 58(3), 2014): 2 ln N for N trials.
// Segments are at least `min_size` trials long (default 1).
//
// The same with more than two outcomes (pelt_categorical): the multinomial cost
// -2 sum_c m_c ln(m_c / n) over the category counts m_c of a segment, and the BIC penalty
// K ln N with K the number of categories that occur (K - 1 shares change, plus the
// location), which is 2 ln N for a Bernoulli series: pelt_bernoulli is its K = 2 case.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace squall::replay {

struct PeltOptions {
  // The penalty per change; negative: BIC, K ln N (2 ln N for a Bernoulli series).
  double penalty = -1;
  std::size_t min_size = 1;
};

// The index of the first trial of every segment after the first, ascending (empty: no
// change). `trials[i]` is true when trial i is a "success" of the modelled event.
std::vector<std::size_t> pelt_bernoulli(const std::vector<bool>& trials, const PeltOptions& options = {});

// Categories are small integers 0..K-1 (at most 256).
std::vector<std::size_t> pelt_categorical(const std::vector<std::uint8_t>& categories, const PeltOptions& options = {});

// The cost above of k events in n trials.
double bernoulli_cost(double k, double n);

}  // namespace squall::replay

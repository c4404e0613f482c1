// pass^k: the probability that all k independent runs of a scenario pass, estimated from
// n runs (seeds) of which c passed as C(c, k) / C(n, k), the unbiased estimator of
// tau-bench (Yao et al., "tau-bench: A Benchmark for Tool-Agent-User Interaction in
// Real-World Domains", 2024, section 4). pass^1 is the plain pass rate c / n; pass^k falls
// as k grows unless every run passed, which is what a flaky policy hides at k = 1.
#pragma once

#include <cstddef>
#include <vector>

namespace squall {

// How many k pass_hat_k reports at most (k = 1..min(n, kMaxPassK)).
inline constexpr std::size_t kMaxPassK = 8;

// C(c, k) / C(n, k) for k = 1..min(n, max_k), element k-1 for k. Both binomials are
// computed exactly in 128-bit integers (n <= 2^16 keeps every intermediate product of
// C(n, 8) below 2^116), then divided once as doubles, so no factorial ever overflows
// and the only rounding is the final division's. Requires c <= n and n <= 2^16 (asserted);
// n = 0 gives an empty vector.
std::vector<double> pass_hat_k(std::size_t n, std::size_t c, std::size_t max_k = kMaxPassK);

}  // namespace squall

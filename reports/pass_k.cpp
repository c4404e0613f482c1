#include "reports/pass_k.hpp"

#include <algorithm>
#include <cassert>

namespace squall {
namespace {

__extension__ using Wide = unsigned __int128;

// C(n, k) by the multiplicative formula: C(n, i + 1) = C(n, i) * (n - i) / (i + 1), each
// step exact (C(n, i) * (n - i) is divisible by i + 1). For n <= 2^16 and k <= 8 the
// largest product, C(n, 7) * (n - 7), stays below 2^16 * 2^112 / 5040 < 2^116.
Wide binomial(std::size_t n, std::size_t k) {
  if (k > n) return 0;
  Wide result = 1;
  for (std::size_t i = 0; i < k; ++i) result = result * static_cast<Wide>(n - i) / static_cast<Wide>(i + 1);
  return result;
}

}  // namespace

std::vector<double> pass_hat_k(std::size_t n, std::size_t c, std::size_t max_k) {
  assert(c <= n && n <= (std::size_t{1} << 16));
  std::vector<double> result;
  const std::size_t last = std::min(n, max_k);
  result.reserve(last);
  for (std::size_t k = 1; k <= last; ++k) {
    result.push_back(static_cast<double>(binomial(c, k)) / static_cast<double>(binomial(n, k)));
  }
  return result;
}

}  // namespace squall

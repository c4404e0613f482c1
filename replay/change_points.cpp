#include "replay/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace squall::replay {
namespace {

// Counts per category among the first t trials, for t = 0..n, in one array of (n + 1) * k.
struct Cumulative {
  std::size_t k = 0;
  std::vector<double> counts;

  double cost(std::size_t s, std::size_t t) const {
    const double n = static_cast<double>(t - s);
    double sum = 0;
    for (std::size_t c = 0; c < k; ++c) {
      const double m = counts[t * k + c] - counts[s * k + c];
      if (m > 0) sum += m * std::log(m / n);
    }
    return -2.0 * sum;
  }
};

// The PELT recursion over the segment cost `cum.cost` with penalty `beta` per change.
std::vector<std::size_t> pelt(const Cumulative& cum, std::size_t n, double beta, std::size_t min_size) {
  // best[t]: the least penalised cost of the first t trials; previous[t]: its last change.
  std::vector<double> best(n + 1, std::numeric_limits<double>::infinity());
  std::vector<std::size_t> previous(n + 1, 0);
  best[0] = -beta;
  std::vector<std::size_t> candidates;  // ascending, so ties keep the earliest change
  for (std::size_t t = min_size; t <= n; ++t) {
    // The change t - min_size becomes possible: its last segment is min_size long, and
    // the trials before it are none or at least min_size.
    const std::size_t s_new = t - min_size;
    if (s_new == 0 || s_new >= min_size) candidates.push_back(s_new);
    double top = std::numeric_limits<double>::infinity();
    for (std::size_t s : candidates) {
      const double value = best[s] + cum.cost(s, t) + beta;
      if (value < top) {
        top = value;
        previous[t] = s;
      }
    }
    best[t] = top;
    // Pruning (their eq. 4 with K = 0): s never again optimal once best[s] + cost(s, t) > best[t].
    std::erase_if(candidates, [&](std::size_t s) { return best[s] + cum.cost(s, t) > best[t]; });
  }
  std::vector<std::size_t> changes;
  for (std::size_t t = previous[n]; t > 0; t = previous[t]) changes.push_back(t);
  std::reverse(changes.begin(), changes.end());
  return changes;
}

}  // namespace

double bernoulli_cost(double k, double n) {
  if (n <= 0 || k <= 0 || k >= n) return 0;
  const double p = k / n;
  return -2.0 * (k * std::log(p) + (n - k) * std::log1p(-p));
}

std::vector<std::size_t> pelt_categorical(const std::vector<std::uint8_t>& categories, const PeltOptions& options) {
  const std::size_t n = categories.size();
  const std::size_t min_size = std::max<std::size_t>(options.min_size, 1);
  if (n < 2 * min_size) return {};
  Cumulative cum;
  cum.k = 1 + *std::max_element(categories.begin(), categories.end());
  cum.counts.assign((n + 1) * cum.k, 0);
  std::vector<bool> seen(cum.k, false);
  for (std::size_t i = 0; i < n; ++i) {
    std::copy_n(cum.counts.begin() + static_cast<std::ptrdiff_t>(i * cum.k), cum.k,
                cum.counts.begin() + static_cast<std::ptrdiff_t>((i + 1) * cum.k));
    cum.counts[(i + 1) * cum.k + categories[i]] += 1;
    seen[categories[i]] = true;
  }
  const auto occurring = static_cast<double>(std::max<std::ptrdiff_t>(std::count(seen.begin(), seen.end(), true), 2));
  const double beta = options.penalty >= 0 ? options.penalty : occurring * std::log(static_cast<double>(n));
  return pelt(cum, n, beta, min_size);
}

std::vector<std::size_t> pelt_bernoulli(const std::vector<bool>& trials, const PeltOptions& options) {
  std::vector<std::uint8_t> categories(trials.begin(), trials.end());
  return pelt_categorical(categories, options);
}

}  // namespace squall::replay

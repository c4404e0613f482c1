#include "replay/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace squall::replay {

double bernoulli_cost(double k, double n) {
  if (n <= 0 || k <= 0 || k >= n) return 0;
  const double p = k / n;
  return -2.0 * (k * std::log(p) + (n - k) * std::log1p(-p));
}

std::vector<std::size_t> pelt_bernoulli(const std::vector<bool>& trials, const PeltOptions& options) {
  const std::size_t n = trials.size();
  const std::size_t min_size = std::max<std::size_t>(options.min_size, 1);
  if (n < 2 * min_size) return {};
  const double beta = options.penalty >= 0 ? options.penalty : 2.0 * std::log(static_cast<double>(n));
  // cumulative[t] = events among the first t trials
  std::vector<double> cumulative(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) cumulative[i + 1] = cumulative[i] + (trials[i] ? 1 : 0);
  auto cost = [&](std::size_t s, std::size_t t) {
    return bernoulli_cost(cumulative[t] - cumulative[s], static_cast<double>(t - s));
  };
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
      const double value = best[s] + cost(s, t) + beta;
      if (value < top) {
        top = value;
        previous[t] = s;
      }
    }
    best[t] = top;
    // Pruning (their eq. 4 with K = 0): s never again optimal once best[s] + cost(s, t) > best[t].
    std::erase_if(candidates, [&](std::size_t s) { return best[s] + cost(s, t) > best[t]; });
  }
  std::vector<std::size_t> changes;
  for (std::size_t t = previous[n]; t > 0; t = previous[t]) changes.push_back(t);
  std::reverse(changes.begin(), changes.end());
  return changes;
}

}  // namespace squall::replay

#include "reports/trend.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace squall {

std::size_t nearest_rank(double p, std::size_t n) {
  // As HdrHistogram: nudge p down by one ulp so that p * n / 100 landing one ulp above an
  // integer (e.g. through 99.9's binary representation) does not round up to the next rank.
  const double nudged = std::nextafter(p, -std::numeric_limits<double>::infinity());
  const double rank = std::ceil(nudged * static_cast<double>(n) / 100.0);
  if (!(rank >= 1)) return 1;
  if (rank >= static_cast<double>(n)) return n;
  return static_cast<std::size_t>(rank);
}

Trend::Trend(std::vector<double> samples) : sorted_(std::move(samples)) { std::sort(sorted_.begin(), sorted_.end()); }

double Trend::percentile(double p) const {
  if (sorted_.empty()) return 0;
  return sorted_[nearest_rank(p, sorted_.size()) - 1];
}

double Trend::min() const { return sorted_.empty() ? 0 : sorted_.front(); }

double Trend::max() const { return sorted_.empty() ? 0 : sorted_.back(); }

double Trend::mean() const {
  if (sorted_.empty()) return 0;
  double sum = 0;
  for (double x : sorted_) sum += x;
  return sum / static_cast<double>(sorted_.size());
}

}  // namespace squall

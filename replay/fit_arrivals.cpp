#include "replay/fit_arrivals.hpp"

#include <algorithm>
#include <utility>

namespace squall::replay {
namespace {

// The rate at which the blocks' cumulative width, taken by rate, first reaches half the
// total width; ties in rate keep the first block's.
double weighted_median_rate(const std::vector<RateBlock>& blocks) {
  std::vector<std::pair<double, std::int64_t>> by_rate;
  std::int64_t total = 0;
  for (const RateBlock& b : blocks) {
    by_rate.emplace_back(b.rate_per_s, b.to_ns - b.from_ns);
    total += b.to_ns - b.from_ns;
  }
  std::stable_sort(by_rate.begin(), by_rate.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::int64_t running = 0;
  for (const auto& [rate, width] : by_rate) {
    running += width;
    if (2 * running >= total) return rate;
  }
  return by_rate.back().first;
}

}  // namespace

ArrivalFit fit_arrivals(const Grouping& grouping, std::int64_t origin_ns, const BayesianBlocksOptions& options) {
  std::vector<std::int64_t> starts;
  starts.reserve(grouping.tasks.size());
  for (const ReplayTask& task : grouping.tasks) starts.push_back(task.start_ns);
  std::sort(starts.begin(), starts.end());
  const BayesianBlocks fit = bayesian_blocks(starts, options);
  ArrivalFit out;
  out.tasks = starts.size();
  out.blocks = fit.blocks;
  out.binned = fit.binned;
  out.ncp_prior = fit.ncp_prior;
  out.arrivals.process = ArrivalProcess::poisson;
  // A lone block of zero width (one task, or all at one instant) says nothing of a rate.
  const bool has_rate = !fit.blocks.empty() && fit.blocks.front().to_ns > fit.blocks.front().from_ns;
  if (!has_rate) return out;
  out.arrivals.rate_per_s = std::max(weighted_median_rate(fit.blocks), kLeastRatePerS);
  for (const RateBlock& b : fit.blocks) {
    if (b.rate_per_s == out.arrivals.rate_per_s || b.to_ns == b.from_ns) continue;
    out.arrivals.bursts.push_back({b.from_ns - origin_ns, b.to_ns - origin_ns, std::max(b.rate_per_s, kLeastRatePerS)});
  }
  return out;
}

}  // namespace squall::replay

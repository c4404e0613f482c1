#include "reports/latency_histogram.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace squall {
namespace {

constexpr std::uint64_t kMaxRanks = 65'536;

// The smallest 1, 2 or 5 x 10^k with which kMaxLatencyBuckets buckets reach past `max`.
Nanos bucket_width(Nanos max) {
  for (Nanos scale = 1;; scale *= 10) {
    for (const Nanos step : {1, 2, 5}) {
      if (static_cast<std::uint64_t>(max / (step * scale)) < kMaxLatencyBuckets) return step * scale;
    }
  }
}

void count(LatencyHistogram& h, std::int64_t sample, std::uint64_t n) {
  const auto i = static_cast<std::size_t>(std::max<std::int64_t>(sample, 0) / h.bucket);
  h.counts[std::min(i, h.counts.size() - 1)] += n;
}

void count_histogram(LatencyHistogram& h, const LogHistogram& part) {
  const std::uint64_t c = part.count();
  const std::uint64_t k = std::min(c, kMaxRanks);
  std::vector<std::uint64_t> ranks(k);
  for (std::uint64_t i = 0; i < k; ++i) ranks[i] = std::min(c - 1, (2 * i + 1) * c / (2 * k));
  std::vector<std::int64_t> values(k);
  part.values_at_ranks(ranks, values);
  for (std::uint64_t i = 0; i < k; ++i) count(h, values[i], (i + 1) * c / k - i * c / k);
}

}  // namespace

LatencyHistogram latency_histogram(std::span<const Trend::Part> parts) {
  LatencyHistogram h;
  bool any = false;
  std::int64_t max = 0;
  for (const Trend::Part& p : parts) {
    if (p.size() == 0) continue;
    any = true;
    if (p.histogram != nullptr) {
      max = std::max(max, p.histogram->max());
    } else {
      max = std::max(max, *std::max_element(p.samples.begin(), p.samples.end()));
    }
  }
  if (!any) return h;
  h.bucket = bucket_width(max);
  h.counts.assign(static_cast<std::size_t>(max / h.bucket) + 1, 0);
  for (const Trend::Part& p : parts) {
    if (p.histogram != nullptr) {
      if (p.histogram->count() > 0) count_histogram(h, *p.histogram);
    } else {
      for (const std::int64_t s : p.samples) count(h, s, 1);
    }
  }
  return h;
}

}  // namespace squall

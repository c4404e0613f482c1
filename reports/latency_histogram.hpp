// The end-to-end task latency histogram of the HTML report (Report::latency_histogram):
// equal buckets from 0, their width the smallest 1, 2 or 5 x 10^k ns with which at most
// kMaxLatencyBuckets buckets cover the longest sample.
#pragma once

#include <cstddef>
#include <span>

#include "reports/report.hpp"
#include "reports/trend.hpp"

namespace squall {

inline constexpr std::size_t kMaxLatencyBuckets = 40;

// The samples of `parts` (ns, negative ones counted in bucket 0) bucketed; empty without
// samples. Exact parts are counted sample by sample; a histogram part (a template's
// samples past SampleLog::kExactSamples) is placed by at most 65 536 evenly spaced ranks,
// each carrying its share of the part's count, so the counts still sum to the samples.
LatencyHistogram latency_histogram(std::span<const Trend::Part> parts);

}  // namespace squall

// The seed summary (reports/seed_summary.hpp) for people: the terminal summary of
// `run --seeds` and the Markdown of `run --seeds --report markdown=PATH`. Terminal, e.g.:
//   seeds: 7..10 (4 seeds), 3 passed every threshold
//     ✓ seed 7 ....: tasks 120  task_success 0.975  p99 840.5 ms  cost $0.41
//     ✗ seed 8 ....: tasks 118  task_success 0.93  p99 910 ms  cost $0.44  failed: task_success rate>=0.95
//   thresholds over 4 seeds
//     ✓ task_success rate>=0.95 ...: 3/4 seeds (required >=0.7)
//     ✗ task_latency p(99)<20s ....: 3/4 seeds (required on every seed), failed on seed 8
//   pass^k: k=1 0.75  k=2 0.5  k=3 0.25  k=4 0
// With more than kListedSeeds seeds, only the failed seeds get a line, then "N other seeds
// passed". Numbers are rounded as the JSON report rounds them.
#pragma once

#include <cstddef>
#include <string>

#include "reports/seed_summary.hpp"

namespace squall {

inline constexpr std::size_t kListedSeeds = 20;

// `seeds` is how --seeds named them ("7..10"). `color` colours the marks (green ✓, red ✗).
std::string seed_summary_text(const SeedSummary& summary, const std::string& seeds, bool color);

// "task_success rate>=0.95: 3/4 seeds (required >=0.7)", the figure of one threshold.
std::string pass_rate_line(const SeedSummary& summary, std::size_t threshold);

// "k=1 0.75  k=2 0.5  ..." (empty for no seeds).
std::string pass_k_line(const SeedSummary& summary);

// A Markdown section for a job summary: a heading with the verdict, a table of the
// thresholds' pass rates, the pass^k line and the failed seeds.
std::string seed_summary_markdown(const std::string& scenario, const SeedSummary& summary, const std::string& seeds);

}  // namespace squall

// A sweep's JSON files (docs/sweeps.md, "JSON"):
//   - the report (`squall sweep --report json=PATH` or `--out PATH`), squall_sweep_version 1:
//     the sweep's identity, seeds, baseline, metrics and objectives, and per variant its
//     statistics (reports/sweep_stats.hpp), its place on the Pareto front and its runs;
//   - a partial result (`squall sweep --shard i/n --out PATH`),
//     squall_sweep_partial_version 1: the sweep's header and the shard's runs with their
//     exact values, which `squall merge` combines into the whole sweep's result
//     (reports/sweep_merge.hpp).
// Keys in a fixed order, statistics rounded to 6 decimals (reports/rounding.hpp), run
// values as the run's JSON report has them; two-space indentation and a final newline.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "reports/sweep_result.hpp"
#include "reports/sweep_stats.hpp"

namespace squall {

std::string sweep_json_text(const SweepResult& result, const SweepAnalysis& analysis);

// `sweep_file_from_partial`: the sweep file's path relative to the partial's own directory
// (absolute when there is no such path), so that `squall merge`, run from any directory,
// finds the sweep's inputs by the partial's place, as every path a file names is resolved.
std::string partial_json_text(const SweepResult& result, std::size_t shard_index, std::size_t shard_count,
                              const std::string& sweep_file_from_partial);

}  // namespace squall

// A sweep's JSON files (docs/sweeps.md, "JSON"):
//   - the report (`squall sweep --report json=PATH` or `--out PATH`), squall_sweep_version 1:
//     the sweep's identity, seeds, baseline, metrics and objectives, and per variant its
//     statistics (reports/sweep_stats.hpp), its place on the Pareto front and its runs;
//   - a partial result (`squall sweep --shard i/n --out PATH`),
//     squall_sweep_partial_version 1: the sweep's header and the shard's runs with their
//     exact values, which `squall merge` combines into the whole sweep's result.
// Keys in a fixed order, statistics rounded to 6 decimals (reports/rounding.hpp), run
// values as the run's JSON report has them; two-space indentation and a final newline.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/sweep_result.hpp"
#include "reports/sweep_stats.hpp"

namespace squall {

std::string sweep_json_text(const SweepResult& result, const SweepAnalysis& analysis);

// `sweep_file_from_partial`: the sweep file's path relative to the partial's own directory
// (absolute when there is no such path), so that `squall merge`, run from any directory,
// finds the sweep's inputs by the partial's place, as every path a file names is resolved.
std::string partial_json_text(const SweepResult& result, std::size_t shard_index, std::size_t shard_count,
                              const std::string& sweep_file_from_partial);

// The most shards a sweep is cut into (`--shard i/n`, n at most this).
inline constexpr std::size_t kMaxShards = 100000;

// A partial file's name (for messages) and its document, as parsed by the caller (the CLI
// parses strictly: cli/output_file.hpp).
struct PartialFile {
  std::string file;
  nlohmann::ordered_json doc;
};

// Combines the partial results of every shard of one sweep, in any order, into the
// sweep's result (runs variant-major, then seed order). Throws std::runtime_error:
//   a.json: not a squall sweep partial result: no squall_sweep_partial_version
//   b.json: a shard of another sweep than a.json (name, scenario, variants, policies,
//           seeds, metrics or squall version differ)
//   b.json: shard 2 of 3, but a.json is a shard of 4
//   b.json: shard 2 of 3 again (also a.json)
//   missing shard 3 of 3
//   b.json: /shard/index: expected an integer in [1, 3], got 4
//   a.json: /sweep/metrics/0: expected a headline metric's name, got "bogus"
//   a.json: /sweep/baseline: expected the name of one of the variants, got "nobody"
//   b.json: /runs/0/values/2: expected null or a number, got "x"
//   b.json: /runs/0/seed: expected one of the sweep's seeds (100..105), got 12345
//   b.json: /runs/4: the run of variant 1 seed 101 belongs to shard 1 of 2, not 2
// Every value of a partial is checked before it is used, the header's (names, seeds,
// metrics, objectives, variants, digests) as the runs': the message names the file, the
// JSON Pointer, what was expected and what was found.
SweepResult merge_partials(const std::vector<PartialFile>& partials);

}  // namespace squall

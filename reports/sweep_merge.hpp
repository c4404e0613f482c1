// `squall merge`: reads the partial results that `squall sweep --shard i/n` writes
// (reports/sweep_json.hpp partial_json_text) and combines them into the sweep's result.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/sweep_result.hpp"

namespace squall {

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

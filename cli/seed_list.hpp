// `--seeds` of `run` and `ci`: which seeds to run, as a count, a list or a range:
//   --seeds 8          8 seeds from the first seed (--seed, or the scenario's): s, s+1, ..., s+7
//   --seeds 1,5,9      these seeds, in this order
//   --seeds 100..107   100 to 107, both included (Rust's and Ruby's inclusive `..`)
// At most kMaxSeeds seeds: every seed's report is kept until the summary is written, so the
// cap bounds memory (a few megabytes per report).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace squall::cli {

inline constexpr std::size_t kMaxSeeds = 10000;

struct SeedList {
  std::vector<std::uint64_t> seeds;  // in run order, no repeats
  bool counted = false;              // written as a count, so it starts at --seed
};

// Parses `text`; a count starts at `first`. Errors (the message of `squall: <message>`):
//   --seeds expects a count (8), a list (1,5,9) or a range (100..107), got "abc"
//   --seeds 0: expected at least one seed
//   --seeds 5..3: the range's end is below its start
//   --seeds 20000: at most 10000 seeds, got 20000
//   --seeds 1..20000: at most 10000 seeds, got 20000
//   --seeds 1,5,1: seed 1 is listed twice
//   --seeds 8: seeds from 18446744073709551610 run past the largest seed, 18446744073709551615
std::variant<SeedList, std::string> parse_seed_list(std::string_view text, std::uint64_t first);

// "7..14" for consecutive seeds, "1,5,9" otherwise (the first 8, then ",..."), as --seeds
// takes them, for the summary's first line.
std::string describe_seeds(const std::vector<std::uint64_t>& seeds);

}  // namespace squall::cli

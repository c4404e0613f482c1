// `squall shrink SCENARIO [--policy FILE] [--seed N] [--threshold METRIC] [--out FILE]`: a
// smaller fault schedule that still fails the thresholds the scenario fails (all of them, or
// those of METRIC; sim/shrink.hpp), written as a scenario
// (default: STEM.shrunk.json in the current directory) whose description says what was
// removed, with the seed set so that `squall run OUT [--policy FILE]` reproduces the failure.
// Exit 0 when written; 2 on bad input, an output that would replace an input, or a run that
// fails no threshold (nothing to shrink).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace squall::cli {

struct ShrinkOptions {
  std::filesystem::path scenario;
  std::optional<std::filesystem::path> policy;
  std::optional<std::uint64_t> seed;
  std::optional<std::filesystem::path> out;
  std::optional<std::string> threshold;  // --threshold METRIC: keep only its thresholds failing
};

int shrink_command(const ShrinkOptions& options);

}  // namespace squall::cli

// `squall replay TRACE...`: reads production traces (OTLP JSON in either form, LiteLLM
// StandardLoggingPayload JSONL), groups their attempts into logical calls and tasks
// (replay/grouping.hpp), and prints what it found: per file what was read and every
// irregularity counted, then tasks, calls and attempts, and attempts by provider and
// outcome, then the fits of cli/replay_fit_print.hpp (arrivals, fault windows, latency).
// With --out-dir, writes them as scenario and policy files and calibrates them
// (cli/replay_out_dir.hpp).
// Exit 0, 1 when calibration fails, or 2 with the reader's message (file, line or span, field) for a malformed trace.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace squall::cli {

struct ReplayOptions {
  std::vector<std::filesystem::path> traces;
  // "otlp", "litellm", or "auto": otlp when "resourceSpans" appears in the file's first
  // 4 KiB, litellm otherwise.
  std::string format = "auto";
  std::optional<std::filesystem::path> out_dir;  // --out-dir: write the fitted files here
  std::size_t calibration_seeds = 20;            // seeds of the calibration runs
  std::size_t jobs = 0;                          // calibration runs at once; 0: one per hardware thread
  std::optional<std::filesystem::path> policy;   // --policy: the counterfactual policy file (with out_dir)
};

int replay_command(const ReplayOptions& options);

}  // namespace squall::cli

// `squall replay TRACE...`: reads production traces (OTLP JSON in either form, LiteLLM
// StandardLoggingPayload JSONL), groups their attempts into logical calls and tasks
// (replay/grouping.hpp), and prints what it found: per file what was read and every
// irregularity counted, then tasks, calls and attempts, and attempts by provider and
// outcome, then the fits of cli/replay_fit_print.hpp (arrivals, fault windows, latency).
// Writing them as a scenario file is not built yet (docs/replay.md).
// Exit 0, or 2 with the reader's message (file, line or span, field) for a malformed trace.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace squall::cli {

struct ReplayOptions {
  std::vector<std::filesystem::path> traces;
  // "otlp", "litellm", or "auto": otlp when "resourceSpans" appears in the file's first
  // 4 KiB, litellm otherwise.
  std::string format = "auto";
};

int replay_command(const ReplayOptions& options);

}  // namespace squall::cli

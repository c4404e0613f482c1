// Checks on `squall run --out FILE` made before the run, so that a bad target is a usage
// error (exit 2) and nothing is written.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace squall::cli {

// The path the report should be renamed onto: `out` itself, or the file a symbolic link at
// `out` points to (so the link survives and its target gets the report).
std::filesystem::path resolve_output(const std::filesystem::path& out);

// Why `out` must not receive the report, or nullopt when it may: a target in a directory
// that does not exist, an existing target that
// is not a regular file (a directory, a device such as /dev/null, a FIFO: renaming onto
// it would replace it), or a target that is one of the run's inputs (the scenario, the
// policy file, a corpus), which the report would destroy.
std::optional<std::string> output_problem(const std::filesystem::path& out,
                                          const std::vector<std::filesystem::path>& inputs);

}  // namespace squall::cli

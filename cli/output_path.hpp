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

// The file a write to `out` ends up in, for comparing two outputs: links followed, the
// path made absolute and normal (the file need not exist yet).
std::filesystem::path output_identity(const std::filesystem::path& out);

// How a file written at `from` names `file`: its path relative to `from`'s directory, both
// made absolute with their links followed, or `file` made absolute when no relative path
// exists; a reader resolving it against its own directory finds `file` from anywhere.
std::filesystem::path path_from_directory_of(const std::filesystem::path& from, const std::filesystem::path& file);

// Why `out` must not receive the report, or nullopt when it may: a target in a directory
// that does not exist (`directory "a/b" does not exist`) or under a file that is not a
// directory (`"f" is not a directory` for f/x.json), an existing target that
// is not a regular file (a directory, a device such as /dev/null, a FIFO: renaming onto
// it would replace it), an existing target without any write permission (read-only:
// renaming would replace it all the same), a path into /dev or /proc, or through a link into them
// (/dev/stdout is /proc/self/fd/1, which names whatever the process writes to: renaming
// onto it would replace a CI log with the report), or a target that is one of the run's
// inputs (the scenario, the policy file, a corpus), which the report would destroy. The
// writer's temporary file is created and removed, so that whatever else would stop it
// (a name too long with the temporary suffix, a read-only file system, /sys) is found
// now: `cannot write "x.csv": cannot create a temporary file in ".": File name too long`.
std::optional<std::string> output_problem(const std::filesystem::path& out,
                                          const std::vector<std::filesystem::path>& inputs);

}  // namespace squall::cli

// Atomic file replacement for report writers: nothing is ever written half-way (DESIGN
// section 7, exit code 2: "nothing written half-way").
#pragma once

#include <filesystem>
#include <string_view>

namespace squall {

// Writes `content` to a new temporary file in `target`'s directory (mkstemp, so that
// concurrent writers never share one), flushes it to disk, gives it mode 0644 and renames
// it over `target`: readers see the old file or the new one, never a partial one
// (rename(2) is atomic within a file system, hence the same directory).
// Throws std::runtime_error naming the path and the system's reason on any failure, after
// removing the temporary file, e.g.
//   cannot write "out/report.json": cannot create a temporary file in "out": No such file or directory
void write_file_atomic(const std::filesystem::path& target, std::string_view content);

}  // namespace squall

// The one-line repro command a failing run ends with (DESIGN section 3).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cli/commands.hpp"

namespace squall::cli {

// `word` quoted for a POSIX shell: unchanged when it holds only characters no shell treats
// specially, otherwise in single quotes with each ' written as '\''.
std::string shell_quote(std::string_view word);

// "<program> run <scenario> --seed <seed> [--policy <file>]", with the program as it was
// invoked (e.g. build/release/squall) and every word shell-quoted, so the line can be pasted
// into a terminal as it is.
std::string repro_command(const RunOptions& options, std::uint64_t seed);

}  // namespace squall::cli

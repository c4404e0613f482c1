// What the commands' lines on a terminal share. Whether output gets ANSI colours: only on
// a terminal, and never when the user opted out (https://no-color.org: NO_COLOR set to a
// non-empty value) or the terminal cannot show them (TERM=dumb). CI logs are files or
// pipes, so they never get escape codes.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace squall::cli {

// Decides from `stream` being a terminal and the environment values given (null when the
// variable is unset), so that tests can pass their own.
bool use_color(bool is_terminal, const char* no_color, const char* term);

// Whether `stream` is a terminal (isatty(3)).
bool is_terminal(std::FILE* stream);

// use_color() for `stream` and this process's environment.
bool use_color(std::FILE* stream);

// A count and its noun, plural but for one: "1 job", "2 jobs" (nouns whose plural is -s).
std::string counted(std::size_t n, std::string_view noun);

}  // namespace squall::cli

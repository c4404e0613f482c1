#include "cli/standard_output.hpp"

#include <cerrno>
#include <cstdio>
#include <system_error>

#include <fmt/core.h>

#include "cli/commands.hpp"

namespace squall::cli {

bool standard_output_failed() { return std::ferror(stdout) != 0; }

int report_standard_output_failure(int error_number) {
  if (error_number == 0) {
    fmt::print(stderr, "squall: write error on standard output\n");
  } else {
    fmt::print(stderr, "squall: write error on standard output: {}\n",
               std::error_code(error_number, std::generic_category()).message());
  }
  // What stayed in the buffer is dropped: exit would try, and fail, to write it again.
  std::clearerr(stdout);
  return kExitBadInput;
}

int finish_standard_output(int code) {
  errno = 0;
  if (std::fflush(stdout) == 0 && !standard_output_failed()) return code;
  return report_standard_output_failure(errno);
}

}  // namespace squall::cli

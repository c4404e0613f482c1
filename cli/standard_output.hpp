// Output that did not reach standard output is an error, as coreutils treat it (a full
// disk, /dev/full, a closed file): the command's exit code becomes 2 and stderr says
//   squall: write error on standard output: No space left on device
// instead of a success whose output was lost.
#pragma once

namespace squall::cli {

// Flushes stdout; returns `code` when everything printed reached it, else reports the
// failure and returns 2 (kExitBadInput).
int finish_standard_output(int code);

// Whether a write to stdout has failed (ferror): an exception thrown while printing
// (fmt throws std::system_error) is then this failure, reported with `error_number`, the
// system's reason (none when 0: a write that failed before the last flush left none).
bool standard_output_failed();
int report_standard_output_failure(int error_number);

}  // namespace squall::cli

// What an interrupted squall does: Ctrl-C (SIGINT), SIGTERM (a CI runner cancelling a
// job, `timeout`) and SIGHUP (a closed terminal) remove every temporary file the process
// is writing (reports/atomic_file.hpp remove_temporary_files_now: a half-written trace,
// reports not yet published), print one line on stderr and exit with 128 + the signal's
// number, as a shell reports a process killed by it:
//   squall: interrupted by SIGINT; unfinished files removed      exit 130
//   squall: interrupted by SIGTERM; unfinished files removed     exit 143
//   squall: interrupted by SIGHUP; unfinished files removed      exit 129
// Files already published stay whole (each is renamed into place at once); nothing is
// left half-written.
#pragma once

namespace squall::cli {

// Installs the handlers. Call once, at the start of main, before any file is written.
void clean_up_on_interrupt();

}  // namespace squall::cli

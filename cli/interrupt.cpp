#include "cli/interrupt.hpp"

#include <unistd.h>

#include <csignal>
#include <cstring>

#include "reports/atomic_file.hpp"

namespace squall::cli {
namespace {

// Only async-signal-safe calls (POSIX.1-2017 section 2.4.3): unlink(2) through
// remove_temporary_files_now, write(2) and _exit(2). The message is chosen, not built:
// formatting may allocate.
extern "C" void on_interrupt(int signal_number) {
  remove_temporary_files_now();
  const char* message = signal_number == SIGINT    ? "squall: interrupted by SIGINT; unfinished files removed\n"
                        : signal_number == SIGTERM ? "squall: interrupted by SIGTERM; unfinished files removed\n"
                                                   : "squall: interrupted by SIGHUP; unfinished files removed\n";
  // Nothing to do if stderr is gone: the exit code still says it.
  [[maybe_unused]] const ::ssize_t written = ::write(STDERR_FILENO, message, std::strlen(message));
  ::_exit(128 + signal_number);
}

}  // namespace

void clean_up_on_interrupt() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  ::sigemptyset(&action.sa_mask);
  // A second signal while the first is handled waits: the files are removed once.
  for (const int s : {SIGINT, SIGTERM, SIGHUP}) ::sigaddset(&action.sa_mask, s);
  for (const int s : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction previous {};
    // A signal ignored when squall started (nohup, a background job's SIGINT) stays ignored.
    if (::sigaction(s, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
    ::sigaction(s, &action, nullptr);
  }
}

}  // namespace squall::cli

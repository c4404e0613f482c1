#include "sim/parallel_runs.hpp"

#include <unistd.h>

namespace squall {

std::size_t default_jobs() {
  // The processors online (POSIX sysconf; std::thread's hardware_concurrency says the same
  // on Linux, but <thread> is kept out of sim/ by the ban list: one simulation, one thread).
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : static_cast<std::size_t>(n);
}

}  // namespace squall

#include "reports/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <system_error>

#include <fmt/format.h>

namespace squall {
namespace {

std::string reason(int err) { return std::error_code(err, std::generic_category()).message(); }

}  // namespace

void write_file_atomic(const std::filesystem::path& target, std::string_view content) {
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  // Built by appending: GCC 12's -Wrestrict misfires on `"." + std::string` at -O3 (GCC bug 105329).
  std::string name = ".";
  name += target.filename().string();
  name += ".tmp.XXXXXX";
  std::string temp = (dir / name).string();
  const auto fail = [&](std::string_view what, int err) {
    throw std::runtime_error(fmt::format("cannot write \"{}\": {}: {}", target.string(), what, reason(err)));
  };

  const int fd = ::mkstemp(temp.data());
  if (fd < 0) fail(fmt::format("cannot create a temporary file in \"{}\"", dir.string()), errno);

  // From here on every failure removes the temporary file before reporting.
  const auto fail_and_remove = [&](std::string_view what, int err, bool close_fd) {
    if (close_fd) ::close(fd);
    ::unlink(temp.c_str());
    fail(what, err);
  };
  std::size_t written = 0;
  while (written < content.size()) {
    const ::ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_and_remove(fmt::format("cannot write \"{}\"", temp), errno, true);
    }
    written += static_cast<std::size_t>(n);
  }
  // mkstemp creates the file 0600; a report is meant to be read by others (CI artefacts).
  if (::fchmod(fd, 0644) != 0) fail_and_remove(fmt::format("cannot set the mode of \"{}\"", temp), errno, true);
  if (::fsync(fd) != 0) fail_and_remove(fmt::format("cannot flush \"{}\"", temp), errno, true);
  if (::close(fd) != 0) fail_and_remove(fmt::format("cannot close \"{}\"", temp), errno, false);
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    fail_and_remove(fmt::format("cannot rename \"{}\" to it", temp), errno, false);
  }
}

}  // namespace squall

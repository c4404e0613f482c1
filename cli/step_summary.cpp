#include "cli/step_summary.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <system_error>

#include <fmt/core.h>

namespace squall::cli {

std::optional<std::filesystem::path> step_summary_file() {
  const char* value = std::getenv("GITHUB_STEP_SUMMARY");
  // Blank counts as unset: GitHub sets an absolute path, and " " (a YAML `env:` entry
  // left empty but quoted) would create a file named " ".
  if (value == nullptr || std::string_view(value).find_first_not_of(" \t\n\r") == std::string_view::npos) {
    return std::nullopt;
  }
  return std::filesystem::path(value);
}

void append_to_file(const std::filesystem::path& file, std::string_view text) {
  const auto fail = [&](int err) {
    throw std::runtime_error(fmt::format("cannot append to \"{}\": {}", file.string(),
                                         std::error_code(err, std::generic_category()).message()));
  };
  const int fd = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) fail(errno);
  std::size_t written = 0;
  while (written < text.size()) {
    const ::ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      fail(err);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) fail(errno);
}

}  // namespace squall::cli

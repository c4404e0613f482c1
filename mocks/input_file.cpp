#include "mocks/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>

#include <fmt/format.h>

namespace squall {
namespace {

// Whether the file a path resolves to is a kernel pseudo-file: /proc and /sys say "regular
// file" of size 0 for files whose read blocks until the kernel has something to say
// (/proc/kmsg) or never ends; no input of squall's lives there.
bool kernel_pseudo_file(const std::filesystem::path& file) {
  std::error_code ec;
  const std::string p = std::filesystem::canonical(file, ec).string();
  return !ec && (p.starts_with("/proc/") || p.starts_with("/sys/"));
}

// Closes the descriptor on every way out.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::variant<std::string, InputFileError> read_input_file(const std::filesystem::path& file) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(file, ec);
  if (status.type() == std::filesystem::file_type::not_found) return InputFileError{"file not found"};
  if (ec) return InputFileError{"cannot be read"};
  if (!std::filesystem::is_regular_file(status) || kernel_pseudo_file(file)) {
    return InputFileError{"not a regular file"};
  }
  // O_NONBLOCK: what the checks above let through still cannot block the reader (a path
  // swapped for a FIFO between the check and the open fails the check on the descriptor
  // below; a file that would block reads as an error). Regular files ignore it.
  const Descriptor in{::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (in.fd < 0) return InputFileError{"cannot be read"};
  struct stat opened {};
  if (::fstat(in.fd, &opened) != 0) return InputFileError{"cannot be read"};
  if (!S_ISREG(opened.st_mode)) return InputFileError{"not a regular file"};
  const std::string too_large = fmt::format("larger than {} MiB", kMaxInputFileBytes / (1024 * 1024));
  if (static_cast<std::uintmax_t>(opened.st_size) > kMaxInputFileBytes) return InputFileError{too_large};

  // The size is checked again while reading: the file may have grown since.
  std::string text;
  std::array<char, 64 * 1024> buffer{};
  for (;;) {
    const ssize_t n = ::read(in.fd, buffer.data(), buffer.size());
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      return InputFileError{"cannot be read"};
    }
    text.append(buffer.data(), static_cast<std::size_t>(n));
    if (text.size() > kMaxInputFileBytes) return InputFileError{too_large};
  }
  return text;
}

std::optional<std::string> other_unicode_encoding(std::string_view text) {
  const auto starts = [&](std::string_view prefix) { return text.starts_with(prefix); };
  using namespace std::string_view_literals;
  std::string_view name;
  if (starts("\xFF\xFE\x00\x00"sv)) {
    name = "UTF-32 (little-endian, with a byte order mark)";
  } else if (starts("\x00\x00\xFE\xFF"sv)) {
    name = "UTF-32 (big-endian, with a byte order mark)";
  } else if (starts("\xFF\xFE"sv)) {
    name = "UTF-16 (little-endian, with a byte order mark)";
  } else if (starts("\xFE\xFF"sv)) {
    name = "UTF-16 (big-endian, with a byte order mark)";
  } else if (text.size() >= 2 && text[0] != '\0' && static_cast<unsigned char>(text[0]) < 0x80 && text[1] == '\0') {
    name = "UTF-16 (little-endian)";
  } else if (text.size() >= 2 && text[0] == '\0' && text[1] != '\0' && static_cast<unsigned char>(text[1]) < 0x80) {
    name = "UTF-16 (big-endian)";
  } else {
    return std::nullopt;
  }
  const std::string_view from = name.starts_with("UTF-32") ? "UTF-32" : "UTF-16";
  return fmt::format("expected UTF-8 text, got {}: convert the file, e.g. with iconv -f {} -t UTF-8", name, from);
}

}  // namespace squall

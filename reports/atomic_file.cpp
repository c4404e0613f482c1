#include "reports/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/format.h>

namespace squall {
namespace {

std::string reason(int err) { return std::error_code(err, std::generic_category()).message(); }

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target)) {
  const std::filesystem::path dir = target_.has_parent_path() ? target_.parent_path() : std::filesystem::path(".");
  // Built by appending: GCC 12's -Wrestrict misfires on `"." + std::string` at -O3 (GCC bug 105329).
  std::string name = ".";
  name += target_.filename().string();
  name += ".tmp.XXXXXX";
  std::string temp = (dir / name).string();
  fd_ = ::mkstemp(temp.data());
  if (fd_ < 0) fail(fmt::format("cannot create a temporary file in \"{}\"", dir.string()), errno);
  temp_ = std::move(temp);
}

AtomicFile::~AtomicFile() {
  if (!committed_) discard();
}

void AtomicFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
}

void AtomicFile::fail(std::string_view what, int err) {
  discard();
  throw std::runtime_error(fmt::format("cannot write \"{}\": {}: {}", target_.string(), what, reason(err)));
}

void AtomicFile::write(std::string_view content) {
  if (fd_ < 0) throw std::logic_error("AtomicFile::write after commit or failure");
  std::size_t written = 0;
  while (written < content.size()) {
    const ::ssize_t n = ::write(fd_, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(fmt::format("cannot write \"{}\"", temp_), errno);
    }
    written += static_cast<std::size_t>(n);
  }
}

void AtomicFile::commit() {
  if (fd_ < 0) throw std::logic_error("AtomicFile::commit called twice or after a failure");
  // mkstemp creates the file 0600; a report is meant to be read by others (CI artefacts).
  if (::fchmod(fd_, 0644) != 0) fail(fmt::format("cannot set the mode of \"{}\"", temp_), errno);
  if (::fsync(fd_) != 0) fail(fmt::format("cannot flush \"{}\"", temp_), errno);
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) fail(fmt::format("cannot close \"{}\"", temp_), errno);
  if (::rename(temp_.c_str(), target_.c_str()) != 0) fail(fmt::format("cannot rename \"{}\" to it", temp_), errno);
  committed_ = true;
}

void write_file_atomic(const std::filesystem::path& target, std::string_view content) {
  AtomicFile file(target);
  file.write(content);
  file.commit();
}

void AtomicFileBatch::add(std::filesystem::path target, std::string_view content) {
  auto file = std::make_unique<AtomicFile>(std::move(target));
  file->write(content);
  files_.push_back(std::move(file));
}

void AtomicFileBatch::add(std::unique_ptr<AtomicFile> file) { files_.push_back(std::move(file)); }

void AtomicFileBatch::commit() {
  for (const auto& file : files_) file->commit();
}

}  // namespace squall

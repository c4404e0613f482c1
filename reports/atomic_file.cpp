#include "reports/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/format.h>

namespace squall {
namespace {

std::string reason(int err) { return std::error_code(err, std::generic_category()).message(); }

// The temporary files of the process, where a signal handler can read them: a handler may
// not lock, allocate or touch a std::string another thread is changing. A slot is taken
// (`taken`) by one AtomicFile, which writes its name into `path` and then makes it
// `live`; mkstemp fills in the name's XXXXXX in place, so a signal at any moment finds
// either no name or a name whose unlink removes the file or nothing. The table is
// process-wide because signals are.
struct TemporarySlot {
  std::atomic<bool> taken{false};
  std::atomic<bool> live{false};
  std::array<char, 4096> path{};
};
std::array<TemporarySlot, kMaxTrackedTemporaryFiles> temporary_slots;

// A free slot holding `name`, live, or -1 when the table is full or the name too long.
int track(const std::string& name) {
  if (name.size() >= TemporarySlot{}.path.size()) return -1;
  for (std::size_t i = 0; i < temporary_slots.size(); ++i) {
    bool expected = false;
    if (!temporary_slots[i].taken.compare_exchange_strong(expected, true)) continue;
    std::memcpy(temporary_slots[i].path.data(), name.c_str(), name.size() + 1);
    temporary_slots[i].live.store(true);
    return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

void remove_temporary_files_now() noexcept {
  for (TemporarySlot& slot : temporary_slots) {
    if (slot.live.load()) ::unlink(slot.path.data());
  }
}

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target)) {
  const std::filesystem::path dir = target_.has_parent_path() ? target_.parent_path() : std::filesystem::path(".");
  // Built by appending: GCC 12's -Wrestrict misfires on `"." + std::string` at -O3 (GCC bug 105329).
  std::string name = ".";
  name += target_.filename().string();
  name += ".tmp.XXXXXX";
  std::string temp = (dir / name).string();
  slot_ = track(temp);
  // In the slot itself when there is one, so that the name a signal finds is the file's.
  char* buffer = slot_ >= 0 ? temporary_slots[static_cast<std::size_t>(slot_)].path.data() : temp.data();
  fd_ = ::mkstemp(buffer);
  if (fd_ < 0) {
    release_slot();
    fail(fmt::format("cannot create a temporary file in \"{}\"", dir.string()), errno);
  }
  temp_ = buffer;
}

AtomicFile::~AtomicFile() {
  if (!committed_) discard();
}

void AtomicFile::release_slot() noexcept {
  if (slot_ < 0) return;
  TemporarySlot& slot = temporary_slots[static_cast<std::size_t>(slot_)];
  slot.live.store(false);
  slot.taken.store(false);
  slot_ = -1;
}

void AtomicFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  release_slot();
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
  // After the rename: a signal in between finds the name gone, and unlinks nothing.
  release_slot();
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

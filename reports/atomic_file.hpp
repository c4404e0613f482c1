// Atomic file replacement for report writers: nothing is ever written half-way (DESIGN
// section 7, exit code 2: "nothing written half-way").
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace squall {

// A file written in pieces and published whole: the pieces go to a new temporary file in
// `target`'s directory (mkstemp, so concurrent writers never share one), and commit()
// flushes it to disk, gives it mode 0644 and renames it over `target`: readers see the
// old file or the new one, never a partial one (rename(2) is atomic within a file system,
// hence the same directory). A file destroyed before commit() removes its temporary file,
// so a run that fails or throws leaves nothing behind. Streamed writers (the JSONL trace)
// use it directly; whole documents go through write_file_atomic().
//
// Every failure throws std::runtime_error naming the target and the system's reason,
// after removing the temporary file, e.g.
//   cannot write "out/report.json": cannot create a temporary file in "out": No such file or directory
class AtomicFile {
 public:
  // Creates the temporary file.
  explicit AtomicFile(std::filesystem::path target);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  const std::filesystem::path& target() const { return target_; }
  // Appends `content` to the temporary file. Not after commit().
  void write(std::string_view content);
  // Publishes the file under its target name. Call once.
  void commit();

 private:
  [[noreturn]] void fail(std::string_view what, int err);
  void discard() noexcept;
  void release_slot() noexcept;

  std::filesystem::path target_;
  std::string temp_;
  int fd_ = -1;
  int slot_ = -1;  // its entry in the table remove_temporary_files_now reads, or -1
  bool committed_ = false;
};

// Removes every AtomicFile's temporary file not yet published or discarded, in the whole
// process, and nothing else: for a signal handler (cli/interrupt.hpp), so that an
// interrupted run leaves no `.NAME.tmp.XXXXXX` behind. Async-signal-safe: it reads a
// fixed table of names (kMaxTrackedTemporaryFiles at once, each under 4096 bytes; a file
// past those is still written, only not removed on a signal) and calls unlink(2) alone.
inline constexpr std::size_t kMaxTrackedTemporaryFiles = 256;
void remove_temporary_files_now() noexcept;

// Writes `content` to `target` atomically (AtomicFile).
void write_file_atomic(const std::filesystem::path& target, std::string_view content);

// Files published together, for a command that writes several reports: each is written
// whole to its temporary file when added, and commit() renames them all in the order
// added. A batch destroyed before commit() removes every temporary file, so a failure
// while creating or writing any of them (a full disk, a name too long for the file
// system) publishes none: exit 2 leaves no report of the command behind. Only a failing
// rename(2) part-way through commit() can leave the earlier ones published.
class AtomicFileBatch {
 public:
  // Creates `target`'s temporary file and writes `content` to it.
  void add(std::filesystem::path target, std::string_view content);
  // Takes a file already written (a streamed trace), to be published with the others.
  void add(std::unique_ptr<AtomicFile> file);
  // Publishes every file added. Call once.
  void commit();

 private:
  std::vector<std::unique_ptr<AtomicFile>> files_;
};

}  // namespace squall

// Reading an input file (a scenario, a policy file, a corpus) whole, defensively.
//
// Input files are regular files of bounded size. A FIFO would block the reader forever,
// /dev/zero would fill memory, a directory reads as nothing, and /proc/kmsg, which calls
// itself a regular file of size 0, blocks until the kernel logs something. So these are
// refused before anything is read, the file is opened without blocking, and no more than
// kMaxInputFileBytes + 1 bytes are ever read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace squall {

// 64 MiB: far above any real scenario (a few KiB) or corpus (a few MiB), and low enough
// that the parsed document (about 8 to 16 times the text for many small values) still
// fits in memory.
inline constexpr std::uintmax_t kMaxInputFileBytes = std::uintmax_t{64} * 1024 * 1024;

// Why a file could not be read, without the file's name (callers prefix it):
//   "file not found"          nothing at that path (a dangling symbolic link included)
//   "not a regular file"      a directory, FIFO, socket or device such as /dev/null, or a
//                             kernel pseudo-file (a path that leads into /proc or /sys)
//   "larger than 64 MiB"      more than kMaxInputFileBytes bytes
//   "cannot be read"          any other failure (permissions, I/O error)
struct InputFileError {
  std::string message;
};

// The file's bytes, or why they were not read. Symbolic links are followed.
std::variant<std::string, InputFileError> read_input_file(const std::filesystem::path& file);

// Why `text`, read where squall wants UTF-8, is another Unicode encoding, when it plainly
// is one: a UTF-32 or UTF-16 byte order mark, or the NUL byte of UTF-16 beside its first
// ASCII character (`{` is 7B 00 in UTF-16LE, 00 7B in UTF-16BE). What Windows' Notepad and
// PowerShell's `Out-File` write by default, which a JSON parser would report as an
// invalid literal at 1:1:
//   expected UTF-8 text, got UTF-16 (little-endian, with a byte order mark): convert the file, e.g. with iconv -f
//   UTF-16 -t UTF-8
std::optional<std::string> other_unicode_encoding(std::string_view text);

}  // namespace squall

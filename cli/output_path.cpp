#include "cli/output_path.hpp"

#include <unistd.h>

#include <stdexcept>

#include <fmt/core.h>

#include "reports/atomic_file.hpp"

namespace squall::cli {

namespace fs = std::filesystem;

fs::path resolve_output(const fs::path& out) {
  // Follow the chain of links (even to a target that does not exist yet), at most 40
  // deep as Linux does (ELOOP), so the report lands where the link points.
  fs::path target = out;
  std::error_code ec;
  for (int depth = 0; depth < 40 && fs::is_symlink(fs::symlink_status(target, ec)); ++depth) {
    const fs::path next = fs::read_symlink(target, ec);
    if (ec) break;
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  return target;
}

fs::path output_identity(const fs::path& out) {
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(fs::absolute(resolve_output(out)), ec);
  return ec ? fs::absolute(out).lexically_normal() : canonical;
}

fs::path path_from_directory_of(const fs::path& from, const fs::path& file) {
  std::error_code ec;
  const fs::path dir = fs::weakly_canonical(fs::absolute(from).parent_path(), ec);
  if (ec) return fs::absolute(file).lexically_normal();
  const fs::path target = fs::weakly_canonical(fs::absolute(file), ec);
  if (ec) return fs::absolute(file).lexically_normal();
  const fs::path relative = target.lexically_relative(dir);
  return relative.empty() ? target : relative;
}

namespace {

// Whether `path` (made absolute and normal) lies in /dev or /proc.
bool in_special_tree(const fs::path& path) {
  const std::string p = fs::absolute(path).lexically_normal().string();
  return p == "/dev" || p == "/proc" || p.starts_with("/dev/") || p.starts_with("/proc/");
}

// Whether `out` or any link on the way from it to its target lies in /dev or /proc.
bool reaches_special_tree(const fs::path& out) {
  fs::path hop = out;
  std::error_code ec;
  for (int depth = 0; depth < 40; ++depth) {
    if (in_special_tree(hop)) return true;
    if (!fs::is_symlink(fs::symlink_status(hop, ec))) return false;
    const fs::path next = fs::read_symlink(hop, ec);
    if (ec) return false;
    hop = next.is_absolute() ? next : hop.parent_path() / next;
  }
  return false;
}

// Why directory `dir` of a target is missing: the nearest of it and its parents that
// exists is a file, not a directory (`f/x.json` where `f` is a regular file: open(2)
// fails with ENOTDIR), or nothing is there.
std::string missing_directory(const fs::path& dir) {
  std::error_code ec;
  for (fs::path p = dir; !p.empty(); p = p.parent_path()) {
    const fs::file_status status = fs::status(p, ec);
    if (fs::exists(status)) {
      if (fs::is_directory(status)) break;
      return fmt::format("\"{}\" is not a directory", p.string());
    }
    if (p == p.parent_path()) break;
  }
  return fmt::format("directory \"{}\" does not exist", dir.string());
}

}  // namespace

std::optional<std::string> output_problem(const fs::path& out, const std::vector<fs::path>& inputs) {
  if (out.empty()) return "the path is empty";
  if (reaches_special_tree(out)) {
    return fmt::format(
        "\"{}\" is in /dev or /proc (or links there), whose files stand for terminals, pipes and CI logs: "
        "squall writes reports only to regular files (a report replaces its file, a summary is appended to "
        "it); give a regular file",
        out.string());
  }
  const fs::path target = resolve_output(out);
  std::error_code ec;
  const fs::file_status status = fs::status(target, ec);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    return fmt::format("\"{}\" exists and is not a regular file", out.string());
  }
  // rename(2) replaces a file whatever its mode, and root may write any file: the mode
  // bits are what says its owner protected it (access(2) says yes to root).
  if (fs::exists(status) && (status.permissions() & (fs::perms::owner_write | fs::perms::group_write |
                                                     fs::perms::others_write)) == fs::perms::none) {
    return fmt::format("\"{}\" is read-only; squall does not replace a protected file: make it writable or remove it",
                       out.string());
  }
  // The report is written to a temporary file in the target's directory, then renamed
  // over the target, so that directory must exist and be writable.
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) return missing_directory(dir);
  if (::access(dir.c_str(), W_OK) != 0) return fmt::format("directory \"{}\" is not writable", dir.string());
  // Permissions are not all: a name too long for the file system once the temporary
  // file's suffix is added, a read-only mount, or a tree such as /sys that refuses new
  // files even to root. Creating the very temporary file the writer will create (and
  // removing it) finds those before the run rather than after it.
  try {
    const AtomicFile probe(target);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  if (!fs::exists(status)) return std::nullopt;
  for (const fs::path& input : inputs) {
    if (fs::equivalent(target, input, ec)) {
      return fmt::format("\"{}\" is an input of this run ({}); the report would overwrite it", out.string(),
                         input.string());
    }
  }
  return std::nullopt;
}

}  // namespace squall::cli

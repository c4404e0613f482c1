// Progress of `squall ci` on stderr (issue 8): how many scenarios are done of how many,
// and which are running with how far each has simulated, for runs longer than a second,
// e.g.
//   progress: 3 of 12 scenarios done; running: scenarios/ci/a.json 35%, scenarios/ci/b.json 12%
// The same rules as `run`'s (cli/progress.hpp, whose ProgressLine draws it): shown when
// stderr is a terminal or when asked (`ci --progress`), never with --quiet; on a terminal
// one line rewritten in place, erased before each result line goes to stdout (the two
// share the terminal) and at the end; in a log a whole line at most every 5 s. It reads
// nothing back into the runs, so stdout and the JUnit and Markdown files are the same
// bytes with it or without it.
//
// Thread-safe: the runs report from the pool's threads. Wall time is the caller's
// (seconds since `ci` started; only cli/ reads the clock).
#pragma once

#include <cstddef>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/progress.hpp"
#include "sim/world.hpp"

namespace squall::cli {

// A running scenario: its name as given, and the share of its duration simulated so far
// (0 to 1; nullopt before its first progress report).
struct RunningScenario {
  std::string name;
  std::optional<double> share;
};

// The text of one update: "progress: D of N scenarios done; running: NAME P%, ..." with the
// running scenarios in input order ("running: NAME" before its first report).
std::string ci_progress_text(std::size_t done, std::size_t total, const std::vector<RunningScenario>& running);

class CiProgress {
 public:
  // `names` are the scenarios in input order; with `enabled` false every call does nothing.
  CiProgress(std::FILE* stream, bool terminal, bool enabled, std::vector<std::string> names);

  void started(std::size_t scenario, double wall_seconds);
  void advanced(std::size_t scenario, const RunProgress& progress, double wall_seconds);
  void finished(std::size_t scenario, double wall_seconds);
  // Erases the terminal line, so that a line printed on stdout next starts clean; the next
  // update draws it again. Nothing in a log.
  void clear();

 private:
  enum class State : unsigned char { waiting, running, done };
  void show_locked(double wall_seconds);

  bool enabled_;
  bool terminal_;
  std::mutex mutex_;
  ProgressLine line_;
  std::vector<std::string> names_;
  std::vector<State> states_;
  std::vector<std::optional<double>> shares_;
  std::size_t done_ = 0;
};

}  // namespace squall::cli

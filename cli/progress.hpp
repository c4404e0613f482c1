// Progress of a long run on stderr (issue 10): simulated time, tasks done, and how fast,
// for runs longer than a second of wall time, so a big scenario does not sit silent.
//
// Shown only when stderr is a terminal or when asked (`--progress`), never with
// `--quiet`; on a terminal it is one line rewritten in place ("\r", then erase to the end
// of the line, ECMA-48 EL) and erased when the run ends; elsewhere (a CI log, asked for
// with --progress) a full line at most once per `kLogInterval`. It goes to stderr only
// and reads nothing back into the run, so stdout and every report are the same bytes with
// it or without it (tests/cli/progress_test.cpp checks that).
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

#include "sim/world.hpp"

namespace squall::cli {

// Whether a run shows progress: `asked` is --progress, `quiet` is --quiet.
bool show_progress(bool asked, bool quiet, bool stderr_is_terminal);

// The text of one update, e.g.
//   "progress: simulated 312.5 s of 900.0 s (35%), 1234 tasks done, 56 in flight, 4567 tasks/s"
// where the rate is tasks finished per second of wall time (`wall_seconds` since the run
// started; "-" before any wall time has passed). A run goes on past its duration until
// the tasks in flight finish (sim/world.hpp); then the share stays at 100% and says so:
//   "progress: simulated 1.3 s of 1.0 s (100%, draining tasks in flight), 90 tasks done, 3 in flight, -"
std::string progress_text(const RunProgress& progress, double wall_seconds);

// The text of one update of a sweep (cli/sweep_command.cpp), e.g.
//   "progress: 12 of 40 runs (30%), 3.1 runs/s, ETA 9 s"
// where the rate is runs finished per second of wall time and the ETA the runs left at
// that rate ("-" before any run has finished). `planned` is the runs planned so far: a
// sweep with a target plans more rounds as its intervals ask.
std::string sweep_progress_text(std::size_t done, std::size_t planned, double wall_seconds);

class ProgressLine {
 public:
  static constexpr double kDelaySeconds = 1.0;  // nothing is shown before this much wall time
  static constexpr double kTerminalInterval = 0.2;
  static constexpr double kLogInterval = 5.0;

  ProgressLine(std::FILE* stream, bool terminal) : stream_(stream), terminal_(terminal) {}
  // Shows `progress` if the run has taken kDelaySeconds and the last update is old enough.
  void update(const RunProgress& progress, double wall_seconds);
  // The same for any text (`squall ci`'s, cli/ci_progress.hpp); `text` is made only when
  // it is shown.
  template <class MakeText>
  void show(MakeText&& text, double wall_seconds) {
    if (due(wall_seconds)) draw(text(), wall_seconds);
  }
  // Erases the terminal line, if one was drawn, so that what follows starts clean.
  void finish();

 private:
  bool due(double wall_seconds) const;
  void draw(const std::string& text, double wall_seconds);

  std::FILE* stream_;
  bool terminal_;
  bool drawn_ = false;
  double last_ = 0;
};

}  // namespace squall::cli

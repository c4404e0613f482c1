#include "cli/progress.hpp"

#include <fmt/core.h>

namespace squall::cli {

bool show_progress(bool asked, bool quiet, bool stderr_is_terminal) {
  if (quiet) return false;
  return asked || stderr_is_terminal;
}

std::string progress_text(const RunProgress& p, double wall_seconds) {
  const double now_s = static_cast<double>(p.now) / 1e9;
  const double duration_s = static_cast<double>(p.duration) / 1e9;
  // Past its duration a run starts no task and drains those in flight: 100%, said so.
  const bool draining = p.now > p.duration;
  const double share = duration_s > 0 && !draining ? 100.0 * now_s / duration_s : 100.0;
  const std::string rate =
      wall_seconds > 0 ? fmt::format("{:.0f} tasks/s", static_cast<double>(p.tasks_finished) / wall_seconds) : "-";
  return fmt::format("progress: simulated {:.1f} s of {:.1f} s ({:.0f}%{}), {} tasks done, {} in flight, {}", now_s,
                     duration_s, share, draining ? ", draining tasks in flight" : "", p.tasks_finished,
                     p.tasks_started - p.tasks_finished, rate);
}

std::string sweep_progress_text(std::size_t done, std::size_t planned, double wall_seconds) {
  const double share = planned > 0 ? 100.0 * static_cast<double>(done) / static_cast<double>(planned) : 100.0;
  if (done == 0 || wall_seconds <= 0) return fmt::format("progress: {} of {} runs ({:.0f}%), -", done, planned, share);
  const double rate = static_cast<double>(done) / wall_seconds;
  const double eta = static_cast<double>(planned - done) / rate;
  return fmt::format("progress: {} of {} runs ({:.0f}%), {:.1f} runs/s, ETA {:.0f} s", done, planned, share, rate, eta);
}

bool ProgressLine::due(double wall_seconds) const {
  if (wall_seconds < kDelaySeconds) return false;
  return !drawn_ || wall_seconds - last_ >= (terminal_ ? kTerminalInterval : kLogInterval);
}

void ProgressLine::update(const RunProgress& progress, double wall_seconds) {
  show([&] { return progress_text(progress, wall_seconds); }, wall_seconds);
}

void ProgressLine::draw(const std::string& text, double wall_seconds) {
  if (terminal_) {
    fmt::print(stream_, "\r{}\x1b[K", text);
  } else {
    fmt::print(stream_, "{}\n", text);
  }
  std::fflush(stream_);
  drawn_ = true;
  last_ = wall_seconds;
}

void ProgressLine::finish() {
  if (terminal_ && drawn_) {
    fmt::print(stream_, "\r\x1b[K");
    std::fflush(stream_);
  }
  drawn_ = false;
}

}  // namespace squall::cli

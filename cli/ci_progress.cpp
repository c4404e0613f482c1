#include "cli/ci_progress.hpp"

#include <algorithm>

#include <fmt/core.h>

namespace squall::cli {

std::string ci_progress_text(std::size_t done, std::size_t total, const std::vector<RunningScenario>& running) {
  std::string text = fmt::format("progress: {} of {} scenarios done", done, total);
  for (std::size_t i = 0; i < running.size(); ++i) {
    text += i == 0 ? "; running: " : ", ";
    text += running[i].name;
    if (running[i].share) text += fmt::format(" {:.0f}%", 100.0 * *running[i].share);
  }
  return text;
}

CiProgress::CiProgress(std::FILE* stream, bool terminal, bool enabled, std::vector<std::string> names)
    : enabled_(enabled),
      terminal_(terminal),
      line_(stream, terminal),
      names_(std::move(names)),
      states_(names_.size(), State::waiting),
      shares_(names_.size()) {}

void CiProgress::started(std::size_t scenario, double wall_seconds) {
  if (!enabled_) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  states_.at(scenario) = State::running;
  show_locked(wall_seconds);
}

void CiProgress::advanced(std::size_t scenario, const RunProgress& p, double wall_seconds) {
  if (!enabled_) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  // A run may go past its duration (tasks still in flight): shown as 100%.
  shares_.at(scenario) =
      p.duration > 0 ? std::min(1.0, static_cast<double>(p.now) / static_cast<double>(p.duration)) : 1.0;
  show_locked(wall_seconds);
}

void CiProgress::finished(std::size_t scenario, double wall_seconds) {
  if (!enabled_) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  if (states_.at(scenario) != State::done) ++done_;
  states_.at(scenario) = State::done;
  if (done_ == names_.size()) {
    line_.finish();
    return;
  }
  show_locked(wall_seconds);
}

void CiProgress::clear() {
  if (!enabled_ || !terminal_) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  line_.finish();
}

void CiProgress::show_locked(double wall_seconds) {
  line_.show(
      [&] {
        std::vector<RunningScenario> running;
        for (std::size_t i = 0; i < names_.size(); ++i) {
          if (states_[i] == State::running) running.push_back({names_[i], shares_[i]});
        }
        return ci_progress_text(done_, names_.size(), running);
      },
      wall_seconds);
}

}  // namespace squall::cli

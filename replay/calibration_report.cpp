#include "replay/calibration_report.hpp"

#include <fmt/core.h>

#include "engine/runtime/duration.hpp"

namespace squall::replay {
namespace {

std::string window_text(const CalibrationWindow& w) {
  return fmt::format("[{}, {})", format_duration(w.from_ns / 1'000'000 * 1'000'000),
                     format_duration(w.to_ns / 1'000'000 * 1'000'000));
}

std::string value(double x) { return fmt::format("{:.4g}", x); }

std::string rule_text(const Calibration& c) {
  return fmt::format(
      "band: the {:.0f}th to {:.0f}th percentile (nearest rank) over {} seeds; a window passes with at least {:.0f}% "
      "of its figures inside; calibration passes with at most {:.0f}% of windows failing",
      kBandLow * 100, kBandHigh * 100, c.seeds, kWindowPassShare * 100, kFailedWindowShare * 100);
}

}  // namespace

nlohmann::json calibration_json(const Calibration& c) {
  nlohmann::json windows = nlohmann::json::array();
  for (const CalibrationWindow& w : c.windows) {
    nlohmann::json cells = nlohmann::json::array();
    for (const CalibrationCell& cell : w.cells) {
      cells.push_back({{"figure", cell.figure},
                       {"observed", cell.observed},
                       {"low", cell.low},
                       {"high", cell.high},
                       {"inside", cell.inside}});
    }
    windows.push_back({{"from_ns", w.from_ns},
                       {"to_ns", w.to_ns},
                       {"window", window_text(w)},
                       {"passed", w.passed},
                       {"outside", w.outside},
                       {"figures", cells}});
  }
  return {{"seeds", c.seeds},
          {"rule", rule_text(c)},
          {"band_low_percentile", kBandLow * 100},
          {"band_high_percentile", kBandHigh * 100},
          {"window_pass_share", kWindowPassShare},
          {"failed_window_share", kFailedWindowShare},
          {"failed_windows", c.failed_windows},
          {"passed", c.passed},
          {"windows", windows}};
}

std::string calibration_markdown(const Calibration& c) {
  std::string md =
      fmt::format("# Calibration: {}\n\n{} of {} windows pass. Rule: {}.\n\n", c.passed ? "passed" : "FAILED",
                  c.windows.size() - c.failed_windows, c.windows.size(), rule_text(c));
  md += "| window | figure | observed | simulated band | verdict |\n|---|---|---:|---:|---|\n";
  for (const CalibrationWindow& w : c.windows) {
    for (const CalibrationCell& cell : w.cells) {
      md +=
          fmt::format("| {}{} | `{}` | {} | {} – {} | {} |\n", window_text(w), w.passed ? "" : " (fails)", cell.figure,
                      value(cell.observed), value(cell.low), value(cell.high), cell.inside ? "inside" : "**outside**");
    }
  }
  return md;
}

std::string calibration_summary(const Calibration& c) {
  std::string text = fmt::format("calibration: {} ({} of {} windows pass; {})\n", c.passed ? "passed" : "FAILED",
                                 c.windows.size() - c.failed_windows, c.windows.size(), rule_text(c));
  for (const CalibrationWindow& w : c.windows) {
    if (w.passed) continue;
    for (const CalibrationCell& cell : w.cells) {
      if (cell.inside) continue;
      text += fmt::format("  window {} fails: {} observed {}, simulated {} – {}\n", window_text(w), cell.figure,
                          value(cell.observed), value(cell.low), value(cell.high));
    }
  }
  return text;
}

}  // namespace squall::replay

// The calibration (replay/calibration.hpp) as calibration.json's `calibration` object and as
// calibration.md's table: each window, each figure, observed beside the simulated band and
// the verdict, failing windows first named.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "replay/calibration.hpp"

namespace squall::replay {

nlohmann::json calibration_json(const Calibration& c);
std::string calibration_markdown(const Calibration& c);
// One line, then a line per figure outside its band in a failing window:
//   calibration: 9 of 10 windows pass (20 seeds; ...)
std::string calibration_summary(const Calibration& c);

}  // namespace squall::replay

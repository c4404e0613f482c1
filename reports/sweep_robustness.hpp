// A sweep's robustness curves (docs/sweeps.md, "Scenario axes"): when some variants set
// the scenario ("/scenario/..." grid axes), each policy's metrics over the scenario's
// settings: one row per policy (a variant's name without its scenario settings), one
// column per scenario setting (e.g. probability=0.5), each cell a variant's mean with its
// 95% interval. Built from the result alone, so a merged sweep draws the same curves.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "reports/sweep_names.hpp"
#include "reports/sweep_result.hpp"

namespace squall {

struct RobustnessGrid {
  // Scenario settings in the order of their first variant (a grid's values in file
  // order); a variant without scenario settings is the column "as written".
  std::vector<std::string> columns;        // "probability=0.5", or "as written"
  std::vector<SweepParams> column_params;  // the settings of each column (pointer -> value)
  // The column's value on the x axis when every column sets one and the same pointer to a
  // number (a curve over it); otherwise none (the columns are categories).
  std::vector<std::optional<double>> x;
  std::vector<std::string> rows;                                 // policies, in the order of their first variant
  std::vector<std::vector<std::optional<std::size_t>>> variant;  // [row][column] -> variant index
};

// The grid, or none when no variant has a scenario setting.
std::optional<RobustnessGrid> robustness_grid(const SweepResult& result);

}  // namespace squall

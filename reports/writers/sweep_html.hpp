// A sweep's self-contained HTML page (`squall sweep --report html=PATH`): the Pareto scatter
// of the variants' means over the first two objectives (uPlot, embedded at build time as in
// the run report, reports/writers/html_writer.hpp; nothing is fetched), each variant
// labelled and the front drawn apart, and the statistics tables (reports/writers/
// sweep_tables.hpp's blocks as HTML).
//
// Shape: <html lang="en" data-squall-sweep="1">, on which the page's script sets
// data-charts-expected (1), data-charts-drawn (uPlot's draw hook counts) and, on an
// uncaught error, data-errors, as the run report's script does (tests/cli/
// html_browser_test.py reads them); the data in <script type="application/json"
// id="squall-data">: {x: {metric, goal}, y: {metric, goal}, points: [{name, x, y, front}]}
// with the points sorted by x then name (uPlot wants ascending x) and variants without both
// means left out. With one objective, x is the variant's position in the sweep.
// A sweep with scenario axes adds, after the Pareto chart, one robustness chart per metric
// (one line per policy over the scenario setting, 95% CI whiskers), counted in
// data-charts-expected; its data is squall-data's `robustness` (null without scenario
// axes): {x_label, x: [numbers, ascending], labels: null or the columns' names when x are
// positions, charts: [{metric, series: [{name, mean, low, high}]}]}.
#pragma once

#include <string>

#include "reports/sweep_result.hpp"
#include "reports/sweep_stats.hpp"

namespace squall {

std::string sweep_html_page(const SweepResult& result, const SweepAnalysis& analysis);

}  // namespace squall

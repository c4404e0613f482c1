// The index of `squall ci --report html-dir=DIR` (cli/ci_outputs.hpp): DIR/index.html, one
// row per scenario in the order ci ran them, linking the scenario's own page (DIR/NAME.html,
// reports/writers/html_writer.hpp) with its verdict. Static HTML with the page's
// stylesheet and no script; the same outcomes give the same bytes.
//
// Shape: <html lang="en" data-squall-index="1">, title and <h1> "squall ci: N scenarios, P
// passed, F failed, X not run" (✓ when none failed or was not run, else ✗), then a table
// with a row per scenario:
//   <tr class="pass|fail|not-run" data-scenario="FILE"><td>✓|✗</td>
//     <td><a href="PAGE">SCENARIO NAME</a></td><td><code>FILE</code></td><td>VERDICT</td></tr>
// VERDICT: "N thresholds passed", "F of N thresholds failed", with --seeds "passed on S of
// N seeds (SEEDS), page of seed K" or "F of N thresholds below their pass rate (...)",
// and "not run: WHY" (no link) for a scenario without a report.
#pragma once

#include <span>
#include <string>

#include "reports/writers/suite_outcome.hpp"

namespace squall {

// `pages[i]`: the file name of outcome i's page in the same directory (unused when the
// outcome has no report). The href is percent-encoded (RFC 3986, unreserved kept).
std::string ci_html_index(std::span<const SuiteOutcome> outcomes, std::span<const std::string> pages);

}  // namespace squall

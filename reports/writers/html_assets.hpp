// Files the HTML report (reports/writers/html_writer.hpp) carries inline, embedded into
// the program at build time by cmake/html_assets.cmake, so the page fetches nothing when
// it opens and the program reads nothing at run time:
//   - uPlot (https://github.com/leeoniya/uPlot, MIT licence), the time-series chart
//     library, at the exact version pinned in third_party/uplot/package.json and
//     package-lock.json, which scripts/setup.sh installs with `npm ci`: its minified
//     IIFE build (defines the global `uPlot`) and its stylesheet;
//   - the pages' own scripts and stylesheet in reports/writers/: the run page's
//     html_page.js and html_page.css, the sweep page's sweep_page.js, and chart_page.js,
//     which both pages carry before their own script.
// None of them contains "</script", "</style" or "<!--" (the build checks), so each can
// be the body of an inline <script> or <style> element as it is.
#pragma once

#include <string_view>

namespace squall {

std::string_view uplot_version();  // "1.6.32"
std::string_view uplot_js();       // dist/uPlot.iife.min.js
std::string_view uplot_css();      // dist/uPlot.min.css
std::string_view html_page_js();   // reports/writers/html_page.js
std::string_view html_page_css();  // reports/writers/html_page.css
std::string_view chart_page_js();  // reports/writers/chart_page.js
std::string_view sweep_page_js();  // reports/writers/sweep_page.js

}  // namespace squall

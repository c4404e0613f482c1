// A self-contained HTML page of one run, for people: open it from a CI artifact, offline.
// Everything it needs is inline: uPlot (the chart library, pinned and embedded at build
// time, reports/writers/html_assets.hpp), the page's script and stylesheet, and the data.
// It fetches nothing, and the same report gives the same bytes (no wall-clock time, no
// random ids; numbers formatted by fmt and nlohmann::json).
//
// Shape (docs/ci.md, "html"):
//   <html lang="en" data-squall-report="1">   the page's script sets on this element
//     data-charts-expected (charts it will draw), data-charts-drawn (charts drawn so far)
//     and, on an uncaught error, data-errors (how many); on each chart's <figure>,
//     data-layout (its points in scale and text boxes): what the browser test reads
//   <head>  title "squall: SCENARIO ✓|✗", uPlot's CSS, the page's CSS, uPlot's JS
//   <body>
//     <header>  "✓|✗ squall: SCENARIO", identity (seed, simulated s, fingerprint, squall
//               version, scenario and policy files) and the repro command
//     section#outcomes    tasks by status with their share
//     section#thresholds  one row per threshold in the scenario's order: ✓/✗ (class pass
//                         or fail), metric, expression, observed (as the summary prints it)
//     section#figures     task latency, retry amplification, tokens, cost, spend per task,
//                         breaker transitions and openings by cause (the non-zero causes,
//                         "consecutive_failures=3 failure_rate=1", or "none")
//     section#providers   per provider: attempts, attempts by outcome (non-zero ones),
//                         latency p50/p99, tokens, cost
//     section#faults      injected faults by provider and kind, the non-zero ones; absent
//                         when no fault was injected
//     section#charts      charts over virtual time, drawn by the script (below)
//     <script type="application/json" id="squall-data">  the series (below), escaped by
//                                                        script_json()
//     <script>  the page's script (reports/writers/html_page.js)
//
// The data (reports/writers/html_page_data.hpp builds it), one JSON object, keys in this order:
//   window_s      the window length, in seconds of virtual time
//   end_s         the run's end: the later of its duration and the last window's end
//   t             each window's start, in seconds of virtual time
//   outcome_kinds every outcome kind, in declaration order (the page's colours key on them)
//   tasks         status -> tasks that finished in each window (every status)
//   task_success  per window, succeeded or degraded over finished (6 decimals); null where
//                 none finished
//   tasks_in_flight  per window, tasks started before its end and not finished by then
//   task_latency_ms  {p50, p99, max}: per window, the end-to-end latency of the tasks that
//                 finished in it (nearest rank, ms); null where none finished
//   latency_histogram  {bucket_ms, counts}: Report::latency_histogram, in ms
//   providers     [{name, attempts, outcomes: kind -> per window, tokens, cost_usd}], by
//                 name, each a value per window: attempts that ended in it, by outcome
//                 (only the kinds the provider saw in the run, in declaration order), and
//                 the tokens (input + output) and USD those attempts billed
//   injected_faults  [{provider, kind, counts}]: each fault kind the chaos layer injected
//                 into a provider (non-zero totals; Report::injected_faults' order), with
//                 the faults it decided in each window
//   breakers      {t: seconds, series: [{label: "TOOL -> PROVIDER", state: [...]}]}: each
//                 breaker's state (0 closed, 1 half_open, 2 open) from 0 and at every
//                 transition time of any breaker, to the end of the run; breakers sorted
//                 by label; empty series without transitions
//   breaker_transitions_shown, breaker_transitions_total   the report keeps the first
//                 1000 transitions: when shown < total, the chart stops at the last one
//   schedule      {faults: [{provider, kind, outage, from, to, probability, flapping}],
//                 bursts: [{from, to, rate_per_s}]}: Report::schedule in seconds, `to`
//                 at most end_s (a window open to the end of the run ends there)
//   thresholds    [{chart, label: "METRIC EXPRESSION", value, passed}]: the thresholds a
//                 chart bounds, in the scenario's order: chart "task_latency" (value in
//                 ms; untagged), "task_success" (a fraction; untagged) or "cost_usd"
//                 (count or sum, USD)
// The charts: tasks finished per window by status; task success rate per window; tasks in
// flight; task latency p50/p99/max per window; the latency histogram (when a task
// finished); attempts per window by provider (the retry load); for each provider, its
// attempts per window by outcome; tokens and USD per window by provider (the burn, failed
// attempts included); cumulative USD, total and by provider; injected faults per window by
// provider and kind, when any fault was injected; breaker state over time, when any
// breaker moved. Every chart over time shades `schedule`'s windows; thresholds are dashed
// lines on the charts they bound; colours are one per name of a kind (status, outcome,
// provider...) on every chart (docs/ci.md, "html").
//
// Times are the report's rounded milliseconds over 1000 (reports/rounding.hpp).
#pragma once

#include <string>

#include "reports/report.hpp"

namespace squall {

// The page, UTF-8, ending in a newline.
std::string html_page(const Report& report);

}  // namespace squall

// Markdown for CI job summaries (GitHub's $GITHUB_STEP_SUMMARY, GitLab merge-request
// notes): GitHub-flavoured Markdown with tables. Renders the same Report as the JSON and
// text writers, rounded the same way. Sections, in order (docs/ci.md shows one):
//   "### ✓|✗ squall: SCENARIO": passed, or how many thresholds failed
//   a line: seed, simulated time, fingerprint, squall version
//   outcome table: tasks by status (succeeded, degraded, safe_failed, failed, total) with
//     their share of all tasks
//   "#### Thresholds": one row per threshold, in the scenario's order: ✓ or ✗, the metric,
//     the expression and the observed value ("no samples" when there were none)
//   "#### Top failure reasons": the five largest (status, reason) counts among failed and
//     safe_failed tasks, largest first (ties by status, then reason); omitted when none
//   "#### Latency and spend": task latency p50/p99/max (ms), retry amplification, cost
//     total, per-task tokens and USD p50/p99/max
//   "#### Breaker openings": one row per cause that opened a circuit breaker, in
//     BreakerCause order (engine/events.hpp), with how many times; omitted when none did
//   "#### Injected faults": per provider with faults injected, how many, by phase, and how
//     many the engine saw cut short; omitted when nothing was injected
//   "#### Capacity": per provider with a capacity block, its totals and recovery time;
//     omitted without capacity blocks
//   "**Repro:**" and the repro command as code
// Names from the scenario are escaped (reports/writers/markdown_text.hpp).
#pragma once

#include <span>
#include <string>

#include "reports/report.hpp"
#include "reports/writers/suite_outcome.hpp"

namespace squall {

// The summary, ending in a newline.
std::string markdown_summary(const Report& report);

// The summary of many scenarios (`squall ci`), ending in a newline:
//   "## ✓|✗ squall ci: N scenarios ("1 scenario") (P passed, F failed, E not run)"
//   a table, one row per outcome in the order given: ✓/✗, the scenario file, the result
//     ("passed", "K of T thresholds failed", "not run"), tasks, task success (clean or
//     degraded, as a share of all tasks)
//   then each scenario's markdown_summary() in the same order, or for one that did not run
//     "### ✗ squall: FILE (not run)" and its error in a fenced code block.
// With seeds (`ci --seeds`), the table's last columns are the seeds that passed every
// threshold ("6/8") and pass^k, a result is "K of T thresholds below their pass rate", and
// each scenario's section is seed_summary_markdown() (reports/seed_summary_text.hpp) with
// the repro line of its first failed seed (SeedSummary::repro_seed).
std::string markdown_summary(std::span<const SuiteOutcome> outcomes);

}  // namespace squall

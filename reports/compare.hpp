// `squall compare`: the headline metrics of two reports side by side, with the difference
// of each, absolute (B - A) and relative to A. Works on the JSON report (reports/
// json_writer.hpp, squall_report_version 1), so two reports written earlier and two runs
// made now compare the same way.
//
// The headline metrics, in this order (a JSON Pointer into the report each, except
// task_success = (succeeded + degraded) / total, the rate the task_success threshold
// checks): tasks total, succeeded, degraded, safe_failed, failed, wrong_answer;
// task_success; task latency p50, p90, p99, max, mean (ms); retry amplification overall;
// tokens input, output, burned by failed attempts; cost total, burned by failed attempts,
// per task (USD); per-task tokens and USD p50, p99, max; breaker transitions; thresholds
// passed (of the report's own thresholds, a count).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace squall {

struct MetricComparison {
  std::string metric;       // "latency_ms.p99"
  std::optional<double> a;  // nullopt when the report lacks it
  std::optional<double> b;
};

// The headline metrics' names in the order above ("tasks.total", ..., "task_success",
// "latency_ms.p99", ..., "thresholds_passed"); sweeps (sim/sweep/) report them by these names.
const std::vector<std::string>& headline_metric_names();

// The headline metrics of one report, in headline_metric_names() order; nullopt where the
// report lacks a value. Throws as compare_reports does.
std::vector<std::optional<double>> headline_metrics(const nlohmann::json& report);

// Throws std::runtime_error when a document is not a squall JSON report:
//   "not a squall report: no squall_report_version"
std::vector<MetricComparison> compare_reports(const nlohmann::json& a, const nlohmann::json& b);

// A plain-text table, e.g.
//   metric                          A: scenario policy  B: naive-retry.json          B - A   (B - A) / A
//   tasks.total                                 2800                2800              0         0.00%
// Values as the JSON report has them (already rounded: ms to the microsecond, USD to the
// micro-dollar); differences rounded to 6 decimals; the relative difference in percent
// with 2 decimals, "-" when A is 0 or either value is missing.
std::string comparison_table(std::string_view label_a, std::string_view label_b,
                             const std::vector<MetricComparison>& rows);

}  // namespace squall

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
// per task (USD); per-task tokens and USD p50, p99, max; breaker transitions; breaker
// openings by cause (consecutive_failures, failure_rate, slow_call_rate, probe_failed,
// as "breaker_openings.CAUSE"); thresholds passed (of the report's own thresholds, a
// count).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace squall {

// The largest headline value a report may hold: 2^53, above which a double no longer holds
// every integer (IEEE 754 binary64's 53-bit significand), so counts would be inexact.
inline constexpr double kMaxHeadlineValue = 9007199254740992.0;

// What is wrong with the JSON number `value` as a headline value a report can hold
// (report_problem below says why these bounds), as the "expected" part of a message, or
// null when nothing is. An integer is compared as one: 2^53 + 1 reads as 2^53 in a
// double. For nlohmann::json and nlohmann::ordered_json alike.
template <class BasicJson>
const char* headline_number_problem(const BasicJson& value) {
  constexpr const char* kRange = "a number from 0 to 9007199254740992 (2^53)";
  constexpr auto kMaxInteger = static_cast<std::uint64_t>(kMaxHeadlineValue);
  if (value.is_number_unsigned()) return value.template get<std::uint64_t>() <= kMaxInteger ? nullptr : kRange;
  if (value.is_number_integer()) {  // parsed, a negative integer; built in memory, any int64
    const auto v = value.template get<std::int64_t>();
    return v >= 0 && static_cast<std::uint64_t>(v) <= kMaxInteger ? nullptr : kRange;
  }
  const double v = value.template get<double>();
  if (!(v >= 0) || v > kMaxHeadlineValue) return kRange;
  if (v > 0 && v < 1e-6) return "0 or at least 0.000001 (reports round to 6 decimals)";
  return nullptr;
}

struct MetricComparison {
  std::string metric;       // "latency_ms.p99"
  std::optional<double> a;  // nullopt when the report lacks it
  std::optional<double> b;
};

// The headline metrics' names in the order above ("tasks.total", ..., "task_success",
// "latency_ms.p99", ..., "thresholds_passed"); sweeps (sim/sweep/) report them by these names.
const std::vector<std::string>& headline_metric_names();

// The headline metrics of one report, in headline_metric_names() order; nullopt where the
// report lacks a value (a percentile without samples). Throws as compare_reports does.
std::vector<std::optional<double>> headline_metrics(const nlohmann::json& report);

// Why `report` cannot be compared, or nullopt. A squall report of version 1 is an object
// whose squall_report_version is the integer 1, with the string `scenario`, the unsigned
// integer `seed`, the array `thresholds`, and at every headline pointer a number or null
// (a percentile without samples); anything else is refused, so two files of another
// kind never compare as rows of "-". A headline number must be one the JSON writer can
// have written: from 0 to kMaxHeadlineValue, and 0 or at least 0.000001 (values are
// rounded to 6 decimals), so that no difference or ratio of two of them is infinite. The one exception is
// breaker_openings, which version 1 reports written before squall counted openings lack: without it, its rows show "-"
// (with it, each cause must be a number or null). Refusals read:
//   not a squall report: a JSON string, not an object
//   not a squall report: no squall_report_version
//   squall report version 2: this squall reads version 1
//   not a squall report of version 1: /tasks/total is "many", expected a number or null
//   not a squall report of version 1: /tasks/succeeded is -5, expected a number from 0 to 9007199254740992 (2^53)
//   not a squall report of version 1: /tasks/total is 5e-324, expected 0 or at least 0.000001 (reports round to 6
//   decimals)
std::optional<std::string> report_problem(const nlohmann::json& report);

// What differs between the runs behind two valid reports, which makes their difference
// more than the policies': their scenarios (by name) and their seeds. One sentence each,
// e.g. `the reports are of different scenarios: "a" and "b"`, `... of different seeds:
// 7 and 8`; empty when both match.
std::vector<std::string> comparison_warnings(const nlohmann::json& a, const nlohmann::json& b);

// Throws std::runtime_error with report_problem()'s text when a document is not a
// squall JSON report of version 1.
std::vector<MetricComparison> compare_reports(const nlohmann::json& a, const nlohmann::json& b);

// The difference B - A, rounded to 6 decimals, and (B - A) / |A| as a ratio rounded to 6
// decimals; nullopt when a value is missing (or, for the ratio, when A is 0).
std::optional<double> difference(const MetricComparison& row);
std::optional<double> relative_difference(const MetricComparison& row);
// A value as the table prints it (fmt's shortest form), "-" when missing.
std::string value_text(const std::optional<double>& v);
// The two as the table prints them: "+12.5" and "+3.21%" (percent with 2 decimals, from
// the unrounded ratio), "-" when undefined.
std::string difference_text(const MetricComparison& row);
std::string relative_difference_text(const MetricComparison& row);

// A plain-text table, e.g.
//   metric                          A: scenario policy  B: naive-retry.json          B - A   (B - A) / A
//   tasks.total                                 2800                2800              0         0.00%
// Values as the JSON report has them (already rounded: ms to the microsecond, USD to the
// micro-dollar); differences rounded to 6 decimals; the relative difference in percent
// with 2 decimals, "-" when A is 0 or either value is missing.
std::string comparison_table(std::string_view label_a, std::string_view label_b,
                             const std::vector<MetricComparison>& rows);

}  // namespace squall

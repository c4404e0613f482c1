#include "reports/compare.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "engine/events.hpp"
#include "reports/json_writer.hpp"
#include "reports/rounding.hpp"

namespace squall {
namespace {

using nlohmann::json;

// A headline metric: a JSON Pointer into the report, "" for a derived one (task_success,
// then thresholds_passed). `since_openings`: the pointer is one of breaker_openings', which
// reports of version 1 written before squall counted openings lack; there, a report without
// it shows "-" instead of being refused.
struct Headline {
  std::string pointer;
  bool since_openings = false;
};

const std::vector<Headline>& headline() {
  static const std::vector<Headline> list = [] {
    std::vector<Headline> h;
    for (const char* p : {"/tasks/total",
                          "/tasks/succeeded",
                          "/tasks/degraded",
                          "/tasks/safe_failed",
                          "/tasks/failed",
                          "/tasks/wrong_answer",
                          "" /* task_success */,
                          "/latency_ms/p50",
                          "/latency_ms/p90",
                          "/latency_ms/p99",
                          "/latency_ms/max",
                          "/latency_ms/mean",
                          "/retry_amplification/overall",
                          "/tokens/input",
                          "/tokens/output",
                          "/tokens/burned_by_failed_attempts",
                          "/cost_usd/total",
                          "/cost_usd/burned_by_failed_attempts",
                          "/cost_usd/per_task",
                          "/task_spend/tokens/p50",
                          "/task_spend/tokens/p99",
                          "/task_spend/tokens/max",
                          "/task_spend/cost_usd/p50",
                          "/task_spend/cost_usd/p99",
                          "/task_spend/cost_usd/max",
                          "/breaker_transitions_total"}) {
      h.push_back({p});
    }
    // The openings by cause, in the JSON report's order (BreakerCause's, none left out).
    for (const BreakerCause cause : kBreakerCauses) {
      if (cause != BreakerCause::none) h.push_back({fmt::format("/breaker_openings/{}", to_string(cause)), true});
    }
    h.push_back({""});  // thresholds_passed, counted
    return h;
  }();
  return list;
}

std::optional<double> number_at(const json& report, const std::string& pointer) {
  const json::json_pointer p(pointer);
  if (!report.contains(p) || !report.at(p).is_number()) return std::nullopt;
  return report.at(p).get<double>();
}

std::optional<double> task_success(const json& r) {
  const auto total = number_at(r, "/tasks/total");
  const auto ok = number_at(r, "/tasks/succeeded");
  const auto degraded = number_at(r, "/tasks/degraded");
  if (!total || !ok || !degraded || *total == 0) return std::nullopt;
  return round_ratio((*ok + *degraded) / *total);
}

std::optional<double> thresholds_passed(const json& r) {
  if (!r.contains("thresholds") || !r["thresholds"].is_array()) return std::nullopt;
  double n = 0;
  for (const json& t : r["thresholds"]) n += t["passed"].get<bool>() ? 1 : 0;  // checked by report_problem
  return n;
}

// "/latency_ms/p99" -> "latency_ms.p99"
std::string name_of(const std::string& pointer) {
  std::string name = pointer.substr(1);
  std::replace(name.begin(), name.end(), '/', '.');
  return name;
}

// "a JSON string", "a JSON array", ... (nlohmann's type names), for messages.
std::string a_json(const json& v) { return fmt::format("a JSON {}", v.type_name()); }

// A value as a message shows it: short, JSON-spelled.
std::string shown(const json& v) {
  std::string text = v.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

std::string not_version_1(std::string_view pointer, const json& found, const char* expected) {
  return fmt::format("not a squall report of version {}: {} is {}, expected {}", kReportVersion, pointer,
                     found.is_discarded() ? "missing" : shown(found), expected);
}

// Why a headline value is out of what a squall report holds, or nullopt. Every headline
// metric is a count, a duration, an amount of money or a ratio of such, so never
// negative; counts are exact in a double only up to 2^53, and a larger value (1e308) makes
// B - A infinite; and the JSON writer rounds every value to at most 6 decimals
// (reports/rounding.hpp), so a positive value below 0.000001 (5e-324) is not one it wrote
// and, as A, would make (B - A) / A infinite.
std::optional<std::string> headline_value_problem(const std::string& pointer, const json& value) {
  if (!value.is_number()) return std::nullopt;
  if (const char* expected = headline_number_problem(value)) return not_version_1(pointer, value, expected);
  return std::nullopt;
}

// The first object on the way to `pointer` that is not one ("/tasks" of "/tasks/total"
// when /tasks is a string), as its pointer and value, or nullopt: a missing headline is
// then reported where the report went wrong, not as its missing leaf.
std::optional<std::string> parent_problem(const json& r, const std::string& pointer) {
  const json* at = &r;
  std::string walked;
  for (std::size_t start = 1; start <= pointer.size();) {
    const std::size_t end = std::min(pointer.find('/', start), pointer.size());
    if (!at->is_object()) return not_version_1(walked, *at, "an object");
    const std::string key = pointer.substr(start, end - start);
    const auto it = at->find(key);
    if (it == at->end()) return std::nullopt;
    at = &*it;
    walked = pointer.substr(0, end);
    start = end + 1;
  }
  return std::nullopt;
}

std::string text_at(const json& r, const char* key) {
  return r.contains(key) && r[key].is_string() ? r[key].get<std::string>() : std::string();
}

}  // namespace

std::optional<std::string> report_problem(const json& r) {
  if (!r.is_object()) return fmt::format("not a squall report: {}, not an object", a_json(r));
  if (!r.contains("squall_report_version")) return std::string("not a squall report: no squall_report_version");
  const json& version = r["squall_report_version"];
  if (!version.is_number_integer()) {
    return fmt::format("not a squall report: squall_report_version is {}, expected an integer", shown(version));
  }
  if (version.get<std::int64_t>() != kReportVersion) {
    return fmt::format("squall report version {}: this squall reads version {}", shown(version), kReportVersion);
  }
  const json missing(json::value_t::discarded);
  const auto at = [&](const char* key) -> const json& { return r.contains(key) ? r[key] : missing; };
  if (!at("scenario").is_string()) return not_version_1("/scenario", at("scenario"), "a string");
  if (!at("seed").is_number_unsigned()) return not_version_1("/seed", at("seed"), "an unsigned integer");
  if (!at("thresholds").is_array()) return not_version_1("/thresholds", at("thresholds"), "an array");
  // thresholds_passed counts the entries whose `passed` is true: each must say.
  const json& thresholds = at("thresholds");
  for (std::size_t i = 0; i < thresholds.size(); ++i) {
    const std::string pointer = fmt::format("/thresholds/{}", i);
    if (!thresholds[i].is_object()) return not_version_1(pointer, thresholds[i], "an object");
    const json& passed = thresholds[i].contains("passed") ? thresholds[i]["passed"] : missing;
    if (!passed.is_boolean()) return not_version_1(pointer + "/passed", passed, "a boolean");
  }
  for (const Headline& h : headline()) {
    if (h.pointer.empty()) continue;
    const json::json_pointer p(h.pointer);
    if (h.since_openings && !r.contains("breaker_openings")) continue;
    if (auto problem = parent_problem(r, h.pointer)) return problem;
    const json& value = r.contains(p) ? r.at(p) : missing;
    if (!value.is_number() && !value.is_null()) return not_version_1(h.pointer, value, "a number or null");
    if (auto problem = headline_value_problem(h.pointer, value)) return problem;
  }
  return std::nullopt;
}

std::vector<std::string> comparison_warnings(const json& a, const json& b) {
  std::vector<std::string> warnings;
  if (text_at(a, "scenario") != text_at(b, "scenario")) {
    warnings.push_back(fmt::format("the reports are of different scenarios: \"{}\" and \"{}\"", text_at(a, "scenario"),
                                   text_at(b, "scenario")));
  }
  if (a.value("seed", json()) != b.value("seed", json())) {
    warnings.push_back(fmt::format("the reports are of different seeds: {} and {}", shown(a.value("seed", json())),
                                   shown(b.value("seed", json()))));
  }
  return warnings;
}

std::optional<double> difference(const MetricComparison& row) {
  if (!row.a || !row.b) return std::nullopt;
  return round_to(*row.b - *row.a, 1e6);
}

std::optional<double> relative_difference(const MetricComparison& row) {
  if (!row.a || !row.b || *row.a == 0) return std::nullopt;
  return round_ratio((*row.b - *row.a) / std::fabs(*row.a));
}

std::string value_text(const std::optional<double>& v) { return v ? fmt::format("{}", *v) : "-"; }

std::string difference_text(const MetricComparison& row) {
  const auto d = difference(row);
  return d ? fmt::format("{:+}", *d) : "-";
}

std::string relative_difference_text(const MetricComparison& row) {
  if (!row.a || !row.b || *row.a == 0) return "-";
  return fmt::format("{:+.2f}%", 100.0 * (*row.b - *row.a) / std::fabs(*row.a));
}

const std::vector<std::string>& headline_metric_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    bool first_derived = true;
    for (const Headline& h : headline()) {
      if (!h.pointer.empty()) {
        out.push_back(name_of(h.pointer));
      } else {
        out.push_back(first_derived ? "task_success" : "thresholds_passed");
        first_derived = false;
      }
    }
    return out;
  }();
  return names;
}

std::vector<std::optional<double>> headline_metrics(const json& r) {
  if (const auto problem = report_problem(r)) throw std::runtime_error(*problem);
  std::vector<std::optional<double>> values;
  bool first_derived = true;
  for (const Headline& h : headline()) {
    if (!h.pointer.empty()) {
      values.push_back(number_at(r, h.pointer));
    } else {
      values.push_back(first_derived ? task_success(r) : thresholds_passed(r));
      first_derived = false;
    }
  }
  return values;
}

std::vector<MetricComparison> compare_reports(const json& a, const json& b) {
  const std::vector<std::optional<double>> va = headline_metrics(a);
  const std::vector<std::optional<double>> vb = headline_metrics(b);
  const std::vector<std::string>& names = headline_metric_names();
  std::vector<MetricComparison> rows;
  for (std::size_t i = 0; i < names.size(); ++i) rows.push_back({names[i], va[i], vb[i]});
  return rows;
}

std::string comparison_table(std::string_view label_a, std::string_view label_b,
                             const std::vector<MetricComparison>& rows) {
  std::size_t width = std::string_view("metric").size();
  for (const MetricComparison& row : rows) width = std::max(width, row.metric.size());
  const std::string a = fmt::format("A: {}", label_a);
  const std::string b = fmt::format("B: {}", label_b);
  const std::size_t wa = std::max<std::size_t>(a.size(), 14);
  const std::size_t wb = std::max<std::size_t>(b.size(), 14);
  std::string out =
      fmt::format("{:<{}}  {:>{}}  {:>{}}  {:>14}  {:>12}\n", "metric", width, a, wa, b, wb, "B - A", "(B - A) / A");
  for (const MetricComparison& row : rows) {
    const std::string diff = difference_text(row);
    const std::string relative = relative_difference_text(row);
    out += fmt::format("{:<{}}  {:>{}}  {:>{}}  {:>14}  {:>12}\n", row.metric, width, value_text(row.a), wa,
                       value_text(row.b), wb, diff, relative);
  }
  return out;
}

}  // namespace squall

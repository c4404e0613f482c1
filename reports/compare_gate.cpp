#include "reports/compare_gate.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "engine/text.hpp"
#include "reports/rounding.hpp"
#include "reports/sweep_stats.hpp"
#include "reports/writers/markdown_text.hpp"

namespace squall {
namespace {

constexpr const char* kShape =
    "expected METRIC:+MARGIN or METRIC:-MARGIN (a number, or a percentage with %), e.g. latency_ms.p99:+10% or "
    "task_success:-0.01";

std::string metric_list() {
  std::string list;
  for (const std::string& name : headline_metric_names()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

// Whether `text` is a plain non-negative decimal number (digits, one optional point): no
// exponent, no inf or nan, so a margin reads as the user wrote it.
std::optional<double> plain_number(std::string_view text) {
  if (text.empty() || text.size() > 32) return std::nullopt;
  if (std::any_of(text.begin(), text.end(), [](char c) { return !(c == '.' || (c >= '0' && c <= '9')); })) {
    return std::nullopt;
  }
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::string worse_word(bool higher) { return higher ? "higher" : "lower"; }

}  // namespace

std::variant<FailOn, std::string> parse_fail_on(const std::string& expression) {
  const std::string head = fmt::format("--fail-on \"{}\": ", expression);
  const std::size_t colon = expression.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == expression.size()) return head + kShape;
  FailOn gate;
  gate.expression = expression;
  gate.metric = expression.substr(0, colon);
  const auto& names = headline_metric_names();
  if (std::find(names.begin(), names.end(), gate.metric) == names.end()) {
    return head + fmt::format("unknown metric \"{}\"; the metrics are {}", gate.metric, metric_list());
  }
  std::string_view margin = std::string_view(expression).substr(colon + 1);
  const std::optional<Goal> goal = better_direction(gate.metric);
  const std::string sign_hint = goal == Goal::max ? "-" : "+";
  const char sign = margin.front();
  if (sign != '+' && sign != '-') {
    if (!goal) return head + fmt::format("the margin \"{}\" has no sign: + gates a rise, - a fall", margin);
    return head + fmt::format("the margin \"{}\" has no sign: write {}:{}{} (B is worse when {} is {})", margin,
                              gate.metric, sign_hint, margin, gate.metric, worse_word(goal == Goal::min));
  }
  gate.worse_is_higher = sign == '+';
  if (goal && gate.worse_is_higher != (goal == Goal::min)) {
    return head + fmt::format("B is worse when {} is {}: write {}:{}{}", gate.metric, worse_word(goal == Goal::min),
                              gate.metric, sign_hint, margin.substr(1));
  }
  std::string_view number = margin.substr(1);
  gate.relative = !number.empty() && number.back() == '%';
  if (gate.relative) number.remove_suffix(1);
  const std::optional<double> value = plain_number(number);
  if (!value)
    return head + fmt::format("the margin \"{}\" is not a number (digits with an optional point, e.g. {}10 or {}2.5%)",
                              margin, sign, sign);
  gate.margin = *value;
  return gate;
}

std::variant<std::vector<FailOn>, std::string> parse_fail_ons(const std::vector<std::string>& expressions) {
  std::vector<FailOn> gates;
  for (const std::string& e : expressions) {
    auto parsed = parse_fail_on(e);
    if (auto* error = std::get_if<std::string>(&parsed)) return std::move(*error);
    gates.push_back(std::get<FailOn>(std::move(parsed)));
  }
  return gates;
}

std::vector<GateResult> check_gates(const std::vector<FailOn>& gates, const std::vector<MetricComparison>& rows) {
  std::vector<GateResult> results;
  for (const FailOn& gate : gates) {
    GateResult r;
    r.gate = &gate;
    const auto row =
        std::find_if(rows.begin(), rows.end(), [&](const MetricComparison& m) { return m.metric == gate.metric; });
    if (row != rows.end()) {
      r.a = row->a;
      r.b = row->b;
    }
    if (r.a && r.b) {
      const double worse_by = round_ratio(gate.worse_is_higher ? *r.b - *r.a : *r.a - *r.b);
      const double allowed = round_ratio(gate.relative ? gate.margin / 100.0 * std::fabs(*r.a) : gate.margin);
      r.passed = worse_by <= allowed;
    }
    results.push_back(r);
  }
  return results;
}

std::string margin_text(const FailOn& gate) { return gate.expression.substr(gate.expression.rfind(':') + 1); }

std::size_t failed_gates(const std::vector<GateResult>& results) {
  return static_cast<std::size_t>(
      std::count_if(results.begin(), results.end(), [](const GateResult& r) { return !r.passed; }));
}

namespace {

std::string verdict(const std::vector<GateResult>& results) {
  const std::size_t failed = failed_gates(results);
  if (failed == 0) return fmt::format("all {} passed", results.size());
  return fmt::format("{} of {} failed", failed, results.size());
}

std::string missing_side(const GateResult& r) {
  if (!r.a && !r.b) return "neither A nor B has a value";
  return r.a ? "B has no value" : "A has no value";
}

MetricComparison row_of(const GateResult& r) { return MetricComparison{r.gate->metric, r.a, r.b}; }

}  // namespace

std::string gates_text(const std::vector<GateResult>& results) {
  std::string out;
  for (const GateResult& r : results) {
    const char* word = r.passed ? "pass" : "FAIL";
    if (!r.a || !r.b) {
      out += fmt::format("gate {}: {} ({})\n", escape_controls(r.gate->expression), word, missing_side(r));
      continue;
    }
    const MetricComparison row = row_of(r);
    out += fmt::format("gate {}: {} (A {}, B {}, B - A {}, {})\n", escape_controls(r.gate->expression), word,
                       value_text(r.a), value_text(r.b), difference_text(row), relative_difference_text(row));
  }
  out += fmt::format("gates: {}\n", verdict(results));
  return out;
}

std::string gates_markdown(const std::vector<GateResult>& results) {
  std::string out = fmt::format("\n#### Gates: {}\n\n", verdict(results));
  out += "| gate | A | B | B − A | (B − A) / A | margin | result |\n|:--|--:|--:|--:|--:|--:|:--|\n";
  for (const GateResult& r : results) {
    const MetricComparison row = row_of(r);
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", markdown_code(r.gate->metric), value_text(r.a),
                       value_text(r.b), difference_text(row), relative_difference_text(row),
                       markdown_text(margin_text(*r.gate)), r.passed ? "✅ pass" : "❌ fail");
  }
  return out;
}

}  // namespace squall

// Thresholds in k6's grammar: "<aggregation> <op> <value>" per metric
// (https://grafana.com/docs/k6/latest/using-k6/thresholds/).
//
//   aggregation: rate | p(N) | avg | min | max | med | count | sum
//   op:          < | <= | > | >= | ==
//   value:       a number; for time metrics a duration as engine/runtime/duration.hpp
//                reads scenario durations: units ns, us, ms, s, m, h, compounds in
//                decreasing order ("20s", "1.5m", "1m30s"), exact to the nanosecond. Time
//                values are normalised to milliseconds. Unlike k6, a bare number on a time
//                metric is an error: durations carry their unit everywhere in a scenario.
// Whitespace may appear between any two tokens ("p( 99 ) <= 20 s"); a duration's number
// and its first unit count as two tokens, the rest of a compound ("1m30s") is one.
//
// A metric may select a sub-metric by tags, as k6 does:
// "provider_calls{provider:web_search,outcome:rate_limited}". Metric names, tag names,
// closed tag vocabularies and which aggregations apply to which metric type come from
// reports/metric_catalogue.hpp.
//
// Errors are returned as messages (not thrown) without a path: the scenario loader
// prefixes file and JSON path. Each says what was expected and what was found.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "reports/metric_catalogue.hpp"

namespace squall {

enum class Aggregation : std::uint8_t { rate, percentile, avg, min, max, med, count, sum };
enum class Comparison : std::uint8_t { lt, le, gt, ge, eq };

struct ThresholdExpression {
  Aggregation aggregation = Aggregation::rate;
  double percentile = 0;  // for Aggregation::percentile, in (0, 100]
  Comparison op = Comparison::ge;
  double value = 0;  // time values are normalised to milliseconds
};

// A metric name with its optional tag selectors, e.g. "call_latency{provider:llm}".
struct MetricSelector {
  std::string metric_name;                  // without tags
  std::map<std::string, std::string> tags;  // tag name -> required value
};

// The share of seeds a threshold must hold on under `--seeds` (reports/pass_rate.hpp).
struct PassRateRequirement {
  Comparison op = Comparison::ge;  // >= or >
  double rate = 1;                 // a fraction of seeds in [0, 1]
};

struct Threshold {
  std::string metric;                       // as written, tags included
  std::string metric_name;                  // without tags
  std::map<std::string, std::string> tags;  // parsed tag selectors
  std::string expression;                   // as written
  ThresholdExpression parsed;
  // The object form's "pass_rate"; none: the threshold must hold on every seed.
  std::optional<PassRateRequirement> pass_rate;
};

// Parses and checks a metric key: the name must be in the catalogue, each tag must be one
// of the metric's tags, given once, with a non-empty value from its vocabulary. Errors:
//   expected "<metric>" or "<metric>{<tag>:<value>,...}" such as
//     "provider_calls{provider:web_search}", got "<metric>"
//   unknown metric "foo"; known: task_success, task_degraded, ...
//   unknown tag "region" for metric "call_latency"; known: provider, outcome
//   tag "provider" is given twice in "<metric>"
//   unknown value "x" for tag "outcome" of metric "provider_calls"; known: success, ...
// The loader can call it once per `thresholds` key to report the key's own path.
std::variant<MetricSelector, std::string> parse_metric(std::string_view metric);

// Parses one threshold: parse_metric(metric) first, then the expression, then whether the
// expression applies to the metric. Expression errors:
//   expected "<aggregation> <op> <value>" such as "p(99)<20s", got "fast"
//   unknown aggregation "median"; expected rate, p(N), avg, min, max, med, count or sum
//   expected a percentile such as "p(99)" or "p(99.9)", got "p(x)<5"
//   percentile must be in (0, 100], got 150
//   expected an operator (<, <=, >, >=, ==) after "p(99)", got "=20s"
//   expected a number after "p(99)<", got "fast"
//   unknown unit "d" in "2d"; expected ns, us, ms, s, m or h
//   expected <duration_expectation()>, got "<value>" for a duration that
//     parse_duration() rejects, e.g. expected a non-negative duration, got "-5s";
//     expected a duration string such as "250ms", got "30s1m"
//   unexpected ")" after "rate>=0.95"
// Applicability errors:
//   aggregation "p(99)" does not apply to rate metric "task_success"; use rate
//   a duration ("20s") applies only to time metrics (task_latency, call_latency,
//     cache_stale_age); "cost_usd" is not one
//   rate is a fraction in [0, 1], got 95
//   expected a duration with a unit for time metric "task_latency", such as
//     "p(99)<25ms", got "p(99)<25"
std::variant<Threshold, std::string> parse_threshold(std::string_view metric, std::string_view expression);

// The aggregation as written canonically: "rate", "p(99)", "p(99.9)", "avg", ...
std::string aggregation_name(const ThresholdExpression& expression);
// The operator as written: "<", "<=", ">", ">=", "==".
std::string_view to_string(Comparison op);

// Whether `observed <op> expression.value` holds. `==` is exact, as in k6: a rate of 1.0
// is exactly representable, and it is what `rate==1` is for.
bool holds(const ThresholdExpression& expression, double observed);

// How far `observed` lies inside the bound, in the metric's unit (milliseconds for time):
// bound - observed for < and <=, observed - bound for > and >=, -|observed - bound| for ==.
// Negative when the threshold fails (or sits on a strict bound at zero); a CI's test view can
// chart it over builds.
double margin(const ThresholdExpression& expression, double observed);

// The unit a time threshold's bound is written in, for printing what was observed in it:
// the expression's last unit ("s" in "p(95)<20s" and in "p(99)<1m30s") with its length in
// milliseconds; "ms" when the expression ends in none.
struct WrittenUnit {
  std::string_view name;
  double ms = 1;
};
WrittenUnit written_time_unit(std::string_view expression);

}  // namespace squall

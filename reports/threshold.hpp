// Thresholds in k6's grammar: "<aggregation> <op> <value>" per metric.
//
//   aggregation: rate | p(N) | avg | min | max | med | count | sum
//   op:          < | <= | > | >= | ==
//   value:       a number; for time metrics also a duration with a unit ("20s")
// A metric may select a sub-metric by tags, as k6 does:
// "provider_calls{provider:web_search,outcome:rate_limited}".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace squall {

enum class Aggregation : std::uint8_t { rate, percentile, avg, min, max, med, count, sum };
enum class Comparison : std::uint8_t { lt, le, gt, ge, eq };

struct ThresholdExpression {
  Aggregation aggregation = Aggregation::rate;
  double percentile = 0;  // for Aggregation::percentile, in (0, 100]
  Comparison op = Comparison::ge;
  double value = 0;       // time values are normalised to milliseconds
};

struct Threshold {
  std::string metric;                           // as written, tags included
  std::string metric_name;                      // without tags
  std::map<std::string, std::string> tags;      // parsed tag selectors
  std::string expression;                       // as written
  ThresholdExpression parsed;
};

// Parses one threshold. On failure returns a message saying what was expected and what
// was found (without a path: the scenario loader prefixes file and JSON path), e.g.
// `expected "<aggregation> <op> <value>" such as "p(99)<20s", got "fast"`.
std::variant<Threshold, std::string> parse_threshold(std::string_view metric, std::string_view expression);

}  // namespace squall

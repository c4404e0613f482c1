// margin() and written_time_unit() of reports/threshold.hpp: how a threshold's result is
// stated, apart from how thresholds are parsed and checked.
#include <cmath>
#include <string_view>
#include <utility>

#include "reports/threshold.hpp"

namespace squall {

double margin(const ThresholdExpression& expression, double observed) {
  const double bound = expression.value;
  switch (expression.op) {
    case Comparison::lt:
    case Comparison::le: return bound - observed;
    case Comparison::gt:
    case Comparison::ge: return observed - bound;
    case Comparison::eq: return -std::abs(observed - bound);
  }
  return 0;
}

WrittenUnit written_time_unit(std::string_view expression) {
  static constexpr std::pair<std::string_view, double> kUnits[] = {{"ns", 1e-6}, {"us", 1e-3}, {"ms", 1},
                                                                   {"s", 1e3},   {"m", 6e4},   {"h", 3.6e6}};
  std::size_t start = expression.size();
  while (start > 0 && expression[start - 1] >= 'a' && expression[start - 1] <= 'z') --start;
  const std::string_view last = expression.substr(start);
  for (const auto& [name, ms] : kUnits) {
    if (last == name) return {name, ms};
  }
  return {"ms", 1};
}

}  // namespace squall

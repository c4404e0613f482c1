#include "sim/scenario/threshold_reader.hpp"

#include <fmt/format.h>

namespace squall {

std::vector<Threshold> read_thresholds(const Json& value, const std::string& path, Diagnostics& diag) {
  std::vector<Threshold> thresholds;
  if (!value.is_object()) {
    diag.error(path, fmt::format("expected an object, got {}", describe(value)));
    return thresholds;
  }
  for (const auto& [metric, list] : value.items()) {
    const std::string metric_path = pointer_append(path, metric);
    if (auto selector = parse_metric(metric); std::holds_alternative<std::string>(selector)) {
      diag.error(metric_path, std::get<std::string>(std::move(selector)));
      continue;
    }
    const auto expressions = read_array(list, metric_path, diag, /*nonempty=*/true);
    for (std::size_t i = 0; i < expressions.size(); ++i) {
      const std::string expression_path = pointer_append(metric_path, i);
      const auto expression = read_string(expressions[i], expression_path, diag);
      if (!expression) continue;
      auto parsed = parse_threshold(metric, *expression);
      if (auto* message = std::get_if<std::string>(&parsed)) {
        diag.error(expression_path, std::move(*message));
      } else {
        thresholds.push_back(std::get<Threshold>(std::move(parsed)));
      }
    }
  }
  return thresholds;
}

}  // namespace squall

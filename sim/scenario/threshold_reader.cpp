#include "sim/scenario/threshold_reader.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace squall {
namespace {

std::string no_such_template(std::string_view name, const std::vector<std::string>& templates) {
  return fmt::format("no task template named \"{}\"; templates are: {}", name, fmt::join(templates, ", "));
}

// The scenario-bound tags of `selector`: provider, tool, from and to name tools or
// providers (fallbacks' from and to), templates
// name tasks.
void check_tags(const MetricSelector& selector, const ThresholdContext& context, const std::string& path,
                Diagnostics& diag) {
  for (const auto& [tag, value] : selector.tags) {
    // `to` is a breaker state for breaker_transitions and a provider for fallbacks.
    const bool names_one = tag == "provider" || tag == "tool" ||
                           (selector.metric_name == "fallbacks" && (tag == "from" || tag == "to"));
    if (names_one && context.providers != nullptr &&
        !context.providers->contains(value)) {
      diag.error(path, no_such_provider(value, *context.providers));
    } else if (tag == "template" && context.templates != nullptr &&
               std::find(context.templates->begin(), context.templates->end(), value) == context.templates->end()) {
      diag.error(path, no_such_template(value, *context.templates));
    }
  }
}

}  // namespace

std::vector<Threshold> read_thresholds(const Json& value, const std::string& path, const ThresholdContext& context,
                                       Diagnostics& diag) {
  std::vector<Threshold> thresholds;
  if (!value.is_object()) {
    diag.error(path, fmt::format("expected an object, got {}", describe(value)));
    return thresholds;
  }
  for (const auto& [metric, list] : value.items()) {
    const std::string metric_path = pointer_append(path, metric);
    auto selector = parse_metric(metric);
    if (auto* message = std::get_if<std::string>(&selector)) {
      diag.error(metric_path, std::move(*message));
      continue;
    }
    check_tags(std::get<MetricSelector>(selector), context, metric_path, diag);
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

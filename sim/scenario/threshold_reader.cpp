#include "sim/scenario/threshold_reader.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "mocks/chaos/fault.hpp"

namespace squall {
namespace {

std::string no_such_template(std::string_view name, const std::vector<std::string>& templates) {
  return fmt::format("no task template named \"{}\"; templates are: {}", name, fmt::join(templates, ", "));
}

// The scenario-bound tags of `selector`: provider names (provider:, and fallbacks' from:
// and to:), tool names (tool:; the owner of a breaker or a cache, whose metrics are the
// cache_* ones, may also be a provider whose own stack holds it), task names
// (template:), and fault kinds (injected_faults' kind:, the chaos layer's vocabulary,
// which reports/ does not link).
void check_tags(const MetricSelector& selector, const ThresholdContext& context, const std::string& path,
                Diagnostics& diag) {
  const bool fallbacks = selector.metric_name == "fallbacks";
  for (const auto& [tag, value] : selector.tags) {
    if (context.names != nullptr && (tag == "provider" || (fallbacks && (tag == "from" || tag == "to")))) {
      if (!context.names->providers.contains(value)) diag.error(path, no_such_provider(value, context.names->providers));
    } else if (context.names != nullptr && tag == "tool") {
      const bool stack_metric = selector.metric_name == "breaker_transitions" ||
                                selector.metric_name == "breaker_openings" || selector.metric_name.starts_with("cache_");
      const bool owner = stack_metric && context.names->providers.contains(value);
      if (!context.names->tools.contains(value) && !owner) diag.error(path, context.names->no_such_tool(value));
    } else if (tag == "template" && context.templates != nullptr &&
               std::find(context.templates->begin(), context.templates->end(), value) == context.templates->end()) {
      diag.error(path, no_such_template(value, *context.templates));
    } else if (tag == "kind" && selector.metric_name == "injected_faults" && !parse_fault_kind(value)) {
      std::vector<std::string_view> kinds;
      for (std::size_t i = 0; i < kFaultKindCount; ++i) kinds.push_back(to_string(static_cast<FaultKind>(i)));
      diag.error(path, fmt::format("unknown value \"{}\" for tag \"kind\" of metric \"injected_faults\"; known: {}", value,
                                   fmt::join(kinds, ", ")));
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

#include "sim/scenario/threshold_reader.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "engine/events.hpp"
#include "engine/runtime/duration.hpp"
#include "engine/strategies/relax_threshold.hpp"
#include "mocks/chaos/fault.hpp"
#include "reports/metric_catalogue.hpp"
#include "reports/pass_rate.hpp"
#include "reports/recorder.hpp"

namespace squall {
namespace {

std::string no_such_template(std::string_view name, const std::vector<std::string>& templates) {
  return fmt::format("no task template named \"{}\"; templates are: {}", name, fmt::join(templates, ", "));
}

// The scenario-bound tags of `selector`: provider names (provider:, and fallbacks' from:
// and to:), tool names (tool:; where the catalogue says the tag names an owner, a breaker's,
// cache's, hedging's or limiter's, it may also be a provider whose own stack holds it), task names
// (template:), and fault kinds (injected_faults' kind:, the chaos layer's vocabulary,
// which reports/ does not link).
void check_tags(const MetricSelector& selector, const ThresholdContext& context, const std::string& path,
                Diagnostics& diag) {
  const bool fallbacks = selector.metric_name == "fallbacks";
  for (const auto& [tag, value] : selector.tags) {
    if (context.names != nullptr && (tag == "provider" || (fallbacks && (tag == "from" || tag == "to")))) {
      if (!context.names->providers.contains(value))
        diag.error(path, no_such_provider(value, context.names->providers));
    } else if (context.names != nullptr && tag == "tool") {
      const MetricInfo* metric = find_metric(selector.metric_name);
      const TagInfo* info = metric == nullptr ? nullptr : find_tag(*metric, tag);
      const bool owner =
          info != nullptr && info->values == TagValues::owner && context.names->providers.contains(value);
      if (!context.names->tools.contains(value) && !owner) diag.error(path, context.names->no_such_tool(value));
    } else if (tag == "template" && context.templates != nullptr &&
               std::find(context.templates->begin(), context.templates->end(), value) == context.templates->end()) {
      diag.error(path, no_such_template(value, *context.templates));
    } else if (tag == "kind" && selector.metric_name == "injected_faults" && !parse_fault_kind(value)) {
      std::vector<std::string_view> kinds;
      for (std::size_t i = 0; i < kFaultKindCount; ++i) kinds.push_back(to_string(static_cast<FaultKind>(i)));
      diag.error(path, fmt::format("unknown value \"{}\" for tag \"kind\" of metric \"injected_faults\"; known: {}",
                                   value, fmt::join(kinds, ", ")));
    }
  }
}

// Whether a threshold on capacity metric `metric` naming `provider` (empty: no provider
// tag, every provider) can observe anything; an error at `path` when it cannot. See the
// header's messages.
void check_capacity_metric(const MetricSelector& selector, const ThresholdContext& context, const std::string& path,
                           Diagnostics& diag) {
  const std::string& metric = selector.metric_name;
  if (context.providers == nullptr || !metric.starts_with("capacity_")) return;
  const bool recovery = metric == "capacity_recovery_time";
  const auto tag = selector.tags.find("provider");
  const std::string_view wanted = tag == selector.tags.end() ? std::string_view() : std::string_view(tag->second);
  bool observable = false;
  for (const ProviderConfig& p : *context.providers) {
    if (!wanted.empty() && p.name != wanted) continue;
    if (!p.capacity && p.quota_group.empty()) {  // a quota group's member has a capacity layer too
      if (!wanted.empty()) {
        diag.error(path,
                   fmt::format("provider \"{}\" has no capacity block, so {} observes nothing for it", p.name, metric));
      }
      continue;
    }
    if (!recovery) {
      observable = true;
      continue;
    }
    static const std::vector<CapacityDrop> kNoDrops;
    const std::vector<CapacityDrop>& drops = p.capacity ? p.capacity->drops : kNoDrops;
    if (drops.empty()) {
      if (!wanted.empty()) {
        diag.error(path,
                   fmt::format("provider \"{}\" has no capacity drops, so {} observes nothing for it", p.name, metric));
      }
      continue;
    }
    // capacity_recovery() needs a whole report window before the first drop for its
    // baseline (reports/capacity_recovery.hpp); without one there is nothing to recover to.
    const Nanos window = RecorderOptions{}.window;
    if (drops.front().from < window) {
      diag.error(path, fmt::format("the first capacity drop of provider \"{}\" starts at {}, before the end of the "
                                   "first report window ({}): recovery is judged against the goodput of the whole "
                                   "windows before the first drop, so {} would observe nothing",
                                   p.name, format_duration(drops.front().from), format_duration(window), metric));
      observable = true;  // reported; no second error for the metric as a whole
      continue;
    }
    if (context.run_end && drops.back().to >= *context.run_end) {
      diag.error(
          path, fmt::format("the last capacity drop of provider \"{}\" ends at {}, not before the end of the run "
                            "(duration {}): recovery is measured from a drop's end, so {} would observe only "
                            "\"not recovered\"",
                            p.name, drops.back().to == kNever ? std::string("never") : format_duration(drops.back().to),
                            format_duration(*context.run_end), metric));
      observable = true;  // reported; no second error for the metric as a whole
      continue;
    }
    observable = true;
  }
  // A provider tag naming no provider at all is check_tags' error.
  if (!wanted.empty() || observable) return;
  diag.error(path, recovery ? fmt::format("no provider has capacity drops, so {} observes nothing", metric)
                            : fmt::format("no provider has a capacity block, so {} observes nothing", metric));
}

// A ladder_rungs `rung:` that no ladder can give: the threshold would count nothing. The
// values are relax_threshold's labels ("dense 0.75", "keyword": is_relax_label) and
// rewrite_query's results, checked against the `strategy:` tag when there is one. The
// labels are checked by shape, not against this scenario's ladders, so that a policy file
// given at run time (--policy, a sweep's variants) may bring its own.
void check_rung(const MetricSelector& selector, const std::string& path, Diagnostics& diag) {
  if (selector.metric_name != "ladder_rungs") return;
  const auto rung = selector.tags.find("rung");
  if (rung == selector.tags.end()) return;
  const auto strategy = selector.tags.find("strategy");
  const std::string_view only = strategy == selector.tags.end() ? std::string_view() : strategy->second;
  std::vector<std::string_view> results;
  for (std::size_t i = 0; i < kRewriteResultCount; ++i) results.push_back(to_string(static_cast<RewriteResult>(i)));
  const bool relax = only != "rewrite_query" && is_relax_label(rung->second);
  const bool rewrite =
      only != "relax_threshold" && std::find(results.begin(), results.end(), rung->second) != results.end();
  if (relax || rewrite) return;
  const std::string relax_known =
      "relax_threshold's \"keyword\" and \"dense <score>\" as its events write it "
      "(\"dense 0.75\")";
  const std::string rewrite_known = fmt::format("rewrite_query's {}", fmt::join(results, ", "));
  const std::string known = only == "relax_threshold" ? relax_known
                            : only == "rewrite_query" ? rewrite_known
                                                      : relax_known + "; " + rewrite_known;
  diag.error(path, fmt::format("unknown value \"{}\" for tag \"rung\" of metric \"ladder_rungs\"; known: {}",
                               rung->second, known));
}

// One element of a metric's list: an expression, or k6's object form with a pass rate,
// {"threshold": "rate>=0.95", "pass_rate": ">=0.9"} (reports/pass_rate.hpp).
std::optional<Threshold> read_one(const std::string& metric, const Json& value, const std::string& path,
                                  Diagnostics& diag) {
  std::string expression_path = path;
  const Json* expression_value = &value;
  std::optional<PassRateRequirement> pass_rate;
  bool pass_rate_valid = true;
  if (value.is_object()) {
    const ObjectReader obj(value, path, diag, {"threshold", "pass_rate"});
    expression_value = obj.require("threshold");
    expression_path = obj.path_of("threshold");
    if (const Json* rate = obj.find("pass_rate")) {
      pass_rate_valid = false;
      if (const auto text = read_string(*rate, obj.path_of("pass_rate"), diag)) {
        auto parsed = parse_pass_rate(*text);
        if (auto* message = std::get_if<std::string>(&parsed)) {
          diag.error(obj.path_of("pass_rate"), std::move(*message));
        } else {
          pass_rate = std::get<PassRateRequirement>(parsed);
          pass_rate_valid = true;
        }
      }
    }
    if (expression_value == nullptr) return std::nullopt;
  }
  const auto expression = read_string(*expression_value, expression_path, diag);
  if (!expression) return std::nullopt;
  auto parsed = parse_threshold(metric, *expression);
  if (auto* message = std::get_if<std::string>(&parsed)) {
    diag.error(expression_path, std::move(*message));
    return std::nullopt;
  }
  if (!pass_rate_valid) return std::nullopt;
  Threshold threshold = std::get<Threshold>(std::move(parsed));
  threshold.pass_rate = pass_rate;
  return threshold;
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
    check_capacity_metric(std::get<MetricSelector>(selector), context, metric_path, diag);
    check_rung(std::get<MetricSelector>(selector), metric_path, diag);
    const auto expressions = read_array(list, metric_path, diag, /*nonempty=*/true);
    for (std::size_t i = 0; i < expressions.size(); ++i) {
      if (auto threshold = read_one(metric, expressions[i], pointer_append(metric_path, i), diag)) {
        thresholds.push_back(std::move(*threshold));
      }
    }
  }
  return thresholds;
}

}  // namespace squall

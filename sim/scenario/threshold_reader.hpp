// Reading the `thresholds` block of a scenario: metric -> [expression, ...], k6's shape:
//   { "task_success": ["rate>=0.95"], "task_latency": ["p(99)<20s", "avg<5s"] }
// An element may also be k6's object form, with the share of seeds it must hold on under
// --seeds (reports/pass_rate.hpp): { "threshold": "rate>=0.95", "pass_rate": ">=0.9" }.
#pragma once

#include <string>
#include <vector>

#include "reports/threshold.hpp"
#include "sim/scenario/json_reader.hpp"
#include "sim/scenario/provider_reader.hpp"

namespace squall {

// What the values of the open tags (reports/metric_catalogue.hpp's TagValues::any) are
// checked against. A null member leaves its tags unchecked: the block it comes from is
// invalid, and its own errors are reported there.
struct ThresholdContext {
  // `provider:`, and fallbacks' `from:` and `to:`, name providers; `tool:` names tools
  // (breaker_transitions' also providers, whose stacks hold breakers too).
  const ScenarioNames* names = nullptr;
  const std::vector<std::string>* templates = nullptr;  // `template:`: the workload's task names
  // The capacity_* metrics observe providers with a capacity block (capacity_recovery_time:
  // with drops, the last ending before the run does); null: unchecked.
  const std::vector<ProviderConfig>* providers = nullptr;
  std::optional<Nanos> run_end;  // the scenario's duration, when valid
};

// Thresholds in file order. Each key is checked once with parse_metric (its error is
// reported at `/thresholds/<metric>`), each expression with parse_threshold (at
// `/thresholds/<metric>/<i>`); their messages are reports/threshold.hpp's. A metric's
// list must be a non-empty array of strings and objects; an object's keys are "threshold"
// (required, the expression, its errors at `.../<i>/threshold`) and "pass_rate" (its
// errors, parse_pass_rate's, at `.../<i>/pass_rate`); any other key is an error. A tag naming something the scenario
// does not have would select nothing, so the threshold could never fail; it is reported at the metric's key, one error
// per tag:
//   `no provider named "web_serch"; providers are: llm, web_search`
//   `no tool named "answr"; tools are: answer, web`
//   `unknown value "blah" for tag "kind" of metric "injected_faults"; known: timeout, ...`
//   `no task template named "resarch"; templates are: research`
//   `unknown value "dense 0.750" for tag "rung" of metric "ladder_rungs"; known: ...` (a
//    rung no ladder can give, by shape: relax_threshold's "keyword" and "dense <score>"
//    as its events write the score, rewrite_query's results)
// A capacity_* metric that could observe nothing is reported there too (the provider named,
// or without a provider tag every provider, lacks what the metric measures):
//   `provider "gpt" has no capacity block, so capacity_goodput observes nothing for it`
//   `no provider has a capacity block, so capacity_goodput observes nothing`
//   `provider "gpt" has no capacity drops, so capacity_recovery_time observes nothing for it`
//   `no provider has capacity drops, so capacity_recovery_time observes nothing`
//   `the first capacity drop of provider "gpt" starts at 5s, before the end of the first
//    report window (10s): recovery is judged against the goodput of the whole windows
//    before the first drop, so capacity_recovery_time would observe nothing`
//   `the last capacity drop of provider "gpt" ends at 12m, not before the end of the run
//    (duration 10m): recovery is measured from a drop's end, so capacity_recovery_time
//    would observe only "not recovered"`
std::vector<Threshold> read_thresholds(const Json& value, const std::string& path, const ThresholdContext& context,
                                       Diagnostics& diag);

}  // namespace squall

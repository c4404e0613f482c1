#include "cli/truncation_warning.hpp"

#include <algorithm>
#include <variant>

#include <fmt/format.h>

#include "mocks/llm.hpp"

namespace squall::cli {
namespace {

// The LLM config serving `tool` first, or null when it is not an LLM's.
const LlmConfig* primary_llm(const Scenario& scenario, const std::string& tool, const std::string** provider) {
  const auto t =
      std::find_if(scenario.tools.begin(), scenario.tools.end(), [&](const ToolConfig& c) { return c.name == tool; });
  if (t == scenario.tools.end()) return nullptr;
  const auto p = std::find_if(scenario.providers.begin(), scenario.providers.end(),
                              [&](const ProviderConfig& c) { return c.name == t->provider; });
  if (p == scenario.providers.end()) return nullptr;
  *provider = &p->name;
  return std::get_if<LlmConfig>(&p->spec);
}

}  // namespace

std::vector<std::string> truncation_warnings(const Scenario& scenario) {
  std::vector<std::string> warnings;
  const std::vector<TaskTemplate>& tasks = scenario.workload.tasks;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    for (std::size_t j = 0; j < tasks[i].steps.size(); ++j) {
      const StepConfig& step = tasks[i].steps[j];
      const std::string* provider = nullptr;
      const LlmConfig* llm = primary_llm(scenario, step.tool, &provider);
      if (llm == nullptr) continue;
      const double rate = truncation_rate(*llm, step.max_output_tokens);
      if (rate <= kTruncationWarningRate) continue;
      const bool step_cap = step.max_output_tokens > 0 && step.max_output_tokens < llm->max_output_tokens;
      const std::string where = step_cap ? fmt::format("/workload/tasks/{}/steps/{}/max_output_tokens", i, j)
                                         : fmt::format("/providers/{}/max_output_tokens", *provider);
      warnings.push_back(
          fmt::format("warning: {}: {}: a cap of {} cuts {:.1f}% of the answers of provider \"{}\" (mean_output_tokens "
                      "{}); answers "
                      "stop at finish_reason length",
                      scenario.source.string(), where, step_cap ? step.max_output_tokens : llm->max_output_tokens,
                      rate * 100, *provider, llm->mean_output_tokens));
    }
  }
  return warnings;
}

}  // namespace squall::cli

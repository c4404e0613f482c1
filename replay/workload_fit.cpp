#include "replay/workload_fit.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <utility>

#include "sim/workload_config.hpp"

namespace squall::replay {
namespace {

constexpr std::int64_t kSecondNs = 1'000'000'000;
// A deadline shows in a trace as tasks failing at one length: two or more at the longest.
constexpr std::uint64_t kMinTasksAtDeadline = 2;
// Without one, the loader's default deadline (sim/workload_config.hpp).
const std::int64_t kDefaultDeadlineNs = TaskTemplate{}.deadline;

using Sequence = std::vector<std::string>;

struct TaskShape {
  Sequence tools;
  bool stopped_early = false;  // its last call failed: the sequence may be a prefix
  const ReplayTask* task = nullptr;
};

bool is_prefix(const Sequence& prefix, const Sequence& of) {
  return prefix.size() < of.size() && std::equal(prefix.begin(), prefix.end(), of.begin());
}

// The template a task joins: its own sequence, or the most frequent longer one it is a
// prefix of when it stopped early (ties: the first in sequence order).
const Sequence& template_of(const TaskShape& shape, const std::map<Sequence, std::uint64_t>& counts) {
  if (!shape.stopped_early) return shape.tools;
  const Sequence* best = &shape.tools;
  std::uint64_t best_count = 0;
  for (const auto& [sequence, n] : counts) {
    if (is_prefix(shape.tools, sequence) && n > best_count) {
      best = &sequence;
      best_count = n;
    }
  }
  return *best;
}

std::int64_t median(std::vector<std::int64_t> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[(values.size() - 1) / 2];
}

std::string template_name(const std::vector<const ReplayTask*>& tasks, std::size_t index) {
  std::map<std::string, std::uint64_t> names;
  for (const ReplayTask* t : tasks)
    if (!t->name.empty()) ++names[t->name];
  std::string best = fmt::format("task-{}", index + 1);
  std::uint64_t best_count = 0;
  for (const auto& [name, n] : names) {
    if (n > best_count) {
      best = name;
      best_count = n;
    }
  }
  return best;
}

FittedTemplate make_template(const Sequence& tools, const std::vector<const ReplayTask*>& tasks,
                             const TraceData& data) {
  FittedTemplate t;
  t.tasks = tasks.size();
  std::vector<std::vector<std::int64_t>> prompts(tools.size());
  std::vector<std::int64_t> longest(tools.size(), 0);
  std::vector<bool> cut(tools.size(), false);  // a truncated attempt at the longest output
  for (const std::string& tool : tools) t.steps.push_back(FittedStep{tool, false, 0, 0, 0});
  for (const ReplayTask* task : tasks) {
    for (std::size_t i = 0; i < task->calls.size() && i < tools.size(); ++i) {
      const LogicalCall& call = task->calls[i];
      ++t.steps[i].calls;
      if (!answered(call.outcome) && i + 1 < task->calls.size()) t.steps[i].optional = true;
      const AttemptRecord& first = data.attempts[call.attempts.front()];
      if (kind_of_operation(first.operation) != ProviderKind::llm) continue;
      if (first.input_tokens) prompts[i].push_back(*first.input_tokens);
      for (std::size_t a : call.attempts) {
        const AttemptRecord& attempt = data.attempts[a];
        const std::int64_t out = attempt.output_tokens.value_or(0);
        if (out > longest[i]) cut[i] = false;
        longest[i] = std::max(longest[i], out);
        if (out == longest[i] && attempt.outcome == OutcomeKind::truncated) cut[i] = true;
      }
    }
  }
  for (std::size_t i = 0; i < tools.size(); ++i) {
    t.steps[i].prompt_tokens = median(prompts[i]);
    if (cut[i]) t.steps[i].max_output_tokens = longest[i];
  }
  return t;
}

std::vector<FittedTool> fit_tools(const TraceData& data, const Grouping& grouping) {
  std::map<std::string, std::map<std::string, std::uint64_t>> firsts;  // tool -> provider -> calls
  for (const ReplayTask& task : grouping.tasks) {
    for (const LogicalCall& call : task.calls) {
      const AttemptRecord& first = data.attempts[call.attempts.front()];
      ++firsts[tool_of(first)][first.provider];
    }
  }
  std::vector<FittedTool> tools;
  for (const auto& [tool, providers] : firsts) {
    FittedTool t{tool, "", 0};
    std::uint64_t best = 0;
    for (const auto& [provider, n] : providers) {
      t.calls += n;
      if (n > best) {
        t.provider = provider;
        best = n;
      }
    }
    tools.push_back(std::move(t));
  }
  return tools;
}

// The deadline rule of workload_fit.hpp; fit.deadline_ns holds the longest task.
void fit_deadline(WorkloadFit& fit, const Grouping& grouping) {
  const std::int64_t longest = fit.deadline_ns;
  for (const ReplayTask& task : grouping.tasks) {
    const bool failed = !task.calls.empty() && !answered(task.calls.back().outcome);
    if (failed && (task.end_ns - task.start_ns) * 20 >= longest * 19) ++fit.tasks_at_deadline;
  }
  fit.deadline_seen = fit.tasks_at_deadline >= kMinTasksAtDeadline;
  const std::int64_t deadline = fit.deadline_seen ? longest : std::max(longest, kDefaultDeadlineNs);
  // Whole seconds, at least one: the deadline is a ceiling, never below a task seen.
  fit.deadline_ns = std::max<std::int64_t>(kSecondNs, (deadline + kSecondNs - 1) / kSecondNs * kSecondNs);
}

}  // namespace

ProviderKind kind_of_operation(const std::string& operation) {
  if (operation == "retrieval" || operation == "execute_tool") return ProviderKind::tool;
  return ProviderKind::llm;
}

const std::string& tool_of(const AttemptRecord& first_attempt) {
  return first_attempt.tool.empty() ? first_attempt.provider : first_attempt.tool;
}

WorkloadFit fit_workload(const TraceData& data, const Grouping& grouping) {
  WorkloadFit fit;
  fit.tools = fit_tools(data, grouping);
  std::vector<TaskShape> shapes;
  std::map<Sequence, std::uint64_t> counts;
  for (const ReplayTask& task : grouping.tasks) {
    fit.deadline_ns = std::max(fit.deadline_ns, task.end_ns - task.start_ns);
    if (task.calls.empty()) continue;
    TaskShape shape;
    shape.task = &task;
    for (const LogicalCall& call : task.calls) shape.tools.push_back(tool_of(data.attempts[call.attempts.front()]));
    shape.stopped_early = !answered(task.calls.back().outcome);
    ++counts[shape.tools];
    shapes.push_back(std::move(shape));
  }
  fit.tasks = shapes.size();
  fit_deadline(fit, grouping);
  std::map<Sequence, std::vector<const ReplayTask*>> members;
  for (const TaskShape& shape : shapes) members[template_of(shape, counts)].push_back(shape.task);
  for (const auto& [tools, tasks] : members) {
    fit.templates.push_back(make_template(tools, tasks, data));
    fit.templates.back().name = template_name(tasks, fit.templates.size() - 1);
  }
  std::stable_sort(fit.templates.begin(), fit.templates.end(),
                   [](const FittedTemplate& a, const FittedTemplate& b) { return a.tasks > b.tasks; });
  // Template names are unique in a scenario: a name taken twice gets its rank appended.
  // Token settings belong to steps whose tool an LLM serves (the loader refuses them on
  // others): a tool whose calls begin with an LLM call inside it (a query rewrite) is not one.
  std::map<std::string, ProviderKind> kinds;
  for (const AttemptRecord& a : data.attempts) kinds.emplace(a.provider, kind_of_operation(a.operation));
  for (FittedTemplate& t : fit.templates) {
    for (FittedStep& s : t.steps) {
      const auto tool =
          std::find_if(fit.tools.begin(), fit.tools.end(), [&](const FittedTool& x) { return x.name == s.tool; });
      if (tool != fit.tools.end() && kinds[tool->provider] == ProviderKind::llm) continue;
      s.prompt_tokens = 0;
      s.max_output_tokens = 0;
    }
  }
  std::map<std::string, int> used;
  for (FittedTemplate& t : fit.templates)
    if (++used[t.name] > 1) t.name = fmt::format("{}-{}", t.name, used[t.name]);
  return fit;
}

}  // namespace squall::replay

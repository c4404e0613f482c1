#include "sim/scenario/workload_reader.hpp"

#include <array>

#include <fmt/format.h>

#include "sim/scenario/duration.hpp"
#include "sim/scenario/time_window.hpp"

namespace squall {
namespace {

constexpr std::array<std::string_view, 2> kProcessNames{"poisson", "constant"};
constexpr std::array<ArrivalProcess, 2> kProcesses{ArrivalProcess::poisson, ArrivalProcess::constant};

using QueryLists = std::map<std::string, std::vector<std::string>, std::less<>>;

void read_bursts(const ObjectReader& arrivals, const WorkloadContext& context, std::vector<Burst>& out) {
  const Json* list = arrivals.find("bursts");
  if (list == nullptr) return;
  const std::string path = arrivals.path_of("bursts");
  const auto elements = read_array(*list, path, arrivals.diag(), /*nonempty=*/false);
  std::vector<std::size_t> indices;  // each valid burst's index in the file
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const ObjectReader obj(elements[i], pointer_append(path, i), arrivals.diag(), {"from", "to", "rate_per_s"});
    if (!obj.valid()) continue;
    Burst burst;
    const bool window_ok = read_window(obj, /*required=*/true, context.run_end, burst.from, burst.to);
    const bool rate_ok = obj.get_number_required("rate_per_s", burst.rate_per_s, kPositive);
    if (!window_ok || !rate_ok) continue;
    // Overlapping bursts would leave the rate ambiguous.
    for (std::size_t j = 0; j < out.size(); ++j) {
      if (burst.from < out[j].to && out[j].from < burst.to) {
        arrivals.diag().error(pointer_append(path, i),
                              fmt::format("overlaps burst {} [{}, {})", indices[j], format_duration(out[j].from),
                                          format_duration(out[j].to)));
      }
    }
    out.push_back(burst);
    indices.push_back(i);
  }
}

ArrivalConfig read_arrivals(const Json& value, const std::string& path, const WorkloadContext& context,
                            Diagnostics& diag) {
  ArrivalConfig config;
  const ObjectReader obj(value, path, diag, {"process", "rate_per_s", "bursts", "max_tasks"});
  obj.get_choice<ArrivalProcess>("process", config.process, kProcessNames, kProcesses);
  obj.get("rate_per_s", config.rate_per_s, kPositive);
  read_bursts(obj, context, config.bursts);
  std::int64_t max_tasks = 0;
  if (obj.get("max_tasks", max_tasks, kPositiveInt)) config.max_tasks = max_tasks;
  return config;
}

QueryLists read_queries(const Json& value, const std::string& path, Diagnostics& diag) {
  QueryLists lists;
  if (!value.is_object()) {
    diag.error(path, fmt::format("expected an object, got {}", describe(value)));
    return lists;
  }
  for (const auto& [name, list] : value.items()) {
    const std::string list_path = pointer_append(path, name);
    if (name.empty()) diag.error(list_path, "expected a non-empty query list name");
    std::vector<std::string> queries;
    const auto elements = read_array(list, list_path, diag, /*nonempty=*/true);
    for (std::size_t i = 0; i < elements.size(); ++i) {
      if (auto text = read_nonempty_string(elements[i], pointer_append(list_path, i), diag)) {
        queries.push_back(std::move(*text));
      }
    }
    lists.emplace(name, std::move(queries));
  }
  return lists;
}

std::string no_such_query_list(std::string_view name, const QueryLists& lists) {
  std::string known;
  for (const auto& [list, queries] : lists) known += fmt::format("{}{}", known.empty() ? "" : ", ", list);
  if (known.empty()) return fmt::format("no query list named \"{}\"; workload.queries has none", name);
  return fmt::format("no query list named \"{}\"; workload.queries has: {}", name, known);
}

StepConfig read_step(const Json& value, const std::string& path, const WorkloadContext& context,
                     const QueryLists& queries, Diagnostics& diag) {
  StepConfig step;
  const ObjectReader obj(value, path, diag, {"tool", "query_from", "prompt_tokens", "max_output_tokens"});
  if (!obj.valid()) return step;
  // The tool's type decides which other keys the step needs; it stays unknown when the
  // provider's own entry is invalid (that entry reports it).
  std::optional<ProviderType> type;
  if (obj.require("tool") != nullptr && obj.get_nonempty("tool", step.tool) && context.providers != nullptr) {
    const auto provider = context.providers->find(step.tool);
    if (provider == context.providers->end()) {
      diag.error(obj.path_of("tool"), no_such_provider(step.tool, *context.providers));
    } else {
      type = provider->second;
    }
  }

  if (obj.find("query_from") != nullptr) {
    if (type == ProviderType::llm) {
      diag.error(obj.path_of("query_from"),
                 fmt::format("applies only to web_search steps; {}", provider_is(step.tool, *type)));
    } else if (std::string list; obj.get_nonempty("query_from", list)) {
      if (!queries.contains(list)) diag.error(obj.path_of("query_from"), no_such_query_list(list, queries));
      step.query_from = std::move(list);
    }
  } else if (type == ProviderType::web_search) {
    diag.error(path,
               "missing required key \"query_from\" (steps calling a web_search provider draw their query "
               "from a workload.queries list)");
  }

  for (const auto& [key, field] :
       {std::pair{"prompt_tokens", &step.prompt_tokens}, std::pair{"max_output_tokens", &step.max_output_tokens}}) {
    if (obj.find(key) == nullptr) continue;
    if (type == ProviderType::web_search) {
      diag.error(obj.path_of(key), fmt::format("applies only to llm steps; {}", provider_is(step.tool, *type)));
    } else {
      obj.get(key, *field, kNonNegativeInt);
    }
  }
  return step;
}

std::vector<TaskTemplate> read_tasks(const Json& value, const std::string& path, const WorkloadContext& context,
                                     const QueryLists& queries, Diagnostics& diag) {
  std::vector<TaskTemplate> tasks;
  std::map<std::string, std::size_t, std::less<>> first_index;  // task name -> first task using it
  const auto elements = read_array(value, path, diag, /*nonempty=*/true);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const std::string task_path = pointer_append(path, i);
    const ObjectReader obj(elements[i], task_path, diag, {"name", "weight", "deadline", "steps"});
    if (!obj.valid()) continue;
    TaskTemplate task;
    if (obj.require("name") != nullptr && obj.get("name", task.name) &&
        check_name(task.name, "task name", obj.path_of("name"), diag)) {
      const auto [it, inserted] = first_index.emplace(task.name, i);
      if (!inserted) {
        diag.error(obj.path_of("name"),
                   fmt::format("duplicate task name \"{}\" (also {})", task.name, pointer_append(path, it->second)));
      }
    }
    obj.get("weight", task.weight, kPositive);
    obj.get_duration("deadline", task.deadline, DurationMin::positive);
    if (const Json* steps = obj.require("steps")) {
      const std::string steps_path = obj.path_of("steps");
      const auto step_elements = read_array(*steps, steps_path, diag, /*nonempty=*/true);
      for (std::size_t j = 0; j < step_elements.size(); ++j) {
        task.steps.push_back(read_step(step_elements[j], pointer_append(steps_path, j), context, queries, diag));
      }
    }
    tasks.push_back(std::move(task));
  }
  return tasks;
}

}  // namespace

WorkloadConfig read_workload(const Json& value, const std::string& path, const WorkloadContext& context,
                             Diagnostics& diag) {
  WorkloadConfig workload;
  const ObjectReader obj(value, path, diag, {"arrivals", "tasks", "queries"});
  if (!obj.valid()) return workload;
  if (const Json* arrivals = obj.find("arrivals")) {
    workload.arrivals = read_arrivals(*arrivals, obj.path_of("arrivals"), context, diag);
  }
  // Queries first: steps refer to them.
  if (const Json* queries = obj.find("queries"))
    workload.queries = read_queries(*queries, obj.path_of("queries"), diag);
  if (const Json* tasks = obj.require("tasks")) {
    workload.tasks = read_tasks(*tasks, obj.path_of("tasks"), context, workload.queries, diag);
  }
  return workload;
}

}  // namespace squall

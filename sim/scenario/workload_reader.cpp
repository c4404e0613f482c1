#include "sim/scenario/workload_reader.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "engine/call.hpp"
#include "engine/runtime/duration.hpp"
#include "mocks/text.hpp"
#include "mocks/vector_search.hpp"
#include "sim/scenario/time_window.hpp"

namespace squall {
namespace {

constexpr std::array<std::string_view, 2> kProcessNames{"poisson", "constant"};
constexpr std::array<ArrivalProcess, 2> kProcesses{ArrivalProcess::poisson, ArrivalProcess::constant};

// Bounds, with their reasons:
// - arrival rates: above a million tasks per simulated second a run does not end in
//   reasonable time (1e10 per second hung the simulator); below one per 11.6 days
//   (1e-6 per second) the mean gap, 1e15 ns, stays far from int64's 9.2e18 ns;
// - max_tasks: 1e8 tasks is more than a run simulates in minutes; a larger cap is no cap;
// - bursts: 10000 windows, each a phase of an incident, is far more than any scenario;
// - weight: a mix of templates a million to one apart is not a mix, and the sum of the
//   weights stays finite and exact enough to draw from;
// - prompt_tokens, max_output_tokens: 1e9, as an llm provider's context_window.
constexpr NumberRange kRatePerSecond{1e-6, false, 1e6};
constexpr IntRange kMaxTasks{1, 100'000'000};
constexpr std::size_t kMaxBursts = 10'000;
constexpr NumberRange kWeight{0, true, 1e6};
constexpr IntRange kStepTokens{0, 1'000'000'000};
// - top_k: 0 (the provider's default) to Pinecone's maximum; min_score: a similarity.
constexpr IntRange kStepTopK{0, kMaxTopK};
constexpr NumberRange kMinScore{0, false, 1};
constexpr std::array<std::string_view, kSearchModeCount> kSearchModeNames{SQUALL_SEARCH_MODES(SQUALL_NAME)};
constexpr std::array<SearchMode, kSearchModeCount> kSearchModes{SearchMode::dense, SearchMode::keyword};

bool is_search(ProviderType type) { return type == ProviderType::web_search || type == ProviderType::vector_search; }

// The keys of vector_search steps: top_k, min_score, search_mode.
void read_vector_keys(const ObjectReader& obj, std::optional<ProviderType> type, StepConfig& step) {
  if (type == ProviderType::vector_search) step.min_score = kDefaultMinScore;
  for (const std::string_view key : {"top_k", "min_score", "search_mode"}) {
    if (obj.find(key) == nullptr || !type || *type == ProviderType::vector_search) continue;
    obj.diag().error(obj.path_of(key),
                     fmt::format("applies only to vector_search steps; {}", provider_is(step.tool, *type)));
  }
  if (type && *type != ProviderType::vector_search) return;
  obj.get("top_k", step.top_k, kStepTopK);
  obj.get("min_score", step.min_score, kMinScore);
  obj.get_choice<SearchMode>("search_mode", step.search_mode, kSearchModeNames, kSearchModes);
  if (step.search_mode == SearchMode::keyword && obj.find("min_score") != nullptr) {
    obj.diag().error(obj.path_of("min_score"),
                     "applies only to dense search; this step's search_mode is \"keyword\", which ranks by BM25 "
                     "without a threshold");
  }
}

using QueryLists = std::map<std::string, std::vector<PoolQuery>, std::less<>>;

// A valid burst and its index in the file.
struct PlacedBurst {
  Burst burst;
  std::size_t index;
};

// Overlapping bursts would leave the rate ambiguous. Sorted by start, a burst overlaps an
// earlier-starting one exactly when it starts before the furthest end so far; it is
// reported once, against the burst with that end, in file order.
void check_overlaps(std::vector<PlacedBurst> bursts, const std::string& path, Diagnostics& diag) {
  std::sort(bursts.begin(), bursts.end(), [](const PlacedBurst& a, const PlacedBurst& b) {
    return a.burst.from != b.burst.from ? a.burst.from < b.burst.from : a.index < b.index;
  });
  std::vector<std::pair<std::size_t, std::string>> overlaps;  // file index, message
  const PlacedBurst* furthest = nullptr;                      // the burst ending last so far
  for (const PlacedBurst& b : bursts) {
    if (furthest != nullptr && b.burst.from < furthest->burst.to) {
      overlaps.emplace_back(
          b.index, fmt::format("overlaps burst {} [{}, {})", furthest->index, format_duration(furthest->burst.from),
                               format_duration(furthest->burst.to)));
    }
    if (furthest == nullptr || b.burst.to > furthest->burst.to) furthest = &b;
  }
  std::sort(overlaps.begin(), overlaps.end());
  for (auto& [index, message] : overlaps) diag.error(pointer_append(path, index), std::move(message));
}

void read_bursts(const ObjectReader& arrivals, const WorkloadContext& context, std::vector<Burst>& out) {
  const Json* list = arrivals.find("bursts");
  if (list == nullptr) return;
  const std::string path = arrivals.path_of("bursts");
  const auto elements = read_array(*list, path, arrivals.diag(), /*nonempty=*/false);
  if (elements.size() > kMaxBursts) {
    arrivals.diag().error(path, fmt::format("expected at most {} bursts, got {}", kMaxBursts, elements.size()));
    return;
  }
  std::vector<PlacedBurst> valid;
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const ObjectReader obj(elements[i], pointer_append(path, i), arrivals.diag(), {"from", "to", "rate_per_s"});
    if (!obj.valid()) continue;
    Burst burst;
    const bool window_ok = read_window(obj, /*required=*/true, context.run_end, burst.from, burst.to);
    const bool rate_ok = obj.get_number_required("rate_per_s", burst.rate_per_s, kRatePerSecond);
    if (window_ok && rate_ok) valid.push_back(PlacedBurst{burst, i});
  }
  for (const PlacedBurst& b : valid) out.push_back(b.burst);
  check_overlaps(std::move(valid), path, arrivals.diag());
}

ArrivalConfig read_arrivals(const Json& value, const std::string& path, const WorkloadContext& context,
                            Diagnostics& diag) {
  ArrivalConfig config;
  const ObjectReader obj(value, path, diag, {"process", "rate_per_s", "bursts", "max_tasks"});
  obj.get_choice<ArrivalProcess>("process", config.process, kProcessNames, kProcesses);
  obj.get("rate_per_s", config.rate_per_s, kRatePerSecond);
  read_bursts(obj, context, config.bursts);
  std::int64_t max_tasks = 0;
  if (obj.get("max_tasks", max_tasks, kMaxTasks)) config.max_tasks = max_tasks;
  return config;
}

// See PoolQuery::paraphrase.
std::string paraphrase_of(std::string_view text) {
  std::vector<std::string_view> words;
  for_each_word(text, [&](std::string_view word) { words.push_back(word); });
  std::string out;
  for (auto word = words.rbegin(); word != words.rend(); ++word) {
    if (!out.empty()) out += ' ';
    for (const char c : *word) out += ascii_lower(c);
  }
  return out;
}

// A query list entry: a string, or an object with the query's `text`, its intended form
// (`rewrite`) and the links of the documents that answer it (`relevant`).
std::optional<PoolQuery> read_pool_query(const Json& value, const std::string& path, Diagnostics& diag) {
  PoolQuery query;
  if (value.is_string()) {
    auto text = read_nonempty_string(value, path, diag);
    if (!text) return std::nullopt;
    query.text = std::move(*text);
  } else if (!value.is_object()) {
    diag.error(path, fmt::format("expected a query string or an object with \"text\", got {}", describe(value)));
    return std::nullopt;
  } else {
    const std::size_t errors_before = diag.count();
    const ObjectReader obj(value, path, diag, {"text", "rewrite", "relevant"});
    if (obj.require("text") != nullptr) obj.get_nonempty("text", query.text);
    if (obj.find("rewrite") != nullptr) obj.get_nonempty("rewrite", query.rewrite);
    if (const Json* relevant = obj.find("relevant")) {
      const std::string relevant_path = obj.path_of("relevant");
      const auto links = read_array(*relevant, relevant_path, diag, /*nonempty=*/true);
      std::vector<std::size_t> positions;  // each accepted link's index in the array
      for (std::size_t i = 0; i < links.size(); ++i) {
        auto link = read_nonempty_string(links[i], pointer_append(relevant_path, i), diag);
        if (!link) continue;
        const auto same = std::find(query.relevant.begin(), query.relevant.end(), *link);
        if (same != query.relevant.end()) {
          diag.error(pointer_append(relevant_path, i),
                     fmt::format("duplicate \"{}\" (also {})", *link,
                                 pointer_append(relevant_path,
                                                positions[static_cast<std::size_t>(same - query.relevant.begin())])));
          continue;
        }
        query.relevant.push_back(std::move(*link));
        positions.push_back(i);
      }
    }
    if (diag.count() != errors_before) return std::nullopt;
    std::sort(query.relevant.begin(), query.relevant.end());
  }
  query.paraphrase = paraphrase_of(query.text);
  return query;
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
    std::vector<PoolQuery> queries;
    const auto elements = read_array(list, list_path, diag, /*nonempty=*/true);
    for (std::size_t i = 0; i < elements.size(); ++i) {
      if (auto query = read_pool_query(elements[i], pointer_append(list_path, i), diag)) {
        queries.push_back(std::move(*query));
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
  const ObjectReader obj(value, path, diag,
                         {"tool", "query_from", "prompt_tokens", "max_output_tokens", "optional", "requires", "top_k",
                          "min_score", "search_mode"});
  if (!obj.valid()) return step;
  // The tool's type decides which other keys the step needs; it stays unknown when the
  // provider's own entry is invalid (that entry reports it).
  std::optional<ProviderType> type;
  if (obj.require("tool") != nullptr && obj.get_nonempty("tool", step.tool) && context.names != nullptr) {
    const auto provider = context.names->tools.find(step.tool);
    if (provider == context.names->tools.end()) {
      diag.error(obj.path_of("tool"), context.names->no_such_tool(step.tool));
    } else {
      type = provider->second;
    }
  }

  if (obj.find("query_from") != nullptr) {
    if (type && !is_search(*type)) {
      diag.error(obj.path_of("query_from"),
                 fmt::format("applies only to web_search and vector_search steps; {}", provider_is(step.tool, *type)));
    } else if (std::string list; obj.get_nonempty("query_from", list)) {
      if (!queries.contains(list)) diag.error(obj.path_of("query_from"), no_such_query_list(list, queries));
      step.query_from = std::move(list);
    }
  } else if (type && is_search(*type)) {
    diag.error(path, fmt::format("missing required key \"query_from\" (steps calling a {} provider draw their query "
                                 "from a workload.queries list)",
                                 to_string(*type)));
  }
  read_vector_keys(obj, type, step);

  for (const auto& [key, field] :
       {std::pair{"prompt_tokens", &step.prompt_tokens}, std::pair{"max_output_tokens", &step.max_output_tokens}}) {
    if (obj.find(key) == nullptr) continue;
    if (type && *type != ProviderType::llm) {
      diag.error(obj.path_of(key), fmt::format("applies only to llm steps; {}", provider_is(step.tool, *type)));
    } else {
      obj.get(key, *field, kStepTokens);
    }
  }
  obj.get("optional", step.optional);
  if (const Json* list = obj.find("requires")) {
    if (auto caps = read_capabilities(*list, obj.path_of("requires"), diag)) step.required = *caps;
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
    obj.get("weight", task.weight, kWeight);
    obj.get_duration("deadline", task.deadline, DurationMin::positive);
    if (const Json* steps = obj.require("steps")) {
      const std::string steps_path = obj.path_of("steps");
      const auto step_elements = read_array(*steps, steps_path, diag, /*nonempty=*/true);
      if (step_elements.size() > kMaxTaskSteps) {
        diag.error(steps_path, fmt::format("expected at most {} steps, got {}", kMaxTaskSteps, step_elements.size()));
      }
      // A task draws one query, from its first search step's list, and every search step
      // sends it (sim/world.hpp): a later step naming another list would be ignored.
      std::optional<std::size_t> first_search;
      for (std::size_t j = 0; j < step_elements.size(); ++j) {
        const StepConfig& step =
            task.steps.emplace_back(read_step(step_elements[j], pointer_append(steps_path, j), context, queries, diag));
        if (!step.query_from) continue;
        if (!first_search) {
          first_search = j;
        } else if (*step.query_from != *task.steps[*first_search].query_from) {
          diag.error(pointer_append(pointer_append(steps_path, j), "query_from"),
                     fmt::format("expected \"{}\", the list of the task's first search step ({}): a task draws one "
                                 "query and every search step sends it, got \"{}\"",
                                 *task.steps[*first_search].query_from, pointer_append(steps_path, *first_search),
                                 *step.query_from));
        }
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

// The workload of a scenario: when tasks arrive and what each one does.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/call.hpp"
#include "engine/pool_query.hpp"
#include "engine/provider_descriptor.hpp"
#include "engine/runtime/time.hpp"

namespace squall {

enum class ArrivalProcess : std::uint8_t {
  poisson,   // exponential inter-arrival times at the current rate
  constant,  // exactly 1 / rate apart
};

// A window [from, to) during which tasks arrive at another rate.
struct Burst {
  TimePoint from = 0;
  TimePoint to = 0;
  double rate_per_s = 0;
};

struct ArrivalConfig {
  ArrivalProcess process = ArrivalProcess::poisson;
  double rate_per_s = 1.0;  // tasks per second outside bursts
  std::vector<Burst> bursts;
  // Stop after this many tasks even if the duration has not passed. Default: no cap.
  std::optional<std::int64_t> max_tasks;
};

// One step of a task: a logical call of a tool. Search steps draw their query from a
// named list; LLM steps send prompt_tokens plus the tokens of the previous step's hits.
struct StepConfig {
  std::string tool;                       // a tool (scenario.tools)
  std::optional<std::string> query_from;  // a key of workload.queries
  std::int64_t prompt_tokens = 0;
  std::int64_t max_output_tokens = 0;  // 0: the model decides
  bool optional = false;               // a failure degrades the task instead of ending it
  Capabilities required;               // what the serving provider must be able to do; default none
  // vector_search steps (mocks/vector_search.hpp): hits wanted at most (0: the provider's
  // top_k), the dense-mode score threshold (default kDefaultMinScore, 0.85, seed 001's
  // first rung; 0 for other steps) and the mode.
  std::int32_t top_k = 0;
  double min_score = 0;
  SearchMode search_mode = SearchMode::dense;
};

struct TaskTemplate {
  std::string name;
  double weight = 1.0;            // relative frequency among templates
  Nanos deadline = 60 * kSecond;  // end-to-end; default 60 s
  std::vector<StepConfig> steps;
};

struct WorkloadConfig {
  ArrivalConfig arrivals;
  std::vector<TaskTemplate> tasks;
  std::map<std::string, std::vector<PoolQuery>, std::less<>> queries;
};

}  // namespace squall

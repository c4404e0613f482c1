// TaskRunner: runs one agent task, step by step, and decides how it ended (DESIGN
// section 1b); in engine/, so live mode runs tasks the same way. The simulator only
// wires: it builds the plans and starts run() when a task arrives.
//
// A task is an ordered list of steps under one end-to-end deadline. Each step is one
// logical call of a tool through the tool's pipeline, starting at the tool's primary
// provider. A search step sends the task's query; an LLM step sends its prompt_tokens
// plus the snippet tokens of the previous step's hits. The task ends at the first
// required step that does not succeed; an optional step's failure marks the task
// degraded (optional_step_failed) and the next step runs without its results.
//
// Outcome rules (TaskResult::status and reason):
//   every required step succeeded, no Degradation     succeeded
//   ... with Degradations                               degraded, reasons joined by "+"
//   a required step ended empty                         safe_failed "no_records_found"
//     (an empty search the policy could not repair: a structured "no answer", seed 000)
//   a required step ended budget_exhausted              safe_failed "budget_exhausted"
//     (the budget's deterministic refusal instead of a guess, seed 001)
//   a required step ended in any other kind            failed, the kind's name
//   success, but the query's ground truth says none     wrong_answer, the degradation path
//     of the hits the task answered from is relevant     ("clean" without degradations)
// Ground truth (PoolQuery::relevant): when the task's query has it, TaskResult::answer says
// whether the hits of its last successful search step held a relevant document
// (AnswerVerdict); a task that did not succeed did not answer.
// Every logical call emits a LogicalCallEvent and the task a TaskResult (EventSink).
//
// Escalation (engine/strategies/escalation.hpp): with TaskPlan::escalation set, the rules
// are evaluated over the task's history after each logical call and once more at task end
// with the status; a task that reached a level emits one EscalationEvent, just before its
// TaskResult.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/call.hpp"
#include "engine/pipeline.hpp"
#include "engine/task_result.hpp"

namespace squall {

// A tool as the task runner sees it: its pipeline and its primary provider.
struct ToolPlan {
  std::string name;
  ProviderId primary = kNoProvider;
  const Pipeline* pipeline = nullptr;  // ends in the ProviderRegistry
  // The escalation item of the tool's policy list, if any (find_escalation).
  const EscalationConfig* escalation = nullptr;
};

struct StepPlan {
  const ToolPlan* tool = nullptr;
  bool optional = false;     // a failure degrades the task instead of ending it
  bool sends_query = false;  // a search step: the task's query is its request's query
  std::int64_t prompt_tokens = 0;
  std::int64_t max_output_tokens = 0;  // 0: the model's own cap
  Capabilities required;               // what the serving provider must be able to do
  // A vector search's parameters (Request::top_k, min_score, mode).
  std::int32_t top_k = 0;
  double min_score = 0;
  SearchMode mode = SearchMode::dense;
};

struct TaskPlan {
  std::string name;  // the workload template's name
  Nanos deadline = kNever;
  std::vector<StepPlan> steps;
  // The task's escalation rules: those of the first step's tool, in step order, that has
  // any (ToolPlan::escalation); none: the task never escalates. Must outlive the runs.
  const EscalationConfig* escalation = nullptr;

  // Sets `escalation` from the steps' tools.
  void resolve_escalation();
};

class TaskRunner {
 public:
  // The plans, tools and pipelines must outlive every task run.
  explicit TaskRunner(EngineEnv env);

  // Runs `task` (its id set, the rest default) of `plan` from now; `query` (may be null) is
  // the task's search query, drawn from the workload's pool. The runner sets the task's
  // start and deadline. The context is a parameter, not a local built from an id: a
  // coroutine keeps its parameters in its frame, which every task in flight holds.
  // The result goes to the event sink (EventSink::on_task_finished), so the simulator can
  // spawn the task itself: one coroutine frame per task, not two.
  Task<void> run(TaskContext task, const TaskPlan& plan, const PoolQuery* query) const;

 private:
  struct StepsSoFar;
  static Request make_request(const StepPlan& step, const PoolQuery* query, std::int64_t context_tokens);
  // Records a finished step's logical call; false when it ends the task.
  bool after_step(const TaskPlan& plan, const PoolQuery* query, const CallContext& ctx, const Outcome& outcome,
                  StepsSoFar& so_far) const;
  // Decides the task's result and emits it.
  void finish(const TaskPlan& plan, const PoolQuery* query, TaskContext& task, const StepsSoFar& so_far) const;

  EngineEnv env_;
  // The reason of a degraded task by Degradation bitmask: its names joined by "+" in
  // declaration order, built once for every combination (there are 2^kDegradationCount).
  std::vector<std::string> degraded_reasons_;
};

}  // namespace squall

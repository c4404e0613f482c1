#include "engine/task_runner.hpp"

#include "engine/provider_registry.hpp"

namespace squall {
namespace {

// How a required step's final outcome ends the task (the header's table).
TaskResult end_of_task(OutcomeKind kind) {
  TaskResult r;
  switch (kind) {
    case OutcomeKind::empty:
      r.status = TaskStatus::safe_failed;
      r.reason = "no_records_found";
      break;
    case OutcomeKind::budget_exhausted:
      r.status = TaskStatus::safe_failed;
      r.reason = "budget_exhausted";
      break;
    default:
      r.status = TaskStatus::failed;
      r.reason = to_string(kind);
      break;
  }
  return r;
}

// How the hits a search step returned answer `query` (AnswerVerdict).
AnswerVerdict judge(const PoolQuery& query, const std::vector<SearchResult>& hits) {
  if (hits.empty()) return AnswerVerdict::not_answered;
  for (const SearchResult& hit : hits) {
    if (query.is_relevant(hit.link)) return AnswerVerdict::answered;
  }
  return AnswerVerdict::answered_wrongly;
}

}  // namespace

TaskRunner::TaskRunner(EngineEnv env) : env_(env), degraded_reasons_(std::size_t{1} << kDegradationCount) {
  for (std::size_t mask = 0; mask < degraded_reasons_.size(); ++mask) {
    degraded_reasons_[mask] = degradation_path(static_cast<std::uint32_t>(mask));
  }
}

void TaskPlan::resolve_escalation() {
  escalation = nullptr;
  for (const StepPlan& step : steps) {
    if (step.tool != nullptr && step.tool->escalation != nullptr) {
      escalation = step.tool->escalation;
      return;
    }
  }
}

Task<void> TaskRunner::run(std::uint64_t id, const TaskPlan& plan, const PoolQuery* query) const {
  TaskContext task;
  task.id = id;
  task.started = env_.clock.now();
  task.deadline = add_saturating(task.started, plan.deadline);
  task.escalation.config = plan.escalation;

  std::int64_t context_tokens = 0;  // tokens of the previous step's hits, fed to an LLM step
  const bool grounded = query != nullptr && query->has_ground_truth();
  // The verdict on the hits of the last successful search step (grounded queries only).
  AnswerVerdict hits_verdict = AnswerVerdict::not_answered;
  TaskResult result;
  result.status = TaskStatus::succeeded;
  std::uint32_t step_index = 0;
  for (const StepPlan& step : plan.steps) {
    const ToolPlan& tool = *step.tool;
    Request request;
    if (step.sends_query && query != nullptr) {
      request.query = query->text;
      request.origin = query;
    }
    request.prompt_tokens = step.prompt_tokens + context_tokens;
    request.max_output_tokens = step.max_output_tokens;
    request.required = step.required;
    request.top_k = step.top_k;
    request.min_score = step.min_score;
    request.mode = step.mode;
    CallContext ctx{task, tool.name, tool.primary};
    ctx.step = step_index++;
    const Outcome outcome = co_await tool.pipeline->execute(ctx, request);
    std::string_view provider;
    if (env_.providers != nullptr && ctx.provider < env_.providers->size()) {
      provider = env_.providers->descriptor(ctx.provider).name;
    }
    env_.events.on_logical_call(LogicalCallEvent{id, tool.name, provider, ctx.attempts, outcome.kind, env_.clock.now()});
    if (plan.escalation != nullptr) escalate(task, std::nullopt);
    context_tokens = 0;
    if (outcome.kind == OutcomeKind::success) {
      for (const SearchResult& hit : outcome.response.results) context_tokens += hit.snippet_tokens;
      if (grounded && step.sends_query) hits_verdict = judge(*query, outcome.response.results);
      continue;
    }
    if (step.optional) {
      task.mark(Degradation::optional_step_failed);
      continue;
    }
    result = end_of_task(outcome.kind);
    break;
  }
  const bool answered = result.status == TaskStatus::succeeded;
  if (answered && task.degradations != 0) {
    result.status = TaskStatus::degraded;
    result.reason = degraded_reasons_[task.degradations];
  }
  if (grounded) {
    result.answer = answered ? hits_verdict : AnswerVerdict::not_answered;
    if (result.answer == AnswerVerdict::answered_wrongly) {
      // Not a success, whatever the path that led to it (issue 6): the report must show it.
      result.status = TaskStatus::wrong_answer;
      result.reason = task.degradations != 0 ? std::string_view(degraded_reasons_[task.degradations]) : kCleanPath;
    }
  }
  result.degradations = task.degradations;
  result.id = id;
  result.template_name = plan.name;
  result.started = task.started;
  result.finished = env_.clock.now();
  result.tokens = task.tokens_spent;
  result.cost_usd = task.cost_spent_usd;
  if (plan.escalation != nullptr) escalate(task, result.status);
  if (task.escalation.raised) {
    env_.events.on_escalation(
        EscalationEvent{id, plan.name, task.escalation.level, task.escalation.reason, result.finished});
  }
  env_.events.on_task_finished(result);
}

}  // namespace squall

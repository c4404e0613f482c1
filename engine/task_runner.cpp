#include "engine/task_runner.hpp"

#include <optional>

#include "engine/fused_call.hpp"
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
AnswerVerdict judge(const PoolQuery& query, std::span<const SearchResult> hits) {
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

// What a task's steps so far leave for the next step and for the task's end. Kept small:
// it lives in the task's coroutine frame, which every task in flight holds.
struct TaskRunner::StepsSoFar {
  std::int64_t context_tokens = 0;  // tokens of the previous step's hits, fed to an LLM step
  // The step running, from 0: the loop's index lives here, in the padding after the
  // 8-byte member, rather than in 8 bytes of the frame of its own.
  std::uint32_t step = 0;
  // The verdict on the hits of the last successful search step (grounded queries only).
  AnswerVerdict hits_verdict = AnswerVerdict::not_answered;
  std::optional<OutcomeKind> ended_by;  // the final kind of the required step that ended the task
};

Request TaskRunner::make_request(const StepPlan& step, const PoolQuery* query, std::int64_t context_tokens) {
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
  return request;
}

bool TaskRunner::after_step(const TaskPlan& plan, const PoolQuery* query, const CallContext& ctx,
                            const Outcome& outcome, StepsSoFar& so_far) const {
  const StepPlan& step = plan.steps[so_far.step];
  TaskContext& task = ctx.task;
  // The provider of the final outcome (Outcome::provider), or the step's when it names none.
  const ProviderId answered = outcome.provider != kNoProvider ? outcome.provider : ctx.provider;
  std::string_view provider;
  if (env_.providers != nullptr && answered < env_.providers->size()) {
    provider = env_.providers->descriptor(answered).name;
  }
  env_.events.on_logical_call(
      LogicalCallEvent{task.id, step.tool->name, provider, ctx.attempts, outcome.kind, env_.clock.now()});
  if (plan.escalation != nullptr) escalate(plan.escalation, task, std::nullopt);
  so_far.context_tokens = 0;
  if (outcome.kind == OutcomeKind::success) {
    for (const SearchResult& hit : outcome.response.results()) so_far.context_tokens += hit.snippet_tokens;
    if (query != nullptr && query->has_ground_truth() && step.sends_query) {
      so_far.hits_verdict = judge(*query, outcome.response.results());
    }
    return true;
  }
  if (step.optional) {
    task.mark(Degradation::optional_step_failed);
    return true;
  }
  so_far.ended_by = outcome.kind;
  return false;
}

void TaskRunner::finish(const TaskPlan& plan, const PoolQuery* query, TaskContext& task,
                        const StepsSoFar& so_far) const {
  TaskResult result;
  result.status = TaskStatus::succeeded;
  if (so_far.ended_by) result = end_of_task(*so_far.ended_by);
  const bool answered = result.status == TaskStatus::succeeded;
  if (answered && task.degradations != 0) {
    result.status = TaskStatus::degraded;
    result.reason = degraded_reasons_[task.degradations];
  }
  if (query != nullptr && query->has_ground_truth()) {
    result.answer = answered ? so_far.hits_verdict : AnswerVerdict::not_answered;
    if (result.answer == AnswerVerdict::answered_wrongly) {
      // Not a success, whatever the path that led to it: a wrong answer that counted as
      // one would hide the worst outcome an agent has, so the report must show it.
      result.status = TaskStatus::wrong_answer;
      result.reason = task.degradations != 0 ? std::string_view(degraded_reasons_[task.degradations]) : kCleanPath;
    }
  }
  result.degradations = task.degradations;
  result.id = task.id;
  result.template_name = plan.name;
  result.started = task.started;
  result.finished = env_.clock.now();
  result.tokens = task.tokens_spent;
  result.cost_usd = task.cost_spent_usd;
  if (plan.escalation != nullptr) escalate(plan.escalation, task, result.status);
  if (task.escalation.raised) {
    env_.events.on_escalation(
        EscalationEvent{task.id, plan.name, task.escalation.level, task.escalation.reason, result.finished});
  }
  env_.events.on_task_finished(result);
}

// Only what crosses a suspension lives here: the rest of a step's work is in make_request,
// after_step and finish, whose locals are on the stack, not in this frame (every local
// of a coroutine has its own bytes in the frame with GCC 12, bench/README.md). A step
// whose pipeline fuses runs its call in this frame too (FusedCall), so a task in flight
// is one coroutine frame; the others await the pipeline's coroutines. Either way the
// step's outcome is read where the call built it, not copied.
Task<void> TaskRunner::run(TaskContext task, const TaskPlan& plan, const PoolQuery* query) const {
  task.started = env_.clock.now();
  task.deadline = add_saturating(task.started, plan.deadline);
  StepsSoFar so_far;
  // No named local in the loop but those that cross a suspension: each would have bytes
  // of its own in the frame, so the step is plan.steps[so_far.step] wherever it is used.
  for (; so_far.step < plan.steps.size(); ++so_far.step) {
    CallContext ctx{task, plan.steps[so_far.step].tool->name, plan.steps[so_far.step].tool->primary};
    ctx.step = static_cast<std::uint16_t>(so_far.step);  // at most kMaxTaskSteps - 1
    FusedCall call(plan.steps[so_far.step].tool->pipeline->enter(ctx));
    if (call.fused()) {
      Outcome outcome;
      // The request is built afresh at each advance, on the stack (FusedCall::advance).
      while (call.advance(ctx, make_request(plan.steps[so_far.step], query, so_far.context_tokens), outcome)) {
        co_await call;
      }
      if (!after_step(plan, query, ctx, outcome, so_far)) break;
    } else {
      Task<Outcome> unfused = plan.steps[so_far.step].tool->pipeline->run_unfused(
          ctx, make_request(plan.steps[so_far.step], query, so_far.context_tokens));
      co_await unfused.finished();
      if (!after_step(plan, query, ctx, unfused.result(), so_far)) break;
    }
  }
  finish(plan, query, task, so_far);
}

}  // namespace squall

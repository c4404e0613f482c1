// How a task ended (DESIGN section 1b): the closed vocabulary of task statuses and the
// result the task runner hands to the event sink.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/runtime/time.hpp"
#include "engine/vocabulary.hpp"

namespace squall {

// X(name, meaning)
#define SQUALL_TASK_STATUSES(X)                                         \
  X(succeeded, "clean success")                                         \
  X(degraded, "success that needed a Degradation (engine/call.hpp)")    \
  X(safe_failed, "a deterministic safe-fail result instead of a guess") \
  X(failed, "the task's answer is an error")                            \
  X(wrong_answer, "answered from documents the ground truth says do not answer the query")

enum class TaskStatus : std::uint8_t { SQUALL_TASK_STATUSES(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kTaskStatusCount = 0 SQUALL_TASK_STATUSES(SQUALL_COUNT);
std::string_view to_string(TaskStatus status);
constexpr std::size_t index_of(TaskStatus status) { return static_cast<std::size_t>(status); }

// Whether a task answered its query, judged against the query's ground truth
// (PoolQuery::relevant; engine/pool_query.hpp). The documents a task answers from are the
// hits of its last successful search step, which the following steps (the LLM's prompt)
// receive. X(name, meaning)
#define SQUALL_ANSWER_VERDICTS(X)                                                               \
  X(answered, "the task succeeded and a relevant document was among the hits it answered from") \
  X(answered_wrongly, "the task succeeded from hits of which none is relevant")                 \
  X(not_answered, "the task ended without an answer, or answered from no hits at all")

enum class AnswerVerdict : std::uint8_t { SQUALL_ANSWER_VERDICTS(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kAnswerVerdictCount = 0 SQUALL_ANSWER_VERDICTS(SQUALL_COUNT);
std::string_view to_string(AnswerVerdict verdict);
constexpr std::size_t index_of(AnswerVerdict verdict) { return static_cast<std::size_t>(verdict); }

// The degradation path of a task that needed no Degradation.
inline constexpr std::string_view kCleanPath = "clean";

// One finished task. Views are read during the event only.
struct TaskResult {
  std::uint64_t id = 0;
  std::string_view template_name;  // the workload task's name
  TimePoint started = 0;
  TimePoint finished = 0;
  TaskStatus status = TaskStatus::succeeded;
  // Why, as a fixed identifier: safe_failed: "budget_exhausted", "no_records_found";
  // failed: the OutcomeKind name of the failing call ("rate_limited", "timeout", ...);
  // degraded: its Degradations joined by "+" in declaration order
  // ("fallback_provider", "simplified_query+fallback_provider"); wrong_answer: the same
  // degradation path, or "clean" when the task needed none. Empty for succeeded (ignored);
  // empty for another status is recorded as "unspecified".
  std::string_view reason;
  // What the task spent over all its attempts, failed ones included
  // (TaskContext::tokens_spent and cost_spent_usd).
  std::int64_t tokens = 0;
  double cost_usd = 0;
  // Bitmask of the Degradations (engine/call.hpp) the task went through, whatever its
  // status: the "degradation path" ground-truth counts are reported by.
  std::uint32_t degradations = 0;
  // Set only when the task's query has ground truth.
  std::optional<AnswerVerdict> answer = std::nullopt;
};

}  // namespace squall

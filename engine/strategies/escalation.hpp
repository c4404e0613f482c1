// escalation: a task's escalation level, chosen by rules over its attempt history (seed
// 004's AUTO_RETRY .. CRITICAL_FAILURE ladder), and at most one ticket per task.
//
// Escalation is a decision about a task, not a wrapper around one call: its rules read the
// task's whole history (TaskHistory, the spend, the task's status at the end), so it does
// not sit in the call path. It is configured as an item of a tool's policy list all the
// same, so that a policy, and a `--policy` file that replaces the policy block, decides it
// like any other strategy (policies are what users benchmark). The task runner applies it:
//   - a task's rules are those of the first step, in step order, whose tool's list holds an
//     `escalation` item (TaskPlan::escalation, set when the plans are built), whether or
//     not the task reaches that step; its position in the list does not matter;
//   - after each logical call, the rules are evaluated over the history so far; at task
//     end, once more with the task's status (the only time the status rules can fire);
//   - an evaluation raises the task's level to the highest level among the rules that
//     hold, if that is above the level reached so far; the reason is the condition of the
//     first rule, in list order, that holds at that level. A level once reached is kept,
//     with the reason it was reached by: rules only rise (every count and flag only grows
//     during a task), so the level at task end is the highest any evaluation gave;
//   - when the task ends at some level, the runner emits one EscalationEvent (the ticket)
//     just before the task's TaskResult; a task no rule fired for has no ticket.
//
// Default rules (used when `rules` is absent), in the spirit of seed 004's ladder:
//   failed_attempts >= 1   auto_retry        the engine recovered or tried to, on its own
//   fallbacks >= 1         model_switch      the call moved to a backup provider or model
//   safe_failed            human_review      a structured "no answer" a person should see
//   fallbacks_exhausted    urgent_action     every provider of a chain failed
//   failed                 critical_failure  the task's answer is an error
// Cost and token rules have no default: what is expensive depends on the scenario.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/config_fields.hpp"
#include "engine/task_result.hpp"
#include "engine/vocabulary.hpp"

namespace squall {

struct TaskContext;

// The levels, from least to most severe. X(name, meaning)
#define SQUALL_ESCALATION_LEVELS(X)                                       \
  X(auto_retry, "the engine handled failures on its own; for the record") \
  X(model_switch, "a call moved to another provider or model")            \
  X(human_review, "a person should look at the task's answer")            \
  X(urgent_action, "recovery ran out; a person should act soon")          \
  X(critical_failure, "the task failed; act now")

enum class EscalationLevel : std::uint8_t { SQUALL_ESCALATION_LEVELS(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kEscalationLevelCount = 0 SQUALL_ESCALATION_LEVELS(SQUALL_COUNT);
std::string_view to_string(EscalationLevel level);
constexpr std::size_t index_of(EscalationLevel level) { return static_cast<std::size_t>(level); }
// Every level, in order of severity.
const std::array<EscalationLevel, kEscalationLevelCount>& all_escalation_levels();

// What a rule's condition needs: a threshold (at_least), or nothing (a flag).
enum class ConditionArgument : std::uint8_t {
  count,   // at_least: an integer >= 1
  amount,  // at_least: a number > 0
  flag,    // no at_least
};

// The conditions a rule may test; each name is also the ticket's reason.
// X(name, argument, meaning)
#define SQUALL_ESCALATION_CONDITIONS(X)                                                       \
  X(failed_attempts, count, "provider attempts of the task that did not succeed >= at_least") \
  X(fallbacks, count, "moves of the task's calls to another provider >= at_least")            \
  X(fallbacks_exhausted, flag, "a fallback chain of the task ran out of candidates")          \
  X(cost_usd, amount, "USD the task spent, failed attempts included, >= at_least")            \
  X(tokens, count, "tokens the task spent, failed attempts included, >= at_least")            \
  X(degraded, flag, "at task end: the task succeeded only in a degraded way")                 \
  X(safe_failed, flag, "at task end: the task ended in a safe-fail result")                   \
  X(failed, flag, "at task end: the task failed")

enum class EscalationCondition : std::uint8_t { SQUALL_ESCALATION_CONDITIONS(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kEscalationConditionCount = 0 SQUALL_ESCALATION_CONDITIONS(SQUALL_COUNT);
std::string_view to_string(EscalationCondition condition);
constexpr std::size_t index_of(EscalationCondition condition) { return static_cast<std::size_t>(condition); }
ConditionArgument argument_of(EscalationCondition condition);
// Every condition, in declaration order.
const std::array<EscalationCondition, kEscalationConditionCount>& all_escalation_conditions();

struct EscalationRule {
  EscalationCondition when = EscalationCondition::failed;
  // The threshold of a count or amount condition (the condition holds at >= at_least);
  // ignored for flags.
  double at_least = 0;
  EscalationLevel level = EscalationLevel::critical_failure;
  friend bool operator==(const EscalationRule&, const EscalationRule&) = default;
};

struct EscalationConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "escalation";

  // Evaluated in order; see the header comment. Default: default_rules().
  std::vector<EscalationRule> rules = default_rules();

  static std::vector<EscalationRule> default_rules();
};

// A rule's at_least: a billion failed attempts, fallbacks or tokens, or USD, per task: far
// beyond any real task, and exact in the double the rule keeps.
inline constexpr IntRange kEscalationCount{1, 1'000'000'000};
inline constexpr NumberRange kEscalationAmount{0, true, 1e9};

constexpr auto field_table(std::type_identity<EscalationConfig>) {
  using C = EscalationConfig;
  return table<C>(field("rules", &C::rules, FieldKind::shaped)
                      .with_default(R"([{"when": "failed_attempts", "at_least": 1, "level": "auto_retry"},
                                        {"when": "fallbacks", "at_least": 1, "level": "model_switch"},
                                        {"when": "safe_failed", "level": "human_review"},
                                        {"when": "fallbacks_exhausted", "level": "urgent_action"},
                                        {"when": "failed", "level": "critical_failure"}])")
                      .doc("{when, at_least, level} rules, in order; the highest level that holds wins")
                      .source("seed 004's ladder"));
}

// A task's escalation so far (TaskContext::escalation): three bytes per task in flight.
// The rules are the task plan's (TaskPlan::escalation), passed to escalate().
struct EscalationState {
  bool raised = false;                                                // a rule has fired
  EscalationLevel level = EscalationLevel::auto_retry;                // valid when raised
  EscalationCondition reason = EscalationCondition::failed_attempts;  // valid when raised
};

// Evaluates the task's rules over its history and spend, and with `status` at task end;
// raises TaskContext::escalation as the header comment says. Returns whether it rose.
// Null rules: the task never escalates.
bool escalate(const EscalationConfig* rules, TaskContext& task, std::optional<TaskStatus> status);

}  // namespace squall

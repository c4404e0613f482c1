#include "engine/strategies/escalation.hpp"

#include "engine/call.hpp"

namespace squall {

namespace {

constexpr std::array<std::string_view, kEscalationLevelCount> kLevelNames{SQUALL_ESCALATION_LEVELS(SQUALL_NAME)};
constexpr auto kLevels = all_values<EscalationLevel, kEscalationLevelCount>();
constexpr std::array<std::string_view, kEscalationConditionCount> kConditionNames{
    SQUALL_ESCALATION_CONDITIONS(SQUALL_NAME)};
#define SQUALL_ARGUMENT(name, argument, ...) ConditionArgument::argument,
constexpr std::array<ConditionArgument, kEscalationConditionCount> kArguments{
    SQUALL_ESCALATION_CONDITIONS(SQUALL_ARGUMENT)};
#undef SQUALL_ARGUMENT
constexpr auto kConditions = all_values<EscalationCondition, kEscalationConditionCount>();

}  // namespace

std::string_view to_string(EscalationLevel level) { return kLevelNames[index_of(level)]; }
const std::array<EscalationLevel, kEscalationLevelCount>& all_escalation_levels() { return kLevels; }
std::string_view to_string(EscalationCondition condition) { return kConditionNames[index_of(condition)]; }
ConditionArgument argument_of(EscalationCondition condition) { return kArguments[index_of(condition)]; }
const std::array<EscalationCondition, kEscalationConditionCount>& all_escalation_conditions() { return kConditions; }

std::vector<EscalationRule> EscalationConfig::default_rules() {
  return {
      {EscalationCondition::failed_attempts, 1, EscalationLevel::auto_retry},
      {EscalationCondition::fallbacks, 1, EscalationLevel::model_switch},
      {EscalationCondition::safe_failed, 0, EscalationLevel::human_review},
      {EscalationCondition::fallbacks_exhausted, 0, EscalationLevel::urgent_action},
      {EscalationCondition::failed, 0, EscalationLevel::critical_failure},
  };
}

namespace {

bool holds(const EscalationRule& rule, const TaskContext& task, std::optional<TaskStatus> status) {
  const TaskHistory& h = task.history;
  switch (rule.when) {
    case EscalationCondition::failed_attempts: return static_cast<double>(h.failed_attempts) >= rule.at_least;
    case EscalationCondition::fallbacks: return static_cast<double>(h.fallbacks) >= rule.at_least;
    case EscalationCondition::fallbacks_exhausted: return h.fallbacks_exhausted;
    case EscalationCondition::cost_usd: return task.cost_spent_usd >= rule.at_least;
    case EscalationCondition::tokens: return static_cast<double>(task.tokens_spent) >= rule.at_least;
    case EscalationCondition::degraded: return status == TaskStatus::degraded;
    case EscalationCondition::safe_failed: return status == TaskStatus::safe_failed;
    case EscalationCondition::failed: return status == TaskStatus::failed;
  }
  return false;
}

}  // namespace

bool escalate(const EscalationConfig* rules, TaskContext& task, std::optional<TaskStatus> status) {
  if (rules == nullptr) return false;
  EscalationState& state = task.escalation;
  bool rose = false;
  for (const EscalationRule& rule : rules->rules) {
    // Strictly above: at one level, the first rule in list order (and the earliest
    // evaluation) gives the reason.
    if (state.raised && index_of(rule.level) <= index_of(state.level)) continue;
    if (!holds(rule, task, status)) continue;
    state.raised = true;
    state.level = rule.level;
    state.reason = rule.when;
    rose = true;
  }
  return rose;
}

}  // namespace squall

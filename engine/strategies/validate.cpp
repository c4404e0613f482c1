#include "engine/strategies/validate.hpp"

#include <array>
#include <cassert>

namespace squall {

std::string_view to_string(ValidateCheck check) {
  static constexpr std::array<std::string_view, kValidateCheckCount> kNames{SQUALL_VALIDATE_CHECKS(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(check)];
}

ValidateStrategy::ValidateStrategy(ValidateConfig config) : config_(std::move(config)) {
  assert(!config_.require.empty());
}

std::optional<ValidateCheck> ValidateStrategy::failed_check(const Outcome& outcome) const {
  if (outcome.kind != OutcomeKind::success && outcome.kind != OutcomeKind::empty) return std::nullopt;
  const Response& r = outcome.response;
  for (const ValidateCheck check : config_.require) {
    switch (check) {
      case ValidateCheck::json:
        if (outcome.kind == OutcomeKind::success && r.body == Body::completion && r.malformed) return check;
        break;
      case ValidateCheck::non_empty:
        if (outcome.kind == OutcomeKind::empty) return check;
        break;
      case ValidateCheck::no_error:
        if (outcome.kind == OutcomeKind::success && !r.details().body_error.empty()) return check;
        break;
    }
  }
  return std::nullopt;
}

void ValidateStrategy::settle(CallContext& ctx, const Ticket& /*ticket*/, Outcome& outcome) {
  if (!failed_check(outcome)) return;
  // The attempt was recorded as its classified kind; it is a failure of another kind now.
  TaskHistory& h = ctx.task.history;
  if (outcome.kind == OutcomeKind::success && h.failed_attempts != UINT32_MAX) ++h.failed_attempts;
  h.failure_kinds |= std::uint32_t{1} << index_of(OutcomeKind::invalid_output);
  outcome.kind = OutcomeKind::invalid_output;
}

std::unique_ptr<Strategy> make_strategy(const ValidateConfig& config, const StrategyBuild& /*build*/) {
  return std::make_unique<ValidateStrategy>(config);
}

}  // namespace squall

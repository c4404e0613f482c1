#include "engine/strategies/validate.hpp"

#include <array>
#include <cassert>

#include "engine/provider_registry.hpp"

namespace squall {

std::string_view to_string(ValidateCheck check) {
  static constexpr std::array<std::string_view, kValidateCheckCount> kNames{SQUALL_VALIDATE_CHECKS(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(check)];
}

ValidateStrategy::ValidateStrategy(ValidateConfig config, EngineEnv env, std::string owner)
    : config_(std::move(config)), env_(env), owner_(std::move(owner)) {
  assert(!config_.require.empty());
}

std::optional<ValidateCheck> ValidateStrategy::failed_check(const Outcome& outcome) const {
  if (outcome.kind != OutcomeKind::success && outcome.kind != OutcomeKind::empty) return std::nullopt;
  const Response& r = outcome.response;
  for (const ValidateCheck check : config_.require) {
    switch (check) {
      case ValidateCheck::json:
        if (outcome.kind == OutcomeKind::success && r.body == Body::completion && (r.malformed || r.truncated)) {
          return check;
        }
        break;
      case ValidateCheck::non_empty:
        if (outcome.kind == OutcomeKind::empty) return check;
        break;
      case ValidateCheck::no_error:
        if (outcome.kind == OutcomeKind::success && !r.details().body_error.empty()) return check;
        break;
      case ValidateCheck::complete:
        if (outcome.kind == OutcomeKind::success && r.body == Body::completion && r.truncated) return check;
        break;
    }
  }
  return std::nullopt;
}

void ValidateStrategy::settle(CallContext& ctx, const Ticket& ticket, Outcome& outcome) {
  const std::optional<ValidateCheck> failed = failed_check(outcome);
  if (!failed) return;
  // The attempt was recorded as its classified kind; it is a failure of another kind now.
  TaskHistory& h = ctx.task.history;
  const bool was_success = outcome.kind == OutcomeKind::success;
  if (was_success && h.failed_attempts != UINT32_MAX) ++h.failed_attempts;
  // A cut answer fails json and complete alike: its cause, not the check, names the kind.
  const OutcomeKind kind = outcome.response.truncated && *failed != ValidateCheck::no_error
                               ? OutcomeKind::truncated
                               : OutcomeKind::invalid_output;
  h.failure_kinds |= std::uint32_t{1} << index_of(kind);
  outcome.kind = kind;

  const ProviderId provider = outcome.provider != kNoProvider ? outcome.provider : ctx.provider;
  ValidationFailedEvent e{ctx.task.id, owner_, {}, to_string(*failed), env_.clock.now()};
  if (env_.providers != nullptr && provider < env_.providers->size()) {
    e.provider = env_.providers->descriptor(provider).name;
  }
  // An `empty` answer is a failed attempt already, and an answer no attempt of this call
  // gave (a cache's) was billed by none: only a success from an attempt made here moves.
  if (was_success && ctx.task.history.attempts != static_cast<std::uint32_t>(ticket.first)) {
    e.input_tokens = outcome.response.input_tokens;
    e.output_tokens = outcome.response.output_tokens;
    e.cost_usd = outcome.response.cost_usd;
  }
  env_.events.on_validation_failed(e);
}

std::unique_ptr<Strategy> make_strategy(const ValidateConfig& config, const StrategyBuild& build) {
  return std::make_unique<ValidateStrategy>(config, build.env, std::string(build.owner));
}

}  // namespace squall

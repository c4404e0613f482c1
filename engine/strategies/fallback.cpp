#include "engine/strategies/fallback.hpp"

#include <algorithm>
#include <array>
#include <cassert>

#include "engine/provider_registry.hpp"
#include "engine/retry_after.hpp"
#include "engine/retry_safety.hpp"
#include "engine/runtime/cancellable_sleep.hpp"
#include "engine/strategies/refused.hpp"

namespace squall {

std::string_view to_string(FallbackRouting routing) {
  static constexpr std::array<std::string_view, kFallbackRoutingCount> kNames{SQUALL_FALLBACK_ROUTINGS(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(routing)];
}

std::vector<OutcomeKind> FallbackConfig::default_cooldown_on() {
  return {OutcomeKind::timeout,    OutcomeKind::rate_limited, OutcomeKind::quota_exhausted,
          OutcomeKind::overloaded, OutcomeKind::server_error, OutcomeKind::auth_error};
}

std::vector<OutcomeKind> FallbackConfig::default_on() {
  return {OutcomeKind::timeout,        OutcomeKind::rate_limited,   OutcomeKind::quota_exhausted,
          OutcomeKind::overloaded,     OutcomeKind::server_error,   OutcomeKind::auth_error,
          OutcomeKind::context_length, OutcomeKind::content_filter, OutcomeKind::invalid_output,
          OutcomeKind::truncated,      OutcomeKind::circuit_open,   OutcomeKind::budget_exhausted,
          OutcomeKind::throttled,      OutcomeKind::bulkhead_full,  OutcomeKind::rate_limiter_rejected};
}

FallbackStrategy::FallbackStrategy(FallbackConfig config, EngineEnv env)
    : config_(std::move(config)), env_(env), on_(config_.on), cooldown_on_(config_.cooldown_on) {
  assert(env_.providers != nullptr && !config_.providers.empty());
  for (const std::string& name : config_.providers) {
    const auto id = env_.providers->find(name);
    assert(id.has_value());
    backups_.push_back(*id);
  }
}

std::vector<ProviderId> FallbackStrategy::order(const Request& request) const {
  std::vector<ProviderId> ordered = backups_;
  const ProviderRegistry& registry = *env_.providers;
  switch (config_.routing) {
    case FallbackRouting::in_order: break;
    case FallbackRouting::cheapest:
      std::stable_sort(ordered.begin(), ordered.end(), [&](ProviderId a, ProviderId b) {
        return registry.descriptor(a).worst_case_cost_usd(request.prompt_tokens, request.max_output_tokens) <
               registry.descriptor(b).worst_case_cost_usd(request.prompt_tokens, request.max_output_tokens);
      });
      break;
    case FallbackRouting::fastest:
      // An unobserved provider sorts as latency -1, before every measured one.
      std::stable_sort(ordered.begin(), ordered.end(), [&](ProviderId a, ProviderId b) {
        return registry.latency(a).mean().value_or(-1) < registry.latency(b).mean().value_or(-1);
      });
      break;
  }
  return ordered;
}

// One walk down the chain.
struct FallbackStrategy::Walk {
  ProviderId from = kNoProvider;  // the last provider called, whose failure moves the call on
  OutcomeKind trigger = OutcomeKind::success;
  std::optional<Outcome> last;  // that provider's outcome
  bool passed_for_budget = false;
  bool passed_for_context = false;
  ProviderId first_cool = kNoProvider;  // of those passed over for cooling, the first to end it
};

std::optional<FallbackAction> FallbackStrategy::pass_over(ProviderId candidate, const CallContext& ctx,
                                                          const Request& request, const Next& next) const {
  const ProviderDescriptor& d = env_.providers->descriptor(candidate);
  if (!d.fits(request.prompt_tokens, request.max_output_tokens)) return FallbackAction::skipped_context;
  if (!d.capabilities.covers(request.required)) return FallbackAction::skipped_capability;
  if (config_.cooldown && env_.providers->cooldowns().cooling(candidate, env_.clock.now())) {
    return FallbackAction::skipped_cooldown;
  }
  CallContext probe = ctx;  // the question is asked for the candidate, without moving the call
  probe.provider = candidate;
  if (next.refuses(probe, request)) return FallbackAction::skipped_budget;
  return std::nullopt;
}

void FallbackStrategy::cool(const CallContext& ctx, ProviderId candidate, const Outcome& outcome) const {
  if (!cooldown_on_.contains(outcome.kind)) return;
  Nanos duration = *config_.cooldown;
  if (config_.cooldown_from_retry_after) {
    // A Retry-After of 0 asks for nothing: the configured cooldown applies.
    const auto hint = server_retry_delay(outcome.response, env_.wall_now_unix_ns());
    if (hint && *hint > 0) duration = config_.max_cooldown ? std::min(*hint, *config_.max_cooldown) : *hint;
  }
  const TimePoint now = env_.clock.now();
  CooldownBoard& board = env_.providers->cooldowns();
  if (const auto cooled = board.fail(candidate, outcome.kind, now, duration, config_.allowed_fails)) {
    emit(ctx, FallbackAction::cooled, candidate, kNoProvider, outcome.kind, cooled->until - now);
  }
}

void FallbackStrategy::emit(const CallContext& ctx, FallbackAction action, ProviderId from, ProviderId to,
                            OutcomeKind trigger, Nanos wait) const {
  const auto name = [this](ProviderId id) -> std::string_view {
    return id == kNoProvider ? std::string_view() : std::string_view(env_.providers->descriptor(id).name);
  };
  env_.events.on_fallback(
      FallbackEvent{ctx.task.id, ctx.tool, action, name(from), name(to), trigger, env_.clock.now(), wait});
}

Outcome FallbackStrategy::exhausted(CallContext& ctx, Walk& walk) const {
  emit(ctx, FallbackAction::exhausted, walk.from, kNoProvider, walk.trigger);
  ctx.task.history.fallbacks_exhausted = true;
  if (walk.last) return std::move(*walk.last);
  Outcome none;  // no provider was called
  none.response.status = 0;
  if (walk.passed_for_budget) {
    none.kind = OutcomeKind::budget_exhausted;
  } else if (walk.first_cool != kNoProvider) {
    none.kind = env_.providers->cooldowns().cooled_by(walk.first_cool);
    if (none.kind == OutcomeKind::rate_limited || none.kind == OutcomeKind::quota_exhausted) {
      none.response.status = 429;
    }
  } else {
    none.kind = walk.passed_for_context ? OutcomeKind::context_length : OutcomeKind::bad_request;
  }
  return none;
}

Task<Outcome> FallbackStrategy::execute(CallContext& ctx, Request& request, Next next) {
  const ProviderId primary = ctx.provider;
  const CooldownBoard& board = env_.providers->cooldowns();
  for (;;) {
    Walk walk;
    // The backups are ordered only once the primary has failed or been passed over, so a
    // call its primary serves pays nothing for routing.
    std::vector<ProviderId> backups;
    for (std::size_t i = 0; i <= backups_.size(); ++i) {
      if (i == 1) backups = order(request);
      const ProviderId candidate = i == 0 ? primary : backups[i - 1];
      if (i > 0 && candidate == primary) continue;
      // Once the call's deadline has passed no backup can be called (no attempt starts at
      // or after it, FusedCall), so the chain ends with the last provider's outcome: no
      // switch reported for a call that would not happen, and no `exhausted` event while
      // backups remain; the deadline ended it, as relax_threshold's and hedging's end theirs.
      if (walk.last && env_.clock.now() >= ctx.deadline) co_return std::move(*walk.last);
      if (const auto why = pass_over(candidate, ctx, request, next)) {
        emit(ctx, *why, walk.from, candidate, walk.trigger);
        walk.passed_for_budget = walk.passed_for_budget || *why == FallbackAction::skipped_budget;
        walk.passed_for_context = walk.passed_for_context || *why == FallbackAction::skipped_context;
        if (*why == FallbackAction::skipped_cooldown &&
            (walk.first_cool == kNoProvider || board.cooling_until(candidate) < board.cooling_until(walk.first_cool))) {
          walk.first_cool = candidate;
        }
        continue;
      }
      if (candidate != primary) {
        emit(ctx, FallbackAction::switched, walk.from, candidate, walk.trigger);
        if (ctx.task.history.fallbacks != UINT32_MAX) ++ctx.task.history.fallbacks;
      }
      ctx.provider = candidate;
      Outcome outcome = co_await next(ctx, request);
      ctx.provider = primary;  // the move is scoped to the call (CallContext::provider)
      if (outcome.provider == kNoProvider) outcome.provider = candidate;  // a refusal: the candidate's
      if (config_.cooldown) cool(ctx, candidate, outcome);
      if (!on_.contains(outcome.kind) || !may_resend(env_.providers->descriptor(candidate), outcome.kind)) {
        if (outcome.kind == OutcomeKind::success && candidate != primary) ctx.task.mark(Degradation::fallback_provider);
        co_return outcome;
      }
      walk.from = candidate;
      walk.trigger = outcome.kind;
      walk.last = std::move(outcome);
    }
    // Nobody was called and a cooldown ends before the deadline: wait for it, walk again.
    const TimePoint end = walk.first_cool == kNoProvider ? kNever : board.cooling_until(walk.first_cool);
    if (walk.last || end >= ctx.deadline) co_return exhausted(ctx, walk);
    emit(ctx, FallbackAction::waited_cooldown, kNoProvider, walk.first_cool, board.cooled_by(walk.first_cool),
         end - env_.clock.now());
    // A caller that gives up (a hedge that lost) is not held until the cooldown ends.
    if (co_await sleep_until(env_.scheduler, end, ctx.cancellation) == Wake::cancelled) {
      co_return refused(OutcomeKind::cancelled);
    }
  }
}

std::unique_ptr<Strategy> make_strategy(const FallbackConfig& config, const StrategyBuild& build) {
  return std::make_unique<FallbackStrategy>(config, build.env);
}

}  // namespace squall

#include "engine/pipeline.hpp"

#include <algorithm>

#include "engine/classify.hpp"
#include "engine/fused_call.hpp"
#include "engine/provider_registry.hpp"
#include "engine/strategies/retry.hpp"

namespace squall {

Task<Outcome> Next::operator()(CallContext& ctx, Request& request) const {
  return pipeline_->run_from(index_, ctx, request);
}

bool Next::refuses(const CallContext& ctx, const Request& request) const {
  return pipeline_->refuses_from(index_, ctx, request);
}

bool Next::admit_retry(const CallContext& ctx, const Request& request) const {
  return pipeline_->admit_retry_from(index_, ctx, request);
}

Task<Outcome> Gate::execute(CallContext& ctx, Request& request, Next next) {
  Ticket ticket;
  Outcome& outcome = co_await Task<Outcome>::result_slot();
  if (!admit(ctx, request, ticket, outcome)) co_return Task<Outcome>::kSlotFilled;
  co_await next(ctx, request).into(outcome);
  settle(ctx, ticket, outcome);
  co_return Task<Outcome>::kSlotFilled;
}

Task<Outcome> Strategy::execute_gated(OuterGates gates, CallContext& ctx, Request& request, Next next) {
  Outcome& outcome = co_await Task<Outcome>::result_slot();
  if (gates.admit(ctx, request, outcome)) co_await execute(ctx, request, next).into(outcome);
  gates.settle(ctx, outcome);
  co_return Task<Outcome>::kSlotFilled;
}

bool OuterGates::admit(CallContext& ctx, const Request& request, Outcome& outcome) {
  while (admitted_ < count_ && gates_[admitted_]->admit(ctx, request, tickets_[admitted_], outcome)) ++admitted_;
  return admitted_ == count_;
}

void OuterGates::settle(CallContext& ctx, Outcome& outcome) {
  while (admitted_ > 0) {
    --admitted_;
    gates_[admitted_]->settle(ctx, tickets_[admitted_], outcome);
  }
}

Pipeline::Pipeline(Terminal& terminal, std::vector<std::unique_ptr<Strategy>> strategies)
    : terminal_(terminal),
      strategies_(std::move(strategies)),
      fusable_(fusable_of(strategies_)),
      routes_(strategies_.size() + 1) {}

Pipeline::Pipeline(Provider& provider, EngineEnv env, std::vector<std::unique_ptr<Strategy>> strategies)
    : own_terminal_(std::make_unique<ProviderAttempt>(provider, env)),
      terminal_(*own_terminal_),
      strategies_(std::move(strategies)),
      fusable_(fusable_of(strategies_)),
      routes_(strategies_.size() + 1) {}

Pipeline::~Pipeline() = default;

const FusedRoute Pipeline::kNoRoute{};

std::vector<Pipeline::Fusable> Pipeline::fusable_of(const std::vector<std::unique_ptr<Strategy>>& strategies) {
  std::vector<Fusable> fusable;
  for (const auto& s : strategies) fusable.push_back(Fusable{s->as_gate(), s->as_retry()});
  // From the last strategy back: the gates and retries from each one on, and the first
  // strategy from it on that is not a gate.
  std::size_t gates = 0;
  std::size_t retries = 0;
  bool all_fuse = true;
  std::size_t not_gate = fusable.size();
  for (std::size_t i = fusable.size(); i-- > 0;) {
    Fusable& f = fusable[i];
    if (f.gate != nullptr) {
      ++gates;
    } else if (f.retry != nullptr) {
      ++retries;
    } else {
      all_fuse = false;
    }
    f.may_fuse = all_fuse && retries <= 1 && gates <= FusedRoute::kMaxGates;
    if (f.gate == nullptr) {
      not_gate = i;
    } else if (not_gate < fusable.size() && not_gate - i <= OuterGates::kMax) {
      f.gated = static_cast<std::uint32_t>(not_gate);
    }
  }
  return fusable;
}

Task<Outcome> Pipeline::execute(CallContext& ctx, Request& request) const {
  if (const FusedRoute* route = enter(ctx)) return run_fused(*route, ctx, request);
  return run_from(0, ctx, request);
}

const FusedRoute* Pipeline::enter(CallContext& ctx) const {
  ctx.deadline = std::min(ctx.deadline, ctx.task.deadline);
  return fused_route(0, ctx);
}

Task<Outcome> Pipeline::run_from(std::size_t index, CallContext& ctx, Request& request) const {
  if (const FusedRoute* route = fused_route(index, ctx)) return run_fused(*route, ctx, request);
  return run_unfused_from(index, ctx, request);
}

Task<Outcome> Pipeline::run_unfused(CallContext& ctx, Request request) const {
  Outcome& outcome = co_await Task<Outcome>::result_slot();
  co_await run_unfused_from(0, ctx, request).into(outcome);
  co_return Task<Outcome>::kSlotFilled;
}

Task<Outcome> Pipeline::run_unfused_from(std::size_t index, CallContext& ctx, Request& request) const {
  if (index == strategies_.size()) return terminal_.run(ctx, request);
  if (const std::uint32_t gated = fusable_[index].gated; gated != kNoStrategy) {
    OuterGates gates;
    for (std::size_t i = index; i < gated; ++i) gates.add(*fusable_[i].gate);
    return strategies_[gated]->execute_gated(gates, ctx, request, Next(this, gated + 1));
  }
  return strategies_[index]->execute(ctx, request, Next(this, index + 1));
}

const FusedRoute* Pipeline::fused_route(std::size_t index, const CallContext& ctx) const {
  std::vector<const FusedRoute*>& by_provider = routes_[index];
  // kNoProvider (UINT32_MAX) wraps to entry 0, the provider ids follow it.
  const std::size_t slot = static_cast<std::uint32_t>(ctx.provider + 1);
  if (slot >= by_provider.size()) by_provider.resize(slot + 1, nullptr);
  const FusedRoute*& known = by_provider[slot];
  if (known == nullptr) {
    FusedRoute route;
    if (route_from(index, ctx, route)) {
      known = route_store_.emplace_back(std::make_unique<FusedRoute>(route)).get();
    } else {
      known = &kNoRoute;
    }
  }
  return known == &kNoRoute ? nullptr : known;
}

bool Pipeline::route_from(std::size_t index, const CallContext& ctx, FusedRoute& route) const {
  if (index < fusable_.size() && !fusable_[index].may_fuse) return false;
  for (std::size_t i = index; i < fusable_.size(); ++i) {
    const Fusable& s = fusable_[i];
    if (s.gate != nullptr) {
      if (!route.add_gate(*s.gate)) return false;
    } else if (s.retry != nullptr) {
      if (!route.set_retry(*s.retry, *this, i + 1)) return false;
    } else {
      return false;
    }
  }
  return terminal_.route(ctx, route);
}

bool Pipeline::refuses_from(std::size_t index, const CallContext& ctx, const Request& request) const {
  if (index < strategies_.size()) return strategies_[index]->refuses(ctx, request, Next(this, index + 1));
  return terminal_.refuses(ctx, request);
}

bool Pipeline::admit_retry_from(std::size_t index, const CallContext& ctx, const Request& request) const {
  if (index < strategies_.size()) return strategies_[index]->admit_retry(ctx, request, Next(this, index + 1));
  return terminal_.admit_retry(ctx, request);
}

ProviderAttempt::ProviderAttempt(Provider& provider, EngineEnv env, LatencyWindow* observed, std::string_view name)
    : provider_(provider),
      env_(env),
      observed_(observed),
      name_(name.empty() ? provider.name() : name),
      own_route_(std::make_unique<FusedRoute>()) {
  own_route_->attempt = this;
}

ProviderAttempt::~ProviderAttempt() = default;

Task<Outcome> ProviderAttempt::run(CallContext& ctx, Request& request) { return run_fused(*own_route_, ctx, request); }

bool ProviderAttempt::route(const CallContext& /*ctx*/, FusedRoute& route) const {
  route.attempt = this;
  return true;
}

CallOptions ProviderAttempt::begin(CallContext& ctx, TimePoint started) const {
  ++ctx.attempts;
  CallOptions options;
  options.deadline = std::min(ctx.deadline, add_saturating(started, ctx.attempt_timeout));
  options.task_id = ctx.task.id;
  options.tool = ctx.tool;
  options.step = ctx.step;
  options.attempt = ctx.attempts;
  options.cancellation = ctx.cancellation;
  return options;
}

void ProviderAttempt::settle(CallContext& ctx, TimePoint started, Outcome& outcome) const {
  outcome.kind = classify(outcome.response);
  outcome.provider = ctx.provider;
  const Response& r = outcome.response;
  ctx.task.tokens_spent += r.input_tokens + r.output_tokens;
  ctx.task.cost_spent_usd += r.cost_usd;
  ctx.task.history.saw_attempt(outcome.kind);
  if (observed_ != nullptr && outcome.kind == OutcomeKind::success) observed_->add(env_.clock.now() - started);
  env_.events.on_attempt(AttemptEvent{ctx.task.id, ctx.tool, name_, ctx.attempts, started, env_.clock.now(),
                                      outcome.kind, r.status, r.input_tokens, r.output_tokens, r.cost_usd,
                                      r.truncated});
}

}  // namespace squall

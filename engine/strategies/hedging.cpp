#include "engine/strategies/hedging.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "engine/provider_registry.hpp"
#include "engine/retry_after.hpp"
#include "engine/retry_safety.hpp"
#include "engine/runtime/cancellable_sleep.hpp"
#include "engine/runtime/race.hpp"
#include "engine/runtime/wait_queue.hpp"
#include "engine/strategies/refused.hpp"

namespace squall {

// One hedged call: the caller's context and request (attempt 0's), and a copy of each for
// every hedge launched, so that concurrent attempts share no per-call state (race.hpp's
// rule). The vectors are reserved up front, so the copies never move while in use. A hedge
// copies the request as it entered (`entered`), not attempt 0's as it is when the hedge
// goes: strategies inside change the request while an attempt runs (a rewritten query
// views text in their own frame), and a hedge re-sends the caller's request.
struct HedgingStrategy::Call {
  CallContext& ctx;
  Request& request;
  const Request entered;
  Next next;
  std::vector<CallContext> contexts;
  std::vector<Request> requests;
  TimePoint deadline;
  std::int32_t attempts_before;  // ctx.attempts as the call entered
  // The hedge waiting out its delay, if any: at most one at a time, since hedge k + 1's
  // delay starts when hedge k launches. Any attempt's handled failure cuts it short, not
  // only that of the attempt just before it (gRFC A6: the next hedged request in line is
  // sent at once). Failures while that hedge is already woken (at the same instant, or
  // while a Retry-After holds it) send no second hedge: as grpc-java's RetriableStream
  // reschedules its one scheduled hedge, a failure moves the hedge in line, it does not
  // add one.
  CancellationSource* waiting = nullptr;
  // The latest end of a failed attempt's Retry-After, as a time (0: none): it holds the
  // next hedge, whichever attempt's failure carried it.
  TimePoint pushback_until = 0;
};

// One level of the race: attempt k against the chain of hedges after it.
struct HedgingStrategy::Level {
  bool attempt_failed = false;                     // attempt k ended in a handled outcome and waits for the hedges
  bool declined = false;                           // hedge k + 1 was not sent (budget, deadline)
  bool hedges_failed = false;                      // every attempt from k + 1 on ended in a handled outcome
  OutcomeKind failed_kind = OutcomeKind::success;  // attempt k's outcome, once attempt_failed
};

// An attempt's outcome and index; index -1: no attempt (a hedge not sent, or cancelled
// before it was).
struct HedgingStrategy::Hedged {
  Outcome outcome;
  std::int32_t index = -1;
};

namespace {

// Handled outcomes do not win (see the header): the transient ones, and the local
// refusals (an open breaker, a full bulkhead...), which are no answer from the provider.
bool acceptable(OutcomeKind kind) {
  const RetryClass c = retry_class(kind);
  return c != RetryClass::transient && c != RetryClass::local;
}

// What a hedge that was never sent returns; the level discards it (index -1).
Outcome not_sent() { return refused(OutcomeKind::cancelled); }

}  // namespace

HedgingStrategy::HedgingStrategy(HedgingConfig config, EngineEnv env, std::string owner)
    : config_(config), env_(env), owner_(std::move(owner)) {
  assert(config_.max_hedged_attempts >= 1 && config_.delay >= 0);
  if (config_.budget) budget_ppm_ = std::llround(*config_.budget * 1e6);
  assert(config_.providers.empty() || env_.providers != nullptr);
  for (const std::string& name : config_.providers) {
    const auto id = env_.providers->find(name);
    assert(id.has_value());
    targets_.push_back(*id);
  }
}

ProviderId HedgingStrategy::provider_of(const Call& call, std::int32_t k) const {
  if (k == 0 || targets_.empty()) return call.ctx.provider;
  return targets_[static_cast<std::size_t>(k - 1) % targets_.size()];
}

bool HedgingStrategy::can_serve(ProviderId id, const Request& request) const {
  if (env_.providers == nullptr || id == kNoProvider) return true;
  const ProviderDescriptor& d = env_.providers->descriptor(id);
  return d.fits(request.prompt_tokens, request.max_output_tokens) && d.capabilities.covers(request.required);
}

bool HedgingStrategy::admits_retry(const Call& call, ProviderId target) const {
  if (target == call.ctx.provider) return call.next.admit_retry(call.ctx, call.entered);
  CallContext hedge = call.ctx;
  hedge.provider = target;
  return call.next.admit_retry(hedge, call.entered);
}

bool HedgingStrategy::may_resend_after(const Call& call, std::int32_t k, const Level& lv) const {
  const ProviderId previous = provider_of(call, k - 1);
  if (env_.providers == nullptr || previous == kNoProvider || previous >= env_.providers->size()) return true;
  const ProviderDescriptor& d = env_.providers->descriptor(previous);
  // Still running, the previous attempt may be processing the request: only an outcome
  // that proves otherwise lets a non-idempotent provider's request be sent again.
  return lv.attempt_failed ? may_resend(d, lv.failed_kind) : d.idempotent;
}

bool HedgingStrategy::budget_allows() const {
  if (budget_ppm_ < 0) return true;
  // hedged + 1 <= budget * primaries, in integer parts per million: exact, and far from
  // overflow (budget <= 10, i.e. 1e7 ppm, times any count of calls a run makes).
  return (hedged_ + 1) * 1'000'000 <= static_cast<std::uint64_t>(budget_ppm_) * primaries_;
}

void HedgingStrategy::emit(const Call& call, HedgeAction action, std::int32_t hedge, const Response* billed) const {
  HedgeEvent e{call.ctx.task.id, owner_, action, hedge, env_.clock.now()};
  const ProviderId provider = provider_of(call, hedge);
  if (env_.providers != nullptr && provider != kNoProvider) e.provider = env_.providers->descriptor(provider).name;
  if (billed != nullptr) {
    e.input_tokens = billed->input_tokens;
    e.output_tokens = billed->output_tokens;
    e.cost_usd = billed->cost_usd;
  }
  env_.events.on_hedge(e);
}

Task<void> HedgingStrategy::until_cancelled(CancellationToken token) {
  // A queue nobody notifies, without a deadline: the wait ends when the token fires.
  WaitQueue never(env_.clock, env_.scheduler, 1);
  co_await never.wait(kNever, token);
}

Task<Outcome> HedgingStrategy::attempt(Call& call, std::int32_t k, CancellationToken token) {
  if (k == 0) {
    const CancellationToken outer = std::exchange(call.ctx.cancellation, token);
    Outcome o = co_await call.next(call.ctx, call.request);
    call.ctx.cancellation = outer;
    co_return o;
  }
  CallContext& ctx = call.contexts.emplace_back(call.ctx);
  Request& request = call.requests.emplace_back(call.entered);
  ctx.cancellation = token;
  // A hedge is a retry to a retry budget inside (Envoy counts it among active retries).
  ctx.retry = true;
  ctx.provider = provider_of(call, k);
  // Hedges number their attempts after the primary's, so attempt events stay distinct.
  ctx.attempts = call.attempts_before + k;
  Outcome& outcome = co_await Task<Outcome>::result_slot();
  co_await call.next(ctx, request).into(outcome);
  // A refusal names the provider the hedge went to (Outcome::provider).
  if (outcome.provider == kNoProvider) outcome.provider = ctx.provider;
  co_return Task<Outcome>::kSlotFilled;
}

Task<HedgingStrategy::Hedged> HedgingStrategy::run_attempt(Call& call, Level& lv, std::int32_t k,
                                                           CancellationToken token) {
  // Awaited into a variable first: GCC 12 destroys temporaries of a co_await inside a
  // braced initialiser twice.
  Outcome outcome = co_await attempt(call, k, token);
  Hedged h{std::move(outcome), k};
  if (token.cancelled()) {
    // Cut short by a winner, unless the caller gave up on the whole call.
    if (!call.ctx.cancellation.cancelled()) emit(call, HedgeAction::loser_cancelled, k, &h.outcome.response);
    co_return h;
  }
  if (acceptable(h.outcome.kind) || lv.declined || lv.hedges_failed) co_return h;
  // A handled failure: the next hedge goes now (gRPC's non-fatal codes), or when the
  // server's Retry-After says (gRPC's pushback), and this attempt waits for the hedges,
  // which the race ends by cancelling it.
  lv.attempt_failed = true;
  lv.failed_kind = h.outcome.kind;
  if (const auto pushback = server_retry_delay(h.outcome.response, env_.wall_now_unix_ns())) {
    call.pushback_until = std::max(call.pushback_until, add_saturating(env_.clock.now(), *pushback));
  }
  if (call.waiting != nullptr) call.waiting->cancel();
  co_await until_cancelled(token);
  co_return h;
}

Task<HedgingStrategy::Hedged> HedgingStrategy::run_hedge(Call& call, Level& lv, std::int32_t k,
                                                         CancellationToken token) {
  CancellationSource wake(token);
  call.waiting = &wake;
  if (!lv.attempt_failed) {
    co_await sleep_until(env_.scheduler, add_saturating(env_.clock.now(), config_.delay), wake.token());
  }
  call.waiting = nullptr;
  if (token.cancelled()) co_return Hedged{not_sent(), -1};
  // Pushback: a failure with a Retry-After holds the hedge until then (see the header).
  // A failure while it is held may push the end later: the hedge waits again until the
  // latest end (pushback_until only grows, so this ends).
  while (call.pushback_until > env_.clock.now() && call.pushback_until < call.deadline) {
    co_await sleep_until(env_.scheduler, call.pushback_until, token);
    if (token.cancelled()) co_return Hedged{not_sent(), -1};
  }
  // No hedge after the call's deadline (it could not start) or held past it, nor to a
  // provider that cannot serve the request, nor a re-send the previous attempt's provider
  // must not get, nor beyond the hedge budget, nor when a retry budget inside refuses it
  // (a hedge draws on it as a retry: see the header). The retry budget asked is that of
  // the hedge's own provider, as a shared per-provider budget would be.
  const ProviderId target = provider_of(call, k);
  std::optional<HedgeAction> refusal;  // the event of a hedge not sent, if any
  bool send = false;
  if (env_.clock.now() >= call.deadline || call.pushback_until >= call.deadline) {
    // late: no event
  } else if (!can_serve(target, call.entered)) {
    refusal = HedgeAction::unservable;
  } else if (!may_resend_after(call, k, lv)) {
    refusal = HedgeAction::not_idempotent;
  } else if (!budget_allows()) {
    refusal = HedgeAction::budget_denied;
  } else if (!admits_retry(call, target)) {
    refusal = HedgeAction::retry_budget_denied;
  } else {
    send = true;
  }
  if (!send) {
    if (refusal) emit(call, *refusal, k);
    lv.declined = true;
    if (!lv.attempt_failed) co_await until_cancelled(token);
    co_return Hedged{not_sent(), -1};
  }
  ++hedged_;
  emit(call, HedgeAction::launched, k);
  Hedged h = co_await level(call, k, token);
  if (!token.cancelled() && !acceptable(h.outcome.kind) && !lv.attempt_failed) {
    // The hedges failed while attempt k - 1 still runs: its answer may yet win, and if it
    // fails too, it ends last and gives the outcome.
    lv.hedges_failed = true;
    co_await until_cancelled(token);
  }
  co_return h;
}

Task<HedgingStrategy::Hedged> HedgingStrategy::level(Call& call, std::int32_t k, CancellationToken token) {
  Level lv;
  if (k == config_.max_hedged_attempts) {
    lv.declined = true;  // the last hedge: nothing comes after it to wait for
    co_return co_await run_attempt(call, lv, k, token);
  }
  RaceResult<Hedged> r = co_await race(
      token, [this, &call, &lv, k](CancellationToken t) { return run_attempt(call, lv, k, t); },
      [this, &call, &lv, k](CancellationToken t) { return run_hedge(call, lv, k + 1, t); });
  // A hedge that was never sent stands for nothing: the attempt's own outcome is the answer.
  if (r.won.index < 0) co_return std::move(r.lost);
  co_return std::move(r.won);
}

Task<Outcome> HedgingStrategy::execute(CallContext& ctx, Request& request, Next next) {
  ++primaries_;
  Call call{ctx, request, request, next, {}, {}, ctx.deadline, ctx.attempts, nullptr, 0};
  emit(call, HedgeAction::primary, 0);
  call.contexts.reserve(static_cast<std::size_t>(config_.max_hedged_attempts));
  call.requests.reserve(static_cast<std::size_t>(config_.max_hedged_attempts));
  Hedged h = co_await level(call, 0, ctx.cancellation);
  for (const CallContext& c : call.contexts) ctx.attempts = std::max(ctx.attempts, c.attempts);
  if (h.index > 0) {
    if (acceptable(h.outcome.kind)) emit(call, HedgeAction::won, h.index);
    request = call.requests[static_cast<std::size_t>(h.index) - 1];
    const ProviderId winner = provider_of(call, h.index);
    if (h.outcome.kind == OutcomeKind::success && winner != ctx.provider) ctx.task.mark(Degradation::fallback_provider);
  }
  co_return std::move(h.outcome);
}

std::unique_ptr<Strategy> make_strategy(const HedgingConfig& config, const StrategyBuild& build) {
  return std::make_unique<HedgingStrategy>(config, build.env, std::string(build.owner));
}

}  // namespace squall

#include "engine/strategies/cache.hpp"

#include <cassert>
#include <cstdint>
#include <utility>

#include "engine/runtime/wait_queue.hpp"

namespace squall {

std::vector<OutcomeKind> CacheConfig::default_stale_on() {
  return {OutcomeKind::timeout, OutcomeKind::rate_limited, OutcomeKind::overloaded, OutcomeKind::server_error,
          OutcomeKind::circuit_open};
}

// One call in flight and the calls waiting for its outcome. Shared by the leader and its
// waiters, since a waiter resumes from the event loop after the leader's frame may be gone.
struct CacheStrategy::Flight {
  Flight(Clock& clock, Scheduler& scheduler) : waiters(clock, scheduler, SIZE_MAX) {}

  // Unbounded: its length is bounded by the calls in flight, each of which waits once.
  WaitQueue waiters;
  // Set when the leader's call ends (the outcome only if someone waits for it).
  Outcome outcome;
  std::int32_t attempts = 0;            // provider attempts the leader's call made
  std::uint32_t degradations = 0;       // Degradation bits the leader's outcome added to its task
  std::optional<TimePoint> stale_from;  // the stored_at of the stale entry that answered
  bool start_over = false;              // the outcome was the leader's own; waiters start over
};

// The leader's hold on its flight. end() takes the flight out of the calls in flight and
// admits its waiters; a leader destroyed before that (its coroutine destroyed mid-call)
// makes its waiters start over instead of waiting for an outcome that will never come.
class CacheStrategy::Lead {
 public:
  Lead(Flights& flights, Flights::iterator it) : flights_(flights), it_(it), flight_(it->second) {}
  ~Lead() {
    if (ended_) return;
    flight_->start_over = true;
    end();
  }
  Lead(const Lead&) = delete;
  Lead& operator=(const Lead&) = delete;

  Flight& flight() const { return *flight_; }
  void end() {
    ended_ = true;
    flights_.erase(it_);
    flight_->waiters.notify_all();
  }

 private:
  Flights& flights_;
  Flights::iterator it_;
  std::shared_ptr<Flight> flight_;  // keeps the flight alive after erase()
  bool ended_ = false;
};

namespace {

// What a call that ends without an exchange returns (status 0: nothing was received).
Outcome local_outcome(OutcomeKind kind, Transport transport) {
  Outcome o;
  o.kind = kind;
  o.response.transport = transport;
  o.response.status = 0;
  return o;
}

}  // namespace

CacheStrategy::CacheStrategy(CacheConfig config, EngineEnv env, std::string owner)
    : config_(std::move(config)),
      env_(env),
      owner_(std::move(owner)),
      stale_on_(config_.stale_on),
      store_(static_cast<std::size_t>(config_.max_entries)) {
  assert(config_.ttl > 0 && config_.max_entries >= 1);
  assert(!config_.stale_if_error || *config_.stale_if_error > 0);
  assert(!config_.cache_empty || *config_.cache_empty > 0);
}

CacheStrategy::~CacheStrategy() = default;

void CacheStrategy::emit(const CallContext& ctx, CacheAction action, Nanos age, std::int32_t calls_saved) {
  env_.events.on_cache(CacheEvent{ctx.task.id, owner_, action, env_.clock.now(), age, calls_saved});
}

std::optional<Outcome> CacheStrategy::serve_fresh(CallContext& ctx, const CacheKeyView& key) {
  CacheStore::Entry* entry = store_.find(key);
  if (entry == nullptr) return std::nullopt;
  const TimePoint now = env_.clock.now();
  const CacheStore::EntryInfo& info = entry->info;
  if (now >= info.fresh_until) {
    // Expired: kept while it may still answer a failure, dropped after.
    if (!config_.stale_if_error || now - info.fresh_until > *config_.stale_if_error) store_.erase(*entry);
    return std::nullopt;
  }
  store_.touch(*entry);
  ctx.task.degradations |= info.degradations;
  emit(ctx, CacheAction::hit, now - info.stored_at, info.attempts);
  return entry->outcome;
}

std::optional<Outcome> CacheStrategy::answer_failure(CallContext& ctx, const CacheKeyView& key, OutcomeKind failed,
                                                     std::optional<TimePoint>& served_from) {
  if (!config_.stale_if_error || !stale_on_.contains(failed)) return std::nullopt;
  // An entry filled while this call was failing (by the call it waited for, at the very
  // time its own deadline came) is a fresh answer, not a stale one.
  if (std::optional<Outcome> fresh = serve_fresh(ctx, key)) return fresh;
  CacheStore::Entry* entry = store_.find(key);  // serve_fresh dropped it if useless
  if (entry == nullptr) return std::nullopt;
  const TimePoint now = env_.clock.now();
  store_.touch(*entry);
  served_from = entry->info.stored_at;
  ctx.task.degradations |= entry->info.degradations;
  if (entry->outcome.kind == OutcomeKind::success) ctx.task.mark(Degradation::stale_cache);
  emit(ctx, CacheAction::stale, now - entry->info.stored_at);
  return entry->outcome;
}

void CacheStrategy::store(CallContext& ctx, const CacheKeyView& key, const Outcome& outcome, std::int32_t attempts,
                          std::uint32_t degradations) {
  Nanos ttl = 0;
  if (outcome.kind == OutcomeKind::success) {
    ttl = config_.ttl;
  } else if (outcome.kind == OutcomeKind::empty && config_.cache_empty) {
    ttl = *config_.cache_empty;
  } else {
    return;
  }
  const TimePoint now = env_.clock.now();
  if (store_.put(key, outcome, CacheStore::EntryInfo{now, add_saturating(now, ttl), attempts, degradations})) {
    emit(ctx, CacheAction::evicted);
  }
}

Outcome CacheStrategy::join(CallContext& ctx, const Flight& flight) {
  ctx.task.degradations |= flight.degradations;
  emit(ctx, CacheAction::coalesced, 0, flight.attempts);
  if (flight.stale_from) {
    // The leader's task may have carried the mark already, so its added bits can lack it.
    if (flight.outcome.kind == OutcomeKind::success) ctx.task.mark(Degradation::stale_cache);
    emit(ctx, CacheAction::stale, env_.clock.now() - *flight.stale_from);
  }
  return flight.outcome;
}

Task<Outcome> CacheStrategy::lead(CallContext& ctx, Request& request, Next next, const CacheKey& key) {
  Lead lead(flights_, flights_.emplace(key, std::make_shared<Flight>(env_.clock, env_.scheduler)).first);
  emit(ctx, CacheAction::miss);
  const std::int32_t attempts_before = ctx.attempts;
  const std::uint32_t degradations_before = ctx.task.degradations;
  const TimePoint own_deadline = ctx.deadline;
  Outcome outcome = co_await next(ctx, request);

  Flight& flight = lead.flight();
  flight.attempts = ctx.attempts - attempts_before;
  // Outcomes about the leader's own task, not the provider: its waiters start over.
  flight.start_over = outcome.kind == OutcomeKind::cancelled || outcome.kind == OutcomeKind::budget_exhausted ||
                      (outcome.kind == OutcomeKind::timeout && env_.clock.now() >= own_deadline);
  // A cached answer replaces a failure, which is never stored; an answer is stored as it came.
  if (std::optional<Outcome> cached = answer_failure(ctx, key.view(), outcome.kind, flight.stale_from)) {
    outcome = std::move(*cached);
  } else {
    store(ctx, key.view(), outcome, flight.attempts, ctx.task.degradations & ~degradations_before);
  }
  flight.degradations = ctx.task.degradations & ~degradations_before;
  if (!flight.waiters.empty()) flight.outcome = outcome;
  lead.end();
  co_return outcome;
}

Task<Outcome> CacheStrategy::execute(CallContext& ctx, Request& request, Next next) {
  // The hit path looks the key up in scratch_, without allocating.
  const CacheKeyView probe = cache_key_of(request, scratch_);
  if (std::optional<Outcome> hit = serve_fresh(ctx, probe)) co_return std::move(*hit);
  const CacheKey key(probe);  // scratch_ belongs to the next call once this one waits

  // Each round either returns or waits for a leader that then ends (see the header).
  for (;;) {
    const auto in_flight = flights_.find(key);
    if (in_flight == flights_.end()) co_return co_await lead(ctx, request, next, key);
    const std::shared_ptr<Flight> flight = in_flight->second;
    const WaitResult waited = co_await flight->waiters.wait(ctx.deadline, ctx.cancellation);
    if (waited == WaitResult::admitted) {
      if (!flight->start_over) co_return join(ctx, *flight);
      if (std::optional<Outcome> hit = serve_fresh(ctx, key.view())) co_return std::move(*hit);
      continue;
    }
    if (waited == WaitResult::cancelled) co_return local_outcome(OutcomeKind::cancelled, Transport::cancelled);
    // timed_out (an unbounded queue never rejects).
    emit(ctx, CacheAction::wait_timeout);
    std::optional<TimePoint> stale_from;
    std::optional<Outcome> cached = answer_failure(ctx, key.view(), OutcomeKind::timeout, stale_from);
    co_return cached ? std::move(*cached) : local_outcome(OutcomeKind::timeout, Transport::timeout);
  }
}

std::unique_ptr<Strategy> make_strategy(const CacheConfig& config, const StrategyBuild& build) {
  return std::make_unique<CacheStrategy>(config, build.env, std::string(build.owner));
}

}  // namespace squall

// cache: a response cache in front of a search tool's provider, as an agent framework or a
// caching proxy puts one there (LiteLLM's response cache; an HTTP cache with stale-if-error,
// RFC 5861), with single-flight for concurrent misses.
//
// Keys. A request's key is its normalised query and its search parameters
// (engine/strategies/cache_key.hpp): ASCII lower case, whitespace runs collapsed, top_k,
// min_score and mode, so two requests that could get different answers never share an
// entry. The key is taken when the call enters the cache, before any strategy inside it
// changes the request (a simplified query's answer is kept under the query asked). The
// cache applies to search requests only (CacheConfig::kAppliesTo): other requests carry
// no query, and an LLM's or a tool's answer is not a function of one.
//
// Per call, at now:
//   entry fresh (now < stored_at + ttl)  -> hit: a copy of the entry's outcome, no call
//   an identical call in flight          -> wait for it (single-flight), then its outcome
//   otherwise                            -> miss: this call leads; next(ctx, request)
// The leader stores a `success` for `ttl`, and an `empty` for `cache_empty` when set
// (negative caching); nothing else is stored. If its outcome is a failure whose kind is
// in `stale_on` and `stale_if_error` is set, an entry that expired at most
// stale_if_error ago (now - fresh_until <= stale_if_error) answers instead: a stale
// answer, marked Degradation::stale_cache when it is a success, whose age
// (now - stored_at) is reported. An entry past that point is dropped when found. A
// failure never replaces or removes an entry.
//
// Single-flight. While a leader's call is in flight, later calls with the same key queue
// behind it (engine/runtime/wait_queue.hpp), each with its own deadline
// (CallContext::deadline) and cancellation (CallContext::cancellation):
// - when the leader's call ends, every waiter gets a copy of the leader's outcome, the
//   stale answer included, failures too: a provider that just failed is not asked again
//   by each waiter, which is the herd single-flight exists to prevent (Go's
//   x/sync/singleflight and Guava's LoadingCache give every waiter the leader's error the
//   same way). Three outcomes of the leader describe its own task rather than the
//   provider: `cancelled` (its caller gave up), `budget_exhausted` (its task's budget)
//   and a `timeout` at or after the leader's own deadline (CallContext::deadline as the
//   cache saw it: the task's, or an outer timeout's total), which a waiter arriving later
//   has not reached. After those, the waiters start over as if they had just arrived
//   (the leader itself still gets a stale answer if one is allowed): the first to resume
//   finds no call in flight and leads. If the leader's coroutine is destroyed before its
//   call ends, the waiters start over the same way.
// - a waiter whose deadline comes first ends with `timeout` (stale-if-error applies to it
//   as to any failure); one whose token fires first ends with `cancelled`.
// Starting over is bounded: each round needs a new leader to end, and a leader never
// waits again, so a call starts over at most once per call in flight with its key.
//
// Degradations. An entry remembers the degradations its leader's call added to the
// leader's task (a success through fallback_provider or simplified_query); a hit, a
// waiter and a stale answer add them to their own task, since the answer they reuse is
// that degraded.
//
// Events (CacheEvent): hit (with age and calls saved), miss, coalesced (with calls
// saved), wait_timeout, stale (with age), evicted. Calls saved by a hit or a waiter are
// the provider attempts the call whose answer it reused made (0 when that answer came
// from the cache too).
//
// State is per pipeline: one store and one set of calls in flight, shared by every task
// calling through it (as the circuit breaker's state is). Memory is bounded by
// max_entries entries; the calls in flight are bounded by the calls in flight. Time is the
// Clock's (virtual time); the store is ordered by key, so nothing depends on hashing.
//
// Placement: outermost, above timeout, so that a hit costs no deadline budget and the
// waiters wait under the task's deadline: [cache, timeout, simplify_query, fallback,
// retry, budget, circuit_breaker]. Inside retry, each retry would look the key up again.
//
// Defaults: ttl 10 min and max_entries 200 are LiteLLM's in-memory cache's
// (InMemoryCache default_ttl = 600 s, max_size_in_memory = 200); stale-if-error is off
// unless set, as in HTTP caching (RFC 5861 section 4: a cache serves stale on error only
// when told to); stale_on is the transient kinds without invalid_output (the circuit
// breaker's default failure_on) plus circuit_open: the errors RFC 5861 section 4 names
// (500, 502, 503, 504) and their client-side equivalents (timeouts, 429, a breaker that
// fails fast); negative caching is off unless set (RFC 2308 section 5 gives negative
// answers their own, usually shorter, TTL).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/config_fields.hpp"
#include "engine/pipeline.hpp"
#include "engine/strategies/cache_key.hpp"
#include "engine/strategies/cache_store.hpp"
#include "engine/strategies/outcome_mask.hpp"

namespace squall {

struct CacheConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "cache";
  // The provider kinds whose tools (or stacks) the cache may serve: those answering
  // requests that carry a query (engine/strategies/cache_key.hpp).
  static constexpr std::array<ProviderKind, 2> kAppliesTo{ProviderKind::web_search, ProviderKind::vector_search};

  // How long a success stays fresh; > 0. Default 10 min (LiteLLM InMemoryCache default_ttl).
  Nanos ttl = 10 * kMinute;
  // Entries kept at most; the least recently used goes first; >= 1. Default 200
  // (LiteLLM InMemoryCache max_size_in_memory).
  std::int64_t max_entries = 200;
  // How long after expiry an entry may still answer a call that failed with a kind in
  // stale_on; > 0. Default: none, never serve stale (RFC 5861 stale-if-error).
  std::optional<Nanos> stale_if_error;
  // The failures a stale entry may answer; only with stale_if_error. Default: timeout,
  // rate_limited, overloaded, server_error, circuit_open.
  std::vector<OutcomeKind> stale_on = default_stale_on();
  // How long an empty answer stays fresh; > 0. Default: none, empty answers are not
  // stored (negative caching, RFC 2308).
  std::optional<Nanos> cache_empty;

  static std::vector<OutcomeKind> default_stale_on();
};

// Ten million entries at most, each a page of search hits: more is gigabytes of memory for
// one pipeline's cache.
inline constexpr IntRange kCacheEntries{1, 10'000'000};

constexpr auto field_table(std::type_identity<CacheConfig>) {
  using C = CacheConfig;
  constexpr FieldRule<C> stale = [](const C&, const Written& w) {
    if (w.has("stale_if_error")) return Finding{};
    return Finding::error("applies only when stale_if_error is set");
  };
  return table<C>(duration("ttl", &C::ttl, DurationMin::positive)
                      .with_default(R"("10m")")
                      .doc("how long a success stays fresh")
                      .source("LiteLLM InMemoryCache default_ttl"),
                  integer("max_entries", &C::max_entries, kCacheEntries)
                      .with_default("200")
                      .unit("entries")
                      .doc("entries kept at most; the least recently used goes first")
                      .source("LiteLLM InMemoryCache max_size_in_memory"),
                  duration("stale_if_error", &C::stale_if_error, DurationMin::positive)
                      .doc("how long after expiry an entry may answer a failed call; none: never stale")
                      .source("RFC 5861 stale-if-error"),
                  field("stale_on", &C::stale_on, FieldKind::kinds)
                      .only_if(stale)
                      .with_default(R"(["timeout", "rate_limited", "overloaded", "server_error", "circuit_open"])")
                      .doc("the failures a stale entry answers")
                      .source("the failures a later call may not share"),
                  duration("cache_empty", &C::cache_empty, DurationMin::positive)
                      .doc("how long an empty answer stays fresh; none: not kept")
                      .source("negative caching, RFC 2308"));
}

class CacheStrategy final : public Strategy {
 public:
  // `owner` (the tool or provider whose pipeline holds it) names the cache in its events.
  CacheStrategy(CacheConfig config, EngineEnv env, std::string owner);
  ~CacheStrategy() override;
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

  // Entries kept now, fresh or not (for tests).
  std::size_t size() const { return store_.size(); }
  // Calls in flight with a distinct key (for tests).
  std::size_t in_flight() const { return flights_.size(); }

 private:
  struct Flight;
  class Lead;
  using Flights = std::map<CacheKey, std::shared_ptr<Flight>, CacheKeyLess>;

  // A copy of the fresh entry under `key` as `ctx`'s answer (a hit), or nullopt.
  std::optional<Outcome> serve_fresh(CallContext& ctx, const CacheKeyView& key);
  // Makes the call as the leader of a new flight and shares its outcome.
  Task<Outcome> lead(CallContext& ctx, Request& request, Next next, const CacheKey& key);
  // Stores `outcome` under `key` if it is an answer the cache keeps.
  void store(CallContext& ctx, const CacheKeyView& key, const Outcome& outcome, std::int32_t attempts,
             std::uint32_t degradations);
  // For a call that failed with `failed`, when stale-if-error allows it: a copy of the
  // entry under `key`, a stale answer (`served_from` set to its stored_at), or a hit when
  // the entry was filled while the call was failing. Nullopt when nothing may answer.
  std::optional<Outcome> answer_failure(CallContext& ctx, const CacheKeyView& key, OutcomeKind failed,
                                        std::optional<TimePoint>& served_from);
  // A waiter's copy of the flight's outcome.
  Outcome join(CallContext& ctx, const Flight& flight);
  void emit(const CallContext& ctx, CacheAction action, Nanos age = 0, std::int32_t calls_saved = 0);

  CacheConfig config_;
  EngineEnv env_;
  std::string owner_;
  OutcomeMask stale_on_;
  CacheStore store_;
  Flights flights_;
  std::string scratch_;  // the normalised query of the call being looked up
};

// Builds the strategy for a pipeline (engine/strategies/strategy_list.hpp).
std::unique_ptr<Strategy> make_strategy(const CacheConfig& config, const StrategyBuild& build);

}  // namespace squall

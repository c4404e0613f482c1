// cache: a response cache in front of a search tool's provider (LiteLLM's response cache;
// an HTTP cache with stale-if-error, RFC 5861), with single-flight for concurrent misses.
// Search requests only (CacheConfig::kAppliesTo). The key (cache_key.hpp) is the
// normalised query and the search parameters, taken as the call enters the cache.
//
// Shape: CacheConfig below. A fresh entry answers (hit); an identical call in flight is
// waited for (single-flight); otherwise the call leads and stores a success for `ttl` (and
// an empty for `cache_empty`, when set). A failure in `stale_on` may be answered by an
// entry expired at most `stale_if_error` ago (a stale answer, with its age). Units: Nanos
// for durations, entries for max_entries. Errors: none thrown; a waiter past its deadline
// ends `timeout`, one whose token fires `cancelled`. State is per pipeline; memory is
// bounded by max_entries. Place it outermost, above timeout.
//
// The algorithm, single-flight's rules for starting over, degradations, events and the
// sources of every default: docs/strategies/cache.md.
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

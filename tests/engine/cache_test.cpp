#include "engine/strategies/cache.hpp"

#include <gtest/gtest.h>

#include <optional>

#include "engine/runtime/cancellable_sleep.hpp"
#include "engine/strategies/simplify_query.hpp"
#include "engine/strategies/timeout.hpp"
#include "test_runtime.hpp"
#include "timeline.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::Reply;
using test::ScriptedProvider;

// A call made by task `id` (its events say "task <id>"), with the task's deadline.
struct TaskCall : Call {
  explicit TaskCall(std::uint64_t id, std::string query = "acme revenue", TimePoint deadline = kNever)
      : Call(std::move(query)) {
    task.id = id;
    task.deadline = deadline;
  }
};

Task<void> call_at(Harness& h, const Pipeline& pipeline, Call& call, TimePoint at) {
  co_await sleep_until(h.loop, at);
  call.outcome = co_await pipeline.execute(call.ctx, call.request);
  call.finished = h.loop.now();
}

// Starts `call` at virtual time `at`.
void start_at(Harness& h, const Pipeline& pipeline, Call& call, TimePoint at, std::exception_ptr* error) {
  spawn(call_at(h, pipeline, call, at), error);
}

void drain(Harness& h, const std::exception_ptr& error) {
  test::drain(h);
  if (error) std::rethrow_exception(error);
}

struct CacheRig {
  explicit CacheRig(CacheConfig config, std::vector<Reply> script) : provider(h.loop, std::move(script)) {
    auto strategy = std::make_unique<CacheStrategy>(std::move(config), h.env, "web_search");
    cache = strategy.get();
    pipeline = test::make_pipeline(provider, h.env, std::move(strategy));
  }
  Harness h;
  ScriptedProvider provider;
  CacheStrategy* cache = nullptr;
  std::unique_ptr<Pipeline> pipeline;
  std::exception_ptr error;

  void at(Call& call, TimePoint t) { start_at(h, *pipeline, call, t, &error); }
  void run() { drain(h, error); }
};

CacheConfig ttl_of(Nanos ttl) {
  CacheConfig c;
  c.ttl = ttl;
  return c;
}

CacheConfig stale_allowed(Nanos ttl, Nanos stale_if_error) {
  CacheConfig c = ttl_of(ttl);
  c.stale_if_error = stale_if_error;
  return c;
}

TEST(CacheKeyTest, NormalisesCaseAndWhitespaceOnly) {
  std::string scratch;
  Request r;
  r.query = "  Acme\t  REVENUE \n";
  EXPECT_EQ(cache_key_of(r, scratch).query, "acme revenue");
  r.query = R"("Acme Corp", 2023)";
  EXPECT_EQ(cache_key_of(r, scratch).query, R"("acme corp", 2023)");  // punctuation and quotes stay
  r.query = "Ünïcode ÄB";
  EXPECT_EQ(cache_key_of(r, scratch).query, "Ünïcode Äb");  // ASCII folding only
}

TEST(CacheKeyTest, SearchParametersArePartOfTheKey) {
  const CacheKeyLess less;
  std::string s1;
  std::string s2;
  Request a;
  a.query = "acme";
  Request b = a;
  const auto differ = [&] {
    const CacheKeyView x = cache_key_of(a, s1);
    const CacheKeyView y = cache_key_of(b, s2);
    return less(x, y) || less(y, x);
  };
  EXPECT_FALSE(differ());
  b.top_k = 5;
  EXPECT_TRUE(differ());
  b = a;
  b.min_score = 0.75;
  EXPECT_TRUE(differ());
  b = a;
  b.mode = SearchMode::keyword;
  EXPECT_TRUE(differ());
  b = a;
  b.query = "ACME";
  EXPECT_FALSE(differ());
}

TEST(CacheTest, FreshHitsUntilTheTtlThenAMiss) {
  // ttl 10 s; the answer arrives at 100 ms, so it is fresh while now < 10.1 s.
  CacheRig rig(ttl_of(10 * kSecond), {{test::results(2)}});
  TaskCall first(1);
  TaskCall hit(2);
  TaskCall last_hit(3);
  TaskCall expired(4);
  rig.at(first, 0);
  rig.at(hit, 5 * kSecond);
  rig.at(last_hit, 10'100 * kMillisecond - 1);
  rig.at(expired, 10'100 * kMillisecond);
  rig.run();

  EXPECT_EQ(rig.provider.start_times(), (std::vector<TimePoint>{0, 10'100 * kMillisecond}));
  EXPECT_EQ(first.finished, 100 * kMillisecond);
  EXPECT_EQ(hit.finished, 5 * kSecond);  // no provider latency
  EXPECT_EQ(hit.outcome->kind, OutcomeKind::success);
  EXPECT_EQ(hit.outcome->response.results().size(), 2u);
  EXPECT_EQ(last_hit.outcome->kind, OutcomeKind::success);
  EXPECT_EQ(last_hit.ctx.attempts, 0);
  EXPECT_EQ(expired.finished, 10'200 * kMillisecond);
  EXPECT_EQ(rig.h.log.caches, (std::vector<std::string>{
                                  "0ms task 1 miss age=0ms saved=0",
                                  "5000ms task 2 hit age=4900ms saved=1",
                                  "10099ms task 3 hit age=9999ms saved=1",  // 1 ns before expiry
                                  "10100ms task 4 miss age=0ms saved=0",
                              }));
  EXPECT_FALSE(hit.task.has(Degradation::stale_cache));
}

TEST(CacheTest, EquivalentQueriesShareAnEntryAndDifferentParametersDoNot) {
  CacheRig rig(CacheConfig{}, {{test::results()}});
  TaskCall first(1, "Acme   Revenue");
  TaskCall same(2, " acme revenue ");
  TaskCall top_k(3);
  top_k.request.top_k = 5;
  TaskCall punctuation(4, "acme, revenue");
  rig.at(first, 0);
  rig.at(same, kSecond);
  rig.at(top_k, 2 * kSecond);
  rig.at(punctuation, 3 * kSecond);
  rig.run();
  EXPECT_EQ(rig.provider.queries(), (std::vector<std::string>{"Acme   Revenue", "acme revenue", "acme, revenue"}));
  EXPECT_EQ(same.ctx.attempts, 0);
  EXPECT_EQ(rig.cache->size(), 3u);
}

TEST(CacheTest, StaleOnErrorIsServedWithItsAgeUpToTheMaximumStaleness) {
  // ttl 10 s, stale_if_error 30 s: the entry stored at 100 ms expires at 10.1 s and may
  // answer failures until 40.1 s (staleness <= 30 s).
  CacheRig rig(stale_allowed(10 * kSecond, 30 * kSecond), {{test::results()}, {test::status(503)}});
  TaskCall fill(1);
  TaskCall stale(2);
  TaskCall last_stale(3);
  TaskCall too_old(4);
  rig.at(fill, 0);
  rig.at(stale, 20 * kSecond);       // fails at 20.1 s: 10 s stale, served, 20 s old
  rig.at(last_stale, 40 * kSecond);  // fails at 40.1 s: exactly 30 s stale, served
  rig.at(too_old, 41 * kSecond);     // fails at 41.1 s: 31 s stale, not served
  rig.run();

  EXPECT_EQ(stale.outcome->kind, OutcomeKind::success);
  EXPECT_EQ(stale.finished, 20'100 * kMillisecond);
  EXPECT_TRUE(stale.task.has(Degradation::stale_cache));
  EXPECT_EQ(stale.ctx.attempts, 1);  // the provider was called and failed
  EXPECT_EQ(last_stale.outcome->kind, OutcomeKind::success);
  EXPECT_TRUE(last_stale.task.has(Degradation::stale_cache));
  EXPECT_EQ(too_old.outcome->kind, OutcomeKind::overloaded);
  EXPECT_FALSE(too_old.task.has(Degradation::stale_cache));
  EXPECT_EQ(rig.cache->size(), 0u);  // found useless and dropped
  EXPECT_EQ(rig.h.log.caches, (std::vector<std::string>{
                                  "0ms task 1 miss age=0ms saved=0",
                                  "20000ms task 2 miss age=0ms saved=0",
                                  "20100ms task 2 stale age=20000ms saved=0",
                                  "40000ms task 3 miss age=0ms saved=0",
                                  "40100ms task 3 stale age=40000ms saved=0",
                                  "41000ms task 4 miss age=0ms saved=0",
                              }));
}

TEST(CacheTest, StaleAnswersOnlyTheFailuresInStaleOn) {
  CacheConfig config = stale_allowed(kSecond, kMinute);
  config.stale_on = {OutcomeKind::server_error};
  CacheRig rig(config, {{test::results()}, {test::status(400)}, {test::status(429)}, {test::status(500)}});
  TaskCall fill(1);
  TaskCall bad_request(2);
  TaskCall rate_limited(3);
  TaskCall server_error(4);
  rig.at(fill, 0);
  rig.at(bad_request, 5 * kSecond);
  rig.at(rate_limited, 6 * kSecond);
  rig.at(server_error, 7 * kSecond);
  rig.run();
  EXPECT_EQ(bad_request.outcome->kind, OutcomeKind::bad_request);
  EXPECT_EQ(rate_limited.outcome->kind, OutcomeKind::rate_limited);
  EXPECT_EQ(server_error.outcome->kind, OutcomeKind::success);
  EXPECT_TRUE(server_error.task.has(Degradation::stale_cache));
  EXPECT_EQ(rig.h.log.caches.back(), "7100ms task 4 stale age=7000ms saved=0");
}

TEST(CacheTest, AStaleAnswerToAnEmptyResultIsNotReplacedByTheEmptyResult) {
  // stale_on names empty (a provider that answers [] while throttled) and empty answers are
  // cached: the stale success answers, and the empty result that it covered is not stored.
  CacheConfig config = stale_allowed(kSecond, kMinute);
  config.stale_on = {OutcomeKind::empty};
  config.cache_empty = 10 * kSecond;
  CacheRig rig(config, {{test::results()}, {test::no_results()}});
  TaskCall fill(1);
  TaskCall masked(2);
  TaskCall again(3);
  rig.at(fill, 0);
  rig.at(masked, 5 * kSecond);
  rig.at(again, 6 * kSecond);
  rig.run();
  EXPECT_EQ(masked.outcome->kind, OutcomeKind::success);
  EXPECT_EQ(again.outcome->kind, OutcomeKind::success);
  EXPECT_EQ(rig.provider.calls().size(), 3u);
  EXPECT_EQ(rig.h.log.caches.back(), "6100ms task 3 stale age=6000ms saved=0");
}

TEST(CacheTest, WithoutStaleIfErrorAFailureAfterExpiryIsReturned) {
  CacheRig rig(ttl_of(10 * kSecond), {{test::results()}, {test::status(502)}});
  TaskCall fill(1);
  TaskCall failed(2);
  rig.at(fill, 0);
  rig.at(failed, 20 * kSecond);
  rig.run();
  EXPECT_EQ(failed.outcome->kind, OutcomeKind::server_error);
  EXPECT_EQ(rig.cache->size(), 0u);  // expired, with no stale window: dropped when found
}

TEST(CacheTest, EvictsTheLeastRecentlyUsedEntry) {
  CacheConfig config;
  config.max_entries = 2;
  CacheRig rig(config, {{test::results()}});
  // a, b, a (hit: b is now least recently used), c (evicts b), a (hit), b (miss: evicts
  // c), c (miss: evicts a).
  const std::vector<std::string> queries{"a", "b", "a", "c", "a", "b", "c"};
  std::vector<std::unique_ptr<TaskCall>> calls;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    calls.push_back(std::make_unique<TaskCall>(i + 1, queries[i]));
    rig.at(*calls.back(), static_cast<TimePoint>(i) * kSecond);
  }
  rig.run();
  EXPECT_EQ(rig.provider.queries(), (std::vector<std::string>{"a", "b", "c", "b", "c"}));
  std::vector<std::string> evictions;
  for (const std::string& e : rig.h.log.caches) {
    if (e.find("evicted") != std::string::npos) evictions.push_back(e);
  }
  EXPECT_EQ(evictions,
            (std::vector<std::string>{"3100ms task 4 evicted age=0ms saved=0", "5100ms task 6 evicted age=0ms saved=0",
                                      "6100ms task 7 evicted age=0ms saved=0"}));
  EXPECT_EQ(rig.cache->size(), 2u);
}

TEST(CacheTest, ConcurrentMissesMakeOneProviderCall) {
  CacheRig rig(CacheConfig{}, {{test::results(3)}});
  std::vector<std::unique_ptr<TaskCall>> calls;
  for (std::uint64_t id = 1; id <= 5; ++id) {
    calls.push_back(std::make_unique<TaskCall>(id));
    rig.at(*calls.back(), 0);
  }
  rig.run();
  EXPECT_EQ(rig.provider.calls().size(), 1u);
  for (const auto& c : calls) {
    EXPECT_EQ(c->outcome->kind, OutcomeKind::success);
    EXPECT_EQ(c->outcome->response.results().size(), 3u);
    EXPECT_EQ(c->finished, 100 * kMillisecond);
  }
  EXPECT_EQ(rig.h.log.caches, (std::vector<std::string>{
                                  "0ms task 1 miss age=0ms saved=0",
                                  "100ms task 2 coalesced age=0ms saved=1",
                                  "100ms task 3 coalesced age=0ms saved=1",
                                  "100ms task 4 coalesced age=0ms saved=1",
                                  "100ms task 5 coalesced age=0ms saved=1",
                              }));
  EXPECT_EQ(rig.cache->in_flight(), 0u);
}

TEST(CacheTest, AWaiterWhoseDeadlineComesFirstTimesOut) {
  CacheRig rig(CacheConfig{}, {{test::results(), kSecond}});
  TaskCall leader(1);
  TaskCall hurried(2, "acme revenue", 500 * kMillisecond);
  TaskCall patient(3, "acme revenue", 2 * kSecond);
  rig.at(leader, 0);
  rig.at(hurried, 0);
  rig.at(patient, 0);
  rig.run();
  EXPECT_EQ(hurried.outcome->kind, OutcomeKind::timeout);
  EXPECT_EQ(hurried.outcome->response.transport, Transport::timeout);
  EXPECT_EQ(hurried.finished, 500 * kMillisecond);
  EXPECT_EQ(patient.outcome->kind, OutcomeKind::success);
  EXPECT_EQ(patient.finished, kSecond);
  EXPECT_EQ(leader.outcome->kind, OutcomeKind::success);
  EXPECT_EQ(rig.provider.calls().size(), 1u);
  EXPECT_EQ(rig.h.log.caches, (std::vector<std::string>{
                                  "0ms task 1 miss age=0ms saved=0",
                                  "500ms task 2 wait_timeout age=0ms saved=0",
                                  "1000ms task 3 coalesced age=0ms saved=1",
                              }));
}

TEST(CacheTest, AWaiterWhoseDeadlineComesFirstGetsAStaleAnswerWhenAllowed) {
  // The entry expired at 1.1 s; the waiter's deadline comes at 5.5 s while the leader's
  // call (started at 5 s) is still in flight.
  CacheRig rig(stale_allowed(kSecond, kMinute), {{test::results()}, {test::results(), kSecond}});
  TaskCall fill(1);
  TaskCall leader(2);
  TaskCall hurried(3, "acme revenue", 5'500 * kMillisecond);
  rig.at(fill, 0);
  rig.at(leader, 5 * kSecond);
  rig.at(hurried, 5 * kSecond);
  rig.run();
  EXPECT_EQ(hurried.outcome->kind, OutcomeKind::success);
  EXPECT_EQ(hurried.finished, 5'500 * kMillisecond);
  EXPECT_TRUE(hurried.task.has(Degradation::stale_cache));
  EXPECT_EQ(rig.h.log.caches[2], "5500ms task 3 wait_timeout age=0ms saved=0");
  EXPECT_EQ(rig.h.log.caches[3], "5500ms task 3 stale age=5400ms saved=0");
}

TEST(CacheTest, ACancelledWaiterEndsCancelled) {
  CacheRig rig(CacheConfig{}, {{test::results(), kSecond}});
  TaskCall leader(1);
  TaskCall waiter(2);
  CancellationSource source;
  waiter.ctx.cancellation = source.token();
  rig.at(leader, 0);
  rig.at(waiter, 0);
  test::at(
      rig.h.loop, 200 * kMillisecond, [&] { source.cancel(); }, &rig.error);
  rig.run();
  EXPECT_EQ(waiter.outcome->kind, OutcomeKind::cancelled);
  EXPECT_EQ(waiter.finished, 200 * kMillisecond);
  EXPECT_EQ(leader.outcome->kind, OutcomeKind::success);
  EXPECT_EQ(leader.finished, kSecond);
}

TEST(CacheTest, WaitersShareTheLeadersFailure) {
  CacheRig rig(CacheConfig{}, {{test::status(503)}});
  TaskCall leader(1);
  TaskCall a(2);
  TaskCall b(3);
  rig.at(leader, 0);
  rig.at(a, 0);
  rig.at(b, 0);
  rig.run();
  EXPECT_EQ(rig.provider.calls().size(), 1u);
  for (const TaskCall* c : {&leader, &a, &b}) {
    EXPECT_EQ(c->outcome->kind, OutcomeKind::overloaded);
    EXPECT_EQ(c->finished, 100 * kMillisecond);
  }
  EXPECT_EQ(a.ctx.attempts, 0);
  EXPECT_EQ(rig.cache->size(), 0u);  // failures are never stored
}

TEST(CacheTest, WaitersShareAStaleAnswer) {
  CacheRig rig(stale_allowed(kSecond, kMinute), {{test::results()}, {test::status(500)}});
  TaskCall fill(1);
  TaskCall leader(2);
  TaskCall waiter(3);
  rig.at(fill, 0);
  rig.at(leader, 5 * kSecond);
  rig.at(waiter, 5 * kSecond);
  rig.run();
  for (const TaskCall* c : {&leader, &waiter}) {
    EXPECT_EQ(c->outcome->kind, OutcomeKind::success);
    EXPECT_TRUE(c->task.has(Degradation::stale_cache));
  }
  EXPECT_EQ(rig.provider.calls().size(), 2u);
  EXPECT_EQ(rig.h.log.caches, (std::vector<std::string>{
                                  "0ms task 1 miss age=0ms saved=0",
                                  "5000ms task 2 miss age=0ms saved=0",
                                  "5100ms task 2 stale age=5000ms saved=0",
                                  "5100ms task 3 coalesced age=0ms saved=1",
                                  "5100ms task 3 stale age=5000ms saved=0",
                              }));
}

// Answers task `id`'s calls itself, after `delay`, with `kind` (as an inner strategy that
// refuses for that task's own reasons would); passes every other call on.
class OwnOutcomeFor final : public Strategy {
 public:
  OwnOutcomeFor(Harness& h, std::uint64_t id, OutcomeKind kind) : h_(h), id_(id), kind_(kind) {}
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override {
    if (ctx.task.id != id_) co_return co_await next(ctx, request);
    // A cancellable sleep removes its timer if its coroutine is destroyed.
    co_await sleep_until(h_.loop, h_.loop.now() + 100 * kMillisecond, CancellationToken{});
    Outcome o;
    o.kind = kind_;
    o.response.status = 0;
    co_return o;
  }

 private:
  Harness& h_;
  std::uint64_t id_;
  OutcomeKind kind_;
};

std::unique_ptr<Pipeline> cache_over(Harness& h, Provider& provider, std::unique_ptr<Strategy> inner) {
  return test::make_pipeline(provider, h.env, std::make_unique<CacheStrategy>(CacheConfig{}, h.env, "web_search"),
                             std::move(inner));
}

TEST(CacheTest, WaitersStartOverWhenTheLeadersOutcomeWasItsOwn) {
  for (const OutcomeKind own : {OutcomeKind::cancelled, OutcomeKind::budget_exhausted}) {
    Harness h;
    ScriptedProvider provider(h.loop, {{test::results()}});
    auto pipeline = cache_over(h, provider, std::make_unique<OwnOutcomeFor>(h, 1, own));
    std::exception_ptr error;
    TaskCall leader(1);
    TaskCall a(2);
    TaskCall b(3);
    for (TaskCall* c : {&leader, &a, &b}) start_at(h, *pipeline, *c, 0, &error);
    drain(h, error);
    EXPECT_EQ(leader.outcome->kind, own);
    // Task 2 resumed first, found no call in flight and led; task 3 waited for it.
    EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{100 * kMillisecond}));
    EXPECT_EQ(a.outcome->kind, OutcomeKind::success);
    EXPECT_EQ(b.outcome->kind, OutcomeKind::success);
    EXPECT_EQ(b.finished, 200 * kMillisecond);
    EXPECT_EQ(h.log.caches, (std::vector<std::string>{
                                "0ms task 1 miss age=0ms saved=0",
                                "100ms task 2 miss age=0ms saved=0",
                                "200ms task 3 coalesced age=0ms saved=1",
                            }))
        << to_string(own);
  }
}

TEST(CacheTest, WaitersStartOverWhenTheLeaderTimedOutAtItsOwnDeadline) {
  // The leader's task ends at 500 ms, before the provider's 1 s answer: its timeout says
  // nothing about the provider, and the waiter, whose deadline is 5 s, calls itself.
  CacheRig rig(CacheConfig{}, {{test::results(), kSecond}});
  TaskCall leader(1, "acme revenue", 500 * kMillisecond);
  TaskCall waiter(2, "acme revenue", 5 * kSecond);
  rig.at(leader, 0);
  rig.at(waiter, 0);
  rig.run();
  EXPECT_EQ(leader.outcome->kind, OutcomeKind::timeout);
  EXPECT_EQ(leader.finished, 500 * kMillisecond);
  EXPECT_EQ(rig.provider.start_times(), (std::vector<TimePoint>{0, 500 * kMillisecond}));
  EXPECT_EQ(waiter.outcome->kind, OutcomeKind::success);
  EXPECT_EQ(waiter.finished, 1'500 * kMillisecond);
  EXPECT_EQ(rig.h.log.caches,
            (std::vector<std::string>{"0ms task 1 miss age=0ms saved=0", "500ms task 2 miss age=0ms saved=0"}));
}

TEST(CacheTest, WaitersShareATimeoutThatIsTheProvidersSlowness) {
  // A per-attempt timeout inside the cache: the provider did not answer in 300 ms, which
  // would happen to the waiter's call too.
  Harness h;
  ScriptedProvider provider(h.loop, {{test::results(), kSecond}});
  TimeoutConfig per_attempt;
  per_attempt.per_attempt = 300 * kMillisecond;
  auto pipeline = cache_over(h, provider, std::make_unique<TimeoutStrategy>(per_attempt, h.loop));
  std::exception_ptr error;
  TaskCall leader(1);
  TaskCall waiter(2);
  start_at(h, *pipeline, leader, 0, &error);
  start_at(h, *pipeline, waiter, 0, &error);
  drain(h, error);
  EXPECT_EQ(provider.calls().size(), 1u);
  EXPECT_EQ(waiter.outcome->kind, OutcomeKind::timeout);
  EXPECT_EQ(waiter.finished, 300 * kMillisecond);
  EXPECT_EQ(waiter.ctx.attempts, 0);
}

TEST(CacheTest, WaitersStartOverWhenTheLeaderIsDestroyed) {
  Harness h;
  ScriptedProvider provider(h.loop, {{test::results()}});
  auto pipeline = cache_over(h, provider, std::make_unique<OwnOutcomeFor>(h, 1, OutcomeKind::success));
  std::exception_ptr error;
  TaskCall leader(1);
  std::optional<Task<Outcome>> leading(pipeline->execute(leader.ctx, leader.request));
  leading->await_suspend(std::noop_coroutine()).resume();  // runs until its sleep
  TaskCall waiter(2);
  start_at(h, *pipeline, waiter, 0, &error);
  test::at(
      h.loop, 50 * kMillisecond, [&] { leading.reset(); }, &error);
  drain(h, error);
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{50 * kMillisecond}));
  EXPECT_EQ(waiter.outcome->kind, OutcomeKind::success);
  EXPECT_EQ(waiter.finished, 150 * kMillisecond);
}

TEST(CacheTest, EmptyAnswersAreCachedOnlyWithCacheEmpty) {
  {
    CacheRig rig(CacheConfig{}, {{test::no_results()}});
    TaskCall a(1);
    TaskCall b(2);
    rig.at(a, 0);
    rig.at(b, kSecond);
    rig.run();
    EXPECT_EQ(rig.provider.calls().size(), 2u);
    EXPECT_EQ(b.outcome->kind, OutcomeKind::empty);
  }
  CacheConfig config;
  config.cache_empty = 5 * kSecond;  // the empty answer of 100 ms is fresh until 5.1 s
  CacheRig rig(config, {{test::no_results()}});
  TaskCall a(1);
  TaskCall hit(2);
  TaskCall expired(3);
  rig.at(a, 0);
  rig.at(hit, 5'100 * kMillisecond - 1);
  rig.at(expired, 5'100 * kMillisecond);
  rig.run();
  EXPECT_EQ(hit.outcome->kind, OutcomeKind::empty);
  EXPECT_EQ(hit.ctx.attempts, 0);
  EXPECT_EQ(rig.provider.start_times(), (std::vector<TimePoint>{0, 5'100 * kMillisecond}));
}

TEST(CacheTest, HitsCarryTheDegradationsOfTheCallThatFilledTheEntry) {
  // Inside the cache, simplify_query turns the empty "acme revenue 2023" into "acme
  // revenue", which succeeds: the entry is kept under the query asked, and a hit is as
  // degraded as the call that filled it.
  Harness h;
  ScriptedProvider provider(h.loop, [](std::size_t, const Request& r) {
    return Reply{r.query == "acme revenue" ? test::results() : test::no_results()};
  });
  auto pipeline =
      test::make_pipeline(provider, h.env, std::make_unique<CacheStrategy>(CacheConfig{}, h.env, "web_search"),
                          std::make_unique<SimplifyQueryStrategy>(SimplifyQueryConfig{}, h.env));
  std::exception_ptr error;
  TaskCall fill(1, "acme revenue 2023");
  TaskCall hit(2, "acme revenue 2023");
  start_at(h, *pipeline, fill, 0, &error);
  start_at(h, *pipeline, hit, kSecond, &error);
  drain(h, error);
  EXPECT_TRUE(fill.task.has(Degradation::simplified_query));
  EXPECT_EQ(hit.outcome->kind, OutcomeKind::success);
  EXPECT_TRUE(hit.task.has(Degradation::simplified_query));
  EXPECT_EQ(h.log.caches.back(), "1000ms task 2 hit age=800ms saved=2");
}

}  // namespace
}  // namespace squall

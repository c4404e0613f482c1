// fallback's cooldowns (engine/cooldown_board.hpp): exact timelines of cooling, passing
// over, re-cooling, waiting for the first cooldown to end, quota groups, and the admitted
// rate of a provider that always fails.
#include <gtest/gtest.h>

#include "engine/provider_registry.hpp"
#include "engine/strategies/fallback.hpp"
#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::ScriptedProvider;

constexpr Nanos ms = kMillisecond;

Response answer() {
  Response r;
  r.body = Body::completion;
  r.output_tokens = 10;
  return r;
}

ProviderDescriptor llm(std::string name, std::string group = {}) {
  ProviderDescriptor d;
  d.name = std::move(name);
  d.kind = ProviderKind::llm;
  d.quota_group = std::move(group);
  return d;
}

FallbackConfig cooling(std::vector<std::string> backups, Nanos cooldown = 5 * kSecond) {
  FallbackConfig c;
  c.providers = std::move(backups);
  c.cooldown = cooldown;
  return c;
}

// A registry, and one tool pipeline [fallback] over it.
struct Router {
  explicit Router(Harness& h) : registry(EngineEnv{h.loop, h.loop, h.log}) {}
  ProviderId add(ProviderDescriptor d, Provider& p) { return registry.add(std::move(d), p, {}); }
  void tool(FallbackConfig config) {
    std::vector<std::unique_ptr<Strategy>> chain;
    chain.push_back(std::make_unique<FallbackStrategy>(std::move(config), registry.env()));
    pipeline = std::make_unique<Pipeline>(registry, std::move(chain));
  }
  ProviderRegistry registry;
  std::unique_ptr<Pipeline> pipeline;
};

Task<void> call_at(Harness& h, TimePoint t, const Pipeline& pipeline, Call& call) {
  co_await sleep_until(h.loop, t);
  call.outcome = co_await pipeline.execute(call.ctx, call.request);
  call.finished = h.loop.now();
}

// Runs one call per start time, each starting at the primary `first`.
void run_calls(Harness& h, const Router& r, ProviderId first, const std::vector<TimePoint>& starts,
               std::vector<std::unique_ptr<Call>>& calls, TimePoint deadline = kNever) {
  std::exception_ptr error;
  for (const TimePoint t : starts) {
    calls.push_back(std::make_unique<Call>());
    calls.back()->ctx.provider = first;
    calls.back()->ctx.deadline = deadline;
    spawn(call_at(h, t, *r.pipeline, *calls.back()), &error);
  }
  h.loop.run(1'000'000);
  if (error) std::rethrow_exception(error);
}

TEST(FallbackCooldownTest, AFailingPrimaryIsPassedOverUntilItsCooldownEnds) {
  Harness h;
  ScriptedProvider gpt(h.loop, {{test::status(500), 100 * ms}});
  ScriptedProvider claude(h.loop, {{answer(), 100 * ms}});
  Router r(h);
  const ProviderId first = r.add(llm("gpt"), gpt);
  r.add(llm("claude"), claude);
  r.tool(cooling({"claude"}));
  std::vector<std::unique_ptr<Call>> calls;
  run_calls(h, r, first, {0, 1000 * ms, 5100 * ms}, calls);
  // Cooled at 100 ms for 5 s: the call at 1 s skips it; the cooldown ends at 5,100 ms
  // exactly, when the third call tries it again.
  EXPECT_EQ(gpt.start_times(), (std::vector<TimePoint>{0, 5100 * ms}));
  EXPECT_EQ(claude.start_times(), (std::vector<TimePoint>{100 * ms, 1000 * ms, 5200 * ms}));
  EXPECT_EQ(h.log.fallbacks,
            (std::vector<std::string>{
                "100ms cooled gpt-> on server_error for 5000ms", "100ms switched gpt->claude on server_error",
                "1000ms skipped_cooldown ->gpt on success", "1000ms switched ->claude on success",
                "5200ms cooled gpt-> on server_error for 5000ms", "5200ms switched gpt->claude on server_error"}));
  for (const auto& c : calls) EXPECT_EQ(c->outcome->kind, OutcomeKind::success);
}

TEST(FallbackCooldownTest, RetryAfterSetsTheCooldownAndTheLongestWins) {
  // Two calls at 0 reach gpt together: the first 429 (Retry-After 30) cools it to 30,100
  // ms; the second (Retry-After 2, at 150 ms) leaves that end as it is.
  Harness h;
  ScriptedProvider gpt(h.loop, {{test::status(429, "30"), 100 * ms}, {test::status(429, "2"), 150 * ms}});
  ScriptedProvider claude(h.loop, {{answer(), 100 * ms}});
  Router r(h);
  const ProviderId first = r.add(llm("gpt"), gpt);
  r.add(llm("claude"), claude);
  r.tool(cooling({"claude"}));
  std::vector<std::unique_ptr<Call>> calls;
  run_calls(h, r, first, {0, 0, 30'000 * ms, 30'100 * ms}, calls);
  EXPECT_EQ(gpt.start_times(), (std::vector<TimePoint>{0, 0, 30'100 * ms}));
  EXPECT_EQ(h.log.fallbacks[0], "100ms cooled gpt-> on rate_limited for 30000ms");
  EXPECT_EQ(h.log.fallbacks[2], "150ms cooled gpt-> on rate_limited for 29950ms");
  EXPECT_EQ(h.log.fallbacks[4], "30000ms skipped_cooldown ->gpt on success");
}

TEST(FallbackCooldownTest, MaxCooldownCapsARetryAfterAndFalseIgnoresIt) {
  for (const bool from_retry_after : {true, false}) {
    Harness h;
    ScriptedProvider gpt(h.loop, {{test::status(429, "3600"), 100 * ms}});
    ScriptedProvider claude(h.loop, {{answer(), 100 * ms}});
    Router r(h);
    const ProviderId first = r.add(llm("gpt"), gpt);
    r.add(llm("claude"), claude);
    FallbackConfig config = cooling({"claude"});
    config.cooldown_from_retry_after = from_retry_after;
    config.max_cooldown = 20 * kSecond;
    r.tool(config);
    std::vector<std::unique_ptr<Call>> calls;
    run_calls(h, r, first, {0}, calls);
    EXPECT_EQ(h.log.fallbacks[0], from_retry_after ? "100ms cooled gpt-> on rate_limited for 20000ms"
                                                   : "100ms cooled gpt-> on rate_limited for 5000ms");
  }
}

TEST(FallbackCooldownTest, AllowedFailsAreCountedPerMinute) {
  // allowed_fails 2: the third failure in a minute cools; the count starts again after it,
  // and a minute that ends clears it.
  Harness h;
  ScriptedProvider gpt(h.loop, {{test::status(500), 100 * ms}});
  ScriptedProvider claude(h.loop, {{answer(), 100 * ms}});
  Router r(h);
  const ProviderId first = r.add(llm("gpt"), gpt);
  r.add(llm("claude"), claude);
  FallbackConfig config = cooling({"claude"}, 1 * kSecond);
  config.allowed_fails = 2;
  r.tool(config);
  std::vector<std::unique_ptr<Call>> calls;
  run_calls(h, r, first, {0, 10'000 * ms, 20'000 * ms, 21'000 * ms, 70'000 * ms, 90'000 * ms}, calls);
  // The failures at 0.1, 10.1 and 20.1 s are three in a minute: gpt cools until 21.1 s, so
  // the call at 21 s passes it over; those at 70.1 and 90.1 s are the first two of a new
  // minute (it began at 70.1 s), so nothing cools.
  EXPECT_EQ(gpt.start_times(), (std::vector<TimePoint>{0, 10'000 * ms, 20'000 * ms, 70'000 * ms, 90'000 * ms}));
  std::vector<std::string> cooled;
  for (const std::string& e : h.log.fallbacks) {
    if (e.find("cooled") != std::string::npos) cooled.push_back(e);
  }
  EXPECT_EQ(cooled, (std::vector<std::string>{"20100ms cooled gpt-> on server_error for 1000ms"}));
}

// gpt answers 429 with Retry-After 10 s, claude 429 with Retry-After 4 s and then (when
// `recovers`) a completion: a first call at 0 cools gpt to 10,100 ms and claude to 4,200 ms.
struct BothCooling {
  explicit BothCooling(bool recovers = true)
      : gpt(h.loop, {{test::status(429, "10"), 100 * ms}}),
        claude(h.loop, recovers ? std::vector<test::Reply>{{test::status(429, "4"), 100 * ms}, {answer(), 100 * ms}}
                                : std::vector<test::Reply>{{test::status(429, "4"), 100 * ms}}),
        r(h) {
    first = r.add(llm("gpt"), gpt);
    r.add(llm("claude"), claude);
    r.tool(cooling({"claude"}));
  }
  Harness h;
  ScriptedProvider gpt;
  ScriptedProvider claude;
  Router r;
  ProviderId first = 0;
};

TEST(FallbackCooldownTest, WhenEveryCandidateIsCoolingTheCallWaitsForTheFirstToEnd) {
  BothCooling f;
  auto& [h, gpt, claude, r, first] = f;
  std::vector<std::unique_ptr<Call>> calls;
  run_calls(h, r, first, {0, 1000 * ms}, calls);
  EXPECT_EQ(calls[0]->outcome->kind, OutcomeKind::rate_limited);
  // gpt cools to 10,100 ms, claude to 4,200 ms: the call at 1 s waits 3,200 ms for claude.
  EXPECT_EQ(claude.start_times(), (std::vector<TimePoint>{100 * ms, 4200 * ms}));
  EXPECT_EQ(calls[1]->outcome->kind, OutcomeKind::success);
  EXPECT_EQ(calls[1]->finished, 4300 * ms);
  const std::vector<std::string> second(h.log.fallbacks.begin() + 4, h.log.fallbacks.end());
  EXPECT_EQ(second, (std::vector<std::string>{
                        "1000ms skipped_cooldown ->gpt on success", "1000ms skipped_cooldown ->claude on success",
                        "1000ms waited_cooldown ->claude on rate_limited for 3200ms",
                        "4200ms skipped_cooldown ->gpt on success", "4200ms switched ->claude on success"}));
}

Task<void> cancel_at(Harness& h, TimePoint t, CancellationSource& source) {
  co_await sleep_until(h.loop, t);
  source.cancel();
}

TEST(FallbackCooldownTest, ACallerThatGivesUpIsNotHeldByTheWait) {
  // The second call waits for claude's cooldown (until 4,200 ms); its caller cancels at
  // 2 s (a hedge that lost): it returns cancelled then, and nobody is called.
  BothCooling f;
  auto& [h, gpt, claude, r, first] = f;
  std::vector<std::unique_ptr<Call>> calls;
  CancellationSource source;
  std::exception_ptr error;
  for (const TimePoint t : {TimePoint{0}, 1000 * ms}) {
    calls.push_back(std::make_unique<Call>());
    calls.back()->ctx.provider = first;
    if (t > 0) calls.back()->ctx.cancellation = source.token();
    spawn(call_at(h, t, *r.pipeline, *calls.back()), &error);
  }
  spawn(cancel_at(h, 2000 * ms, source), &error);
  h.loop.run(1'000'000);
  ASSERT_FALSE(error);
  EXPECT_EQ(calls[1]->outcome->kind, OutcomeKind::cancelled);
  EXPECT_EQ(calls[1]->finished, 2000 * ms);
  EXPECT_EQ(claude.calls().size(), 1U);
}

TEST(FallbackCooldownTest, ACooldownEndingAfterTheDeadlineEndsTheCallAtOnce) {
  BothCooling f(/*recovers=*/false);
  auto& [h, gpt, claude, r, first] = f;
  std::vector<std::unique_ptr<Call>> calls;
  run_calls(h, r, first, {0, 1000 * ms}, calls, /*deadline=*/3000 * ms);
  const Outcome& second = *calls[1]->outcome;
  EXPECT_EQ(second.kind, OutcomeKind::rate_limited);
  EXPECT_EQ(second.response.status, 429);
  EXPECT_EQ(calls[1]->finished, 1000 * ms);
  EXPECT_EQ(gpt.calls().size() + claude.calls().size(), 2U);  // only the first call's
  EXPECT_EQ(h.log.fallbacks.back(), "1000ms exhausted -> on success");
}

TEST(FallbackCooldownTest, A429OnAQuotaGroupMemberCoolsTheGroupAndA500OnlyTheMember) {
  for (const int status : {429, 500}) {
    Harness h;
    ScriptedProvider big(h.loop, {{test::status(status), 100 * ms}});
    ScriptedProvider mini(h.loop, {{answer(), 100 * ms}});
    ScriptedProvider claude(h.loop, {{answer(), 100 * ms}});
    Router r(h);
    const ProviderId first = r.add(llm("gpt-4o", "openai-key"), big);
    r.add(llm("gpt-4o-mini", "openai-key"), mini);
    r.add(llm("claude"), claude);
    r.tool(cooling({"gpt-4o-mini", "claude"}));
    std::vector<std::unique_ptr<Call>> calls;
    run_calls(h, r, first, {0, 1000 * ms}, calls);
    if (status == 429) {
      // The 429 at 100 ms spent the key's quota: both members cool, the chain goes to claude.
      EXPECT_EQ(mini.calls().size(), 0U);
      EXPECT_EQ(claude.start_times(), (std::vector<TimePoint>{100 * ms, 1000 * ms}));
    } else {
      EXPECT_EQ(mini.start_times(), (std::vector<TimePoint>{100 * ms, 1000 * ms}));
      EXPECT_EQ(claude.calls().size(), 0U);
    }
  }
}

TEST(FallbackCooldownTest, AnAlwaysFailingProviderGetsOneCallPerCooldown) {
  // The admitted rate: calls every 100 ms for 60 s against a primary that always answers
  // 500 at once, cooldown 5 s. It is called when each cooldown ends: 60 s / 5 s = 12 calls.
  Harness h;
  ScriptedProvider gpt(h.loop, {{test::status(500), 0}});
  ScriptedProvider claude(h.loop, {{answer(), 50 * ms}});
  Router r(h);
  const ProviderId first = r.add(llm("gpt"), gpt);
  r.add(llm("claude"), claude);
  r.tool(cooling({"claude"}));
  std::vector<TimePoint> starts;
  for (TimePoint t = 0; t < 60 * kSecond; t += 100 * ms) starts.push_back(t);
  std::vector<std::unique_ptr<Call>> calls;
  run_calls(h, r, first, starts, calls);
  std::vector<TimePoint> expected;
  for (TimePoint t = 0; t < 60 * kSecond; t += 5 * kSecond) expected.push_back(t);
  EXPECT_EQ(gpt.start_times(), expected);
  EXPECT_EQ(claude.calls().size(), starts.size());
}

}  // namespace
}  // namespace squall

#include "engine/strategies/fallback.hpp"

#include <gtest/gtest.h>

#include "engine/provider_registry.hpp"
#include "engine/strategies/budget.hpp"
#include "engine/strategies/circuit_breaker.hpp"
#include "engine/strategies/refused.hpp"
#include "engine/strategies/retry.hpp"
#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::Reply;
using test::ScriptedProvider;

constexpr Nanos ms = kMillisecond;

// A completion of `tokens` output tokens, billed `usd`.
Response completion(std::int64_t tokens = 10, double usd = 0) {
  Response r;
  r.body = Body::completion;
  r.output_tokens = tokens;
  r.cost_usd = usd;
  return r;
}

ProviderDescriptor llm(std::string name, std::int64_t window = 128'000, double in_price = 2, double out_price = 8) {
  ProviderDescriptor d;
  d.name = std::move(name);
  d.kind = ProviderKind::llm;
  d.context_window = window;
  d.max_output_tokens = 16'384;
  d.price_per_mtok = {in_price, out_price};
  return d;
}

// A registry over the harness, fallback strategies built against it, and a tool pipeline
// [strategies...] ending in the registry.
struct Agent {
  explicit Agent(Harness& h) : registry(EngineEnv{h.loop, h.loop, h.log}) {}
  ProviderId add(ProviderDescriptor d, Provider& p) { return registry.add(std::move(d), p, {}); }
  template <class... S>
  void tool(std::unique_ptr<S>... strategies) {
    std::vector<std::unique_ptr<Strategy>> chain;
    (chain.push_back(std::move(strategies)), ...);
    pipeline = std::make_unique<Pipeline>(registry, std::move(chain));
  }
  EngineEnv env() const { return registry.env(); }
  ProviderRegistry registry;
  std::unique_ptr<Pipeline> pipeline;
};

FallbackConfig backups(std::vector<std::string> names, FallbackRouting routing = FallbackRouting::in_order) {
  FallbackConfig c;
  c.providers = std::move(names);
  c.routing = routing;
  return c;
}

RetryConfig three_attempts() {
  RetryConfig c;
  c.max_attempts = 3;
  c.backoff = Backoff::constant;
  c.base_delay = 1000 * ms;
  c.jitter = Jitter::none;
  c.max_retry_after = 5 * kSecond;
  return c;
}

std::vector<std::string> fallback_log(const test::EventLog& log) {
  std::vector<std::string> out;
  for (const auto& e : log.fallbacks) out.push_back(e);
  return out;
}

TEST(FallbackTest, RetryAfterAboveTheCapMovesToTheBackupAtOnce) {
  // The primary answers 429 with Retry-After 600 s after 100 ms; retry's cap is 5 s, so it
  // gives up at once (retry_after_exceeds_cap) and fallback calls the backup at 100 ms,
  // which answers at 200 ms. The primary is called once; success on the backup degrades.
  Harness h;
  ScriptedProvider primary(h.loop, {{test::status(429, "600"), 100 * ms}});
  ScriptedProvider backup(h.loop, {{completion(), 100 * ms}});
  Agent a(h);
  const ProviderId gpt = a.add(llm("gpt"), primary);
  a.add(llm("claude"), backup);
  FixedRng rng(0);
  a.tool(std::make_unique<FallbackStrategy>(backups({"claude"}), a.env()),
         std::make_unique<RetryStrategy>(three_attempts(), a.env(), rng));
  Call call;
  call.ctx.provider = gpt;
  EXPECT_EQ(test::run(h, *a.pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(primary.start_times(), (std::vector<TimePoint>{0}));
  EXPECT_EQ(backup.start_times(), (std::vector<TimePoint>{100 * ms}));
  EXPECT_EQ(call.finished, 200 * ms);
  EXPECT_TRUE(call.task.has(Degradation::fallback_provider));
  EXPECT_EQ(call.task.history.fallbacks, 1U);
  EXPECT_EQ(fallback_log(h.log), (std::vector<std::string>{"100ms switched gpt->claude on rate_limited"}));
  ASSERT_EQ(h.log.attempts.size(), 2U);
  EXPECT_EQ(h.log.attempts[1].provider, "claude");
}

TEST(FallbackTest, ARetryOutsideRunsTheWholeChainAgainFromThePrimary) {
  // [retry, fallback]: the primary always fails; the backup fails once, then answers. The
  // move to the backup is scoped to the call, so the retry's second attempt starts at the
  // primary again (1,100 ms) and falls back to the backup (1,200 ms), which answers. The
  // caller's context names the primary afterwards; the outcome names the backup.
  Harness h;
  ScriptedProvider primary(h.loop, {{test::status(500), 100 * ms}});
  ScriptedProvider backup(h.loop, {{test::status(500), 100 * ms}, {completion(), 100 * ms}});
  Agent a(h);
  const ProviderId gpt = a.add(llm("gpt"), primary);
  const ProviderId claude = a.add(llm("claude"), backup);
  FixedRng rng(0);
  a.tool(std::make_unique<RetryStrategy>(three_attempts(), a.env(), rng),
         std::make_unique<FallbackStrategy>(backups({"claude"}), a.env()));
  Call call;
  call.ctx.provider = gpt;
  const Outcome outcome = test::run(h, *a.pipeline, call);
  EXPECT_EQ(outcome.kind, OutcomeKind::success);
  EXPECT_EQ(outcome.provider, claude);
  EXPECT_EQ(call.ctx.provider, gpt);
  EXPECT_EQ(primary.start_times(), (std::vector<TimePoint>{0, 1200 * ms}));
  EXPECT_EQ(backup.start_times(), (std::vector<TimePoint>{100 * ms, 1300 * ms}));
  EXPECT_TRUE(call.task.has(Degradation::fallback_provider));
  EXPECT_EQ(call.task.history.fallbacks, 2U);
}

TEST(FallbackTest, ACandidateTooSmallForThePromptGetsNoCall) {
  // A 10,000-token prompt with 500 output tokens does not fit the primary's 8,000-token
  // window: it is passed over without a call and the backup serves at once.
  Harness h;
  ScriptedProvider small(h.loop, {{completion(), 100 * ms}});
  ScriptedProvider large(h.loop, {{completion(), 100 * ms}});
  Agent a(h);
  const ProviderId mini = a.add(llm("mini", 8'000), small);
  a.add(llm("big", 128'000), large);
  a.tool(std::make_unique<FallbackStrategy>(backups({"big"}), a.env()));
  Call call;
  call.ctx.provider = mini;
  call.request.prompt_tokens = 10'000;
  call.request.max_output_tokens = 500;
  EXPECT_EQ(test::run(h, *a.pipeline, call).kind, OutcomeKind::success);
  EXPECT_TRUE(small.calls().empty());
  EXPECT_EQ(large.start_times(), (std::vector<TimePoint>{0}));
  EXPECT_EQ(fallback_log(h.log),
            (std::vector<std::string>{"0ms skipped_context ->mini on success", "0ms switched ->big on success"}));
}

TEST(FallbackTest, WhenNoCandidateFitsTheOriginalErrorIsReturned) {
  // The primary fits and answers 503; the only backup's window is too small. The call
  // ends with the primary's overloaded, not with a context error for a backup never called.
  Harness h;
  ScriptedProvider primary(h.loop, {{test::status(503), 100 * ms}});
  ScriptedProvider tiny(h.loop, {{completion(), 100 * ms}});
  Agent a(h);
  const ProviderId gpt = a.add(llm("gpt"), primary);
  a.add(llm("tiny", 1'000), tiny);
  a.tool(std::make_unique<FallbackStrategy>(backups({"tiny"}), a.env()));
  Call call;
  call.ctx.provider = gpt;
  call.request.prompt_tokens = 2'000;
  EXPECT_EQ(test::run(h, *a.pipeline, call).kind, OutcomeKind::overloaded);
  EXPECT_TRUE(tiny.calls().empty());
  EXPECT_TRUE(call.task.history.fallbacks_exhausted);
  EXPECT_EQ(fallback_log(h.log), (std::vector<std::string>{"100ms skipped_context gpt->tiny on overloaded",
                                                           "100ms exhausted gpt-> on overloaded"}));
}

TEST(FallbackTest, NothingCalledAndNothingFitsEndsAsContextLength) {
  Harness h;
  ScriptedProvider p1(h.loop, {{completion(), 100 * ms}});
  ScriptedProvider p2(h.loop, {{completion(), 100 * ms}});
  Agent a(h);
  const ProviderId first = a.add(llm("a", 1'000), p1);
  a.add(llm("b", 1'000), p2);
  a.tool(std::make_unique<FallbackStrategy>(backups({"b"}), a.env()));
  Call call;
  call.ctx.provider = first;
  call.request.prompt_tokens = 5'000;
  EXPECT_EQ(test::run(h, *a.pipeline, call).kind, OutcomeKind::context_length);
  EXPECT_EQ(call.finished, 0);
}

TEST(FallbackTest, CheapestOrdersTheBackupsByWorstCaseCostOfTheRequest) {
  // Prompt 1000, output cap 1000: worst cases are pricey 1000*10+1000*30 = $0.04, cheap
  // $0.0015, mid $0.01, so after the primary fails the order is cheap, mid, pricey.
  Harness h;
  ScriptedProvider primary(h.loop, {{test::status(500), 100 * ms}});
  ScriptedProvider pricey(h.loop, {{completion(), 100 * ms}});
  ScriptedProvider cheap(h.loop, {{test::status(500), 100 * ms}});
  ScriptedProvider mid(h.loop, {{completion(), 100 * ms}});
  Agent a(h);
  const ProviderId gpt = a.add(llm("gpt"), primary);
  a.add(llm("pricey", 128'000, 10, 30), pricey);
  a.add(llm("cheap", 128'000, 0.5, 1), cheap);
  a.add(llm("mid", 128'000, 2, 8), mid);
  a.tool(std::make_unique<FallbackStrategy>(backups({"pricey", "cheap", "mid"}, FallbackRouting::cheapest), a.env()));
  Call call;
  call.ctx.provider = gpt;
  call.request.prompt_tokens = 1'000;
  call.request.max_output_tokens = 1'000;
  EXPECT_EQ(test::run(h, *a.pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(cheap.start_times(), (std::vector<TimePoint>{100 * ms}));
  EXPECT_EQ(mid.start_times(), (std::vector<TimePoint>{200 * ms}));
  EXPECT_TRUE(pricey.calls().empty());
}

TEST(FallbackTest, FastestTriesUnmeasuredProvidersFirstThenTheLowestMeanLatency) {
  // Call 1: primary fails; slow and fast are unmeasured, so list order: slow (800 ms)
  // serves. Call 2: primary fails; fast is unmeasured, so it comes before slow and serves
  // (50 ms). Call 3: both measured (800 vs 50 ms mean): fast first again.
  Harness h;
  ScriptedProvider primary(h.loop, {{test::status(500), 10 * ms}});
  ScriptedProvider slow(h.loop, {{completion(), 800 * ms}});
  ScriptedProvider fast(h.loop, [](std::size_t, const Request&) { return Reply{completion(), 50 * ms}; });
  Agent a(h);
  const ProviderId gpt = a.add(llm("gpt"), primary);
  a.add(llm("slow"), slow);
  a.add(llm("fast"), fast);
  a.tool(std::make_unique<FallbackStrategy>(backups({"slow", "fast"}, FallbackRouting::fastest), a.env()));
  for (int i = 0; i < 3; ++i) {
    Call call;
    call.ctx.provider = gpt;
    EXPECT_EQ(test::run(h, *a.pipeline, call).kind, OutcomeKind::success);
  }
  EXPECT_EQ(slow.calls().size(), 1U);
  EXPECT_EQ(fast.calls().size(), 2U);
  EXPECT_EQ(a.registry.latency(*a.registry.find("fast")).mean(), 50 * ms);
}

TEST(FallbackTest, ACandidateWithoutARequiredCapabilityIsPassedOver) {
  Harness h;
  ScriptedProvider primary(h.loop, {{test::status(429), 100 * ms}});
  ScriptedProvider plain(h.loop, {{completion(), 100 * ms}});
  ScriptedProvider json(h.loop, {{completion(), 100 * ms}});
  Agent a(h);
  ProviderDescriptor p = llm("gpt");
  p.capabilities.add(Capability::json_mode);
  const ProviderId gpt = a.add(p, primary);
  a.add(llm("plain"), plain);
  ProviderDescriptor j = llm("json");
  j.capabilities.add(Capability::json_mode);
  a.add(j, json);
  a.tool(std::make_unique<FallbackStrategy>(backups({"plain", "json"}), a.env()));
  Call call;
  call.ctx.provider = gpt;
  call.request.required.add(Capability::json_mode);
  EXPECT_EQ(test::run(h, *a.pipeline, call).kind, OutcomeKind::success);
  EXPECT_TRUE(plain.calls().empty());
  EXPECT_EQ(json.calls().size(), 1U);
  EXPECT_EQ(fallback_log(h.log)[0], "100ms skipped_capability gpt->plain on rate_limited");
}

TEST(FallbackTest, ABackupTheBudgetCannotAffordIsPassedOver) {
  // Budget inside fallback, max_cost_usd 0.05. Prompt 1000, output cap 1000. The primary's
  // 500 bills nothing; "opus" (15/75 per M) would cost up to $0.09 > 0.05: passed over;
  // "mini" ($0.0015) serves.
  Harness h;
  ScriptedProvider primary(h.loop, {{test::status(500), 100 * ms}});
  ScriptedProvider opus(h.loop, {{completion(), 100 * ms}});
  ScriptedProvider mini(h.loop, {{completion(), 100 * ms}});
  Agent a(h);
  const ProviderId gpt = a.add(llm("gpt"), primary);
  a.add(llm("opus", 200'000, 15, 75), opus);
  a.add(llm("mini", 128'000, 0.5, 1), mini);
  BudgetConfig budget;
  budget.max_cost_usd = 0.05;
  a.tool(std::make_unique<FallbackStrategy>(backups({"opus", "mini"}), a.env()),
         std::make_unique<BudgetStrategy>(budget, a.env()));
  Call call;
  call.ctx.provider = gpt;
  call.request.prompt_tokens = 1'000;
  call.request.max_output_tokens = 1'000;
  EXPECT_EQ(test::run(h, *a.pipeline, call).kind, OutcomeKind::success);
  EXPECT_TRUE(opus.calls().empty());
  EXPECT_EQ(mini.start_times(), (std::vector<TimePoint>{100 * ms}));
  EXPECT_EQ(fallback_log(h.log)[0], "100ms skipped_budget gpt->opus on server_error");
  EXPECT_TRUE(h.log.budgets.empty());  // passing over is not a refusal
}

TEST(FallbackTest, ANonIdempotentProviderIsNeverResentAfterATimeout) {
  // A CRM write times out (it may have happened): neither retry nor fallback sends it
  // again. A 429 proves it was not processed, so the same request may go to the backup.
  Harness h;
  ScriptedProvider crm(h.loop, {{completion(), 5 * kSecond}});
  ScriptedProvider backup(h.loop, {{completion(), 100 * ms}});
  Agent a(h);
  ProviderDescriptor write = llm("crm_write");
  write.idempotent = false;
  const ProviderId id = a.add(write, crm);
  a.add(llm("crm_backup"), backup);
  FixedRng rng(0);
  a.tool(std::make_unique<FallbackStrategy>(backups({"crm_backup"}), a.env()),
         std::make_unique<RetryStrategy>(three_attempts(), a.env(), rng));
  Call call;
  call.ctx.provider = id;
  call.ctx.attempt_timeout = 1 * kSecond;
  EXPECT_EQ(test::run(h, *a.pipeline, call).kind, OutcomeKind::timeout);
  EXPECT_EQ(crm.calls().size(), 1U);
  EXPECT_TRUE(backup.calls().empty());
  ASSERT_EQ(h.log.give_ups.size(), 1U);
  EXPECT_EQ(h.log.give_ups[0].reason, "not_idempotent");
}

TEST(FallbackTest, NoBackupIsReportedOnceTheCallsDeadlineHasPassed) {
  // The primary hangs and times out at the task's deadline (1 s). No attempt can start
  // after it, so the chain ends with the timeout: no `switched` event for a backup that
  // is never called, no `exhausted`, no fallback counted.
  Harness h;
  ScriptedProvider primary(h.loop, {{completion(), 5 * kSecond}});
  ScriptedProvider backup(h.loop, {{completion(), 100 * ms}});
  Agent a(h);
  const ProviderId gpt = a.add(llm("gpt"), primary);
  a.add(llm("claude"), backup);
  a.tool(std::make_unique<FallbackStrategy>(backups({"claude"}), a.env()));
  Call call;
  call.ctx.provider = gpt;
  call.task.deadline = 1 * kSecond;
  EXPECT_EQ(test::run(h, *a.pipeline, call).kind, OutcomeKind::timeout);
  EXPECT_EQ(call.finished, 1 * kSecond);
  EXPECT_TRUE(backup.calls().empty());
  EXPECT_TRUE(fallback_log(h.log).empty());
  EXPECT_EQ(call.task.history.fallbacks, 0U);
  EXPECT_FALSE(call.task.history.fallbacks_exhausted);
}

TEST(FallbackTest, AnOpenBreakerOnThePrimaryMovesOnWithoutWaiting) {
  // Breaker (threshold 1) inside fallback keeps one state per provider. Call 1: the
  // primary's 500 opens the primary's breaker; the backup serves. Call 2 (at 1 s): the
  // primary's breaker answers circuit_open without a call, the backup serves at once.
  Harness h;
  ScriptedProvider primary(h.loop, {{test::status(500), 100 * ms}});
  ScriptedProvider backup(h.loop, {{completion(), 100 * ms}});
  Agent a(h);
  const ProviderId gpt = a.add(llm("gpt"), primary);
  a.add(llm("claude"), backup);
  CircuitBreakerConfig breaker;
  breaker.failure_threshold = 1;
  a.tool(std::make_unique<FallbackStrategy>(backups({"claude"}), a.env()),
         std::make_unique<CircuitBreakerStrategy>(breaker, a.env(), "answer"));
  Call first;
  first.ctx.provider = gpt;
  EXPECT_EQ(test::run(h, *a.pipeline, first).kind, OutcomeKind::success);
  h.loop.run_until(1 * kSecond);
  Call second;
  second.ctx.provider = gpt;
  EXPECT_EQ(test::run(h, *a.pipeline, second).kind, OutcomeKind::success);
  EXPECT_EQ(primary.calls().size(), 1U);
  EXPECT_EQ(backup.start_times(), (std::vector<TimePoint>{100 * ms, 1 * kSecond}));
  EXPECT_EQ(second.finished, 1100 * ms);
  EXPECT_EQ(h.log.transitions, (std::vector<std::string>{"100ms closed->open"}));
}

TEST(FallbackTest, AContextErrorInAnotherProvidersWordingRoutesToALargerWindow) {
  // The primary's descriptor claims a window the request fits, but the API answers 400 in
  // Anthropic's wording: classified context_length, never retried (not in retry_on), and
  // moved at once to the backup.
  Harness h;
  Response too_long = test::status(400);
  too_long.error_details = test::kept(
      {.error_code = "invalid_request_error", .error_message = "prompt is too long: 208310 tokens > 200000 maximum"});
  ScriptedProvider primary(h.loop, {{too_long, 50 * ms}});
  ScriptedProvider backup(h.loop, {{completion(), 100 * ms}});
  Agent a(h);
  const ProviderId sonnet = a.add(llm("sonnet", 200'000), primary);
  a.add(llm("gemini", 1'000'000), backup);
  FixedRng rng(0);
  a.tool(std::make_unique<FallbackStrategy>(backups({"gemini"}), a.env()),
         std::make_unique<RetryStrategy>(three_attempts(), a.env(), rng));
  Call call;
  call.ctx.provider = sonnet;
  EXPECT_EQ(test::run(h, *a.pipeline, call).kind, OutcomeKind::success);
  EXPECT_EQ(primary.calls().size(), 1U);
  EXPECT_EQ(backup.start_times(), (std::vector<TimePoint>{50 * ms}));
  EXPECT_EQ(fallback_log(h.log), (std::vector<std::string>{"50ms switched sonnet->gemini on context_length"}));
}

// Refuses every call to `refused_provider` with `kind`, without calling it: a local
// strategy (bulkhead, rate limiter, adaptive throttling) of that provider's own state.
class RefuseOne final : public Strategy {
 public:
  RefuseOne(ProviderId refused_provider, OutcomeKind kind) : provider_(refused_provider), kind_(kind) {}
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override {
    if (ctx.provider == provider_) co_return refused(kind_);
    co_return co_await next(ctx, request);
  }

 private:
  ProviderId provider_;
  OutcomeKind kind_;
};

TEST(FallbackTest, TheDefaultOnMovesOnAfterALocalRefusalOfThePrimary) {
  // A bulkhead, a rate limiter or adaptive throttling that turns the primary's call away
  // says nothing about the backup, whose state is its own (LiteLLM routes past a
  // deployment over its own rpm/tpm limits): the default `on` tries the backup at once
  // (0 ms, served at 100 ms). A cancelled call is not moved on: its caller gave up.
  for (const OutcomeKind kind : {OutcomeKind::bulkhead_full, OutcomeKind::rate_limiter_rejected, OutcomeKind::throttled,
                                 OutcomeKind::cancelled}) {
    SCOPED_TRACE(to_string(kind));
    Harness h;
    ScriptedProvider primary(h.loop, {{completion(), 100 * ms}});
    ScriptedProvider backup(h.loop, {{completion(), 100 * ms}});
    Agent a(h);
    const ProviderId gpt = a.add(llm("gpt"), primary);
    a.add(llm("claude"), backup);
    a.tool(std::make_unique<FallbackStrategy>(backups({"claude"}), a.env()), std::make_unique<RefuseOne>(gpt, kind));
    Call call;
    call.ctx.provider = gpt;
    const bool moves_on = kind != OutcomeKind::cancelled;
    EXPECT_EQ(test::run(h, *a.pipeline, call).kind, moves_on ? OutcomeKind::success : kind);
    EXPECT_TRUE(primary.calls().empty());
    EXPECT_EQ(backup.start_times(), moves_on ? std::vector<TimePoint>{0} : std::vector<TimePoint>{});
    EXPECT_EQ(call.finished, moves_on ? 100 * ms : 0);
  }
}

TEST(FallbackTest, ARefusalOfTheLastCandidateNamesIt) {
  // The primary fails (500) and the backup's bulkhead turns the call away: the chain ends
  // with that refusal, which names the backup (no attempt named a provider), while the
  // caller's context names the primary again.
  Harness h;
  ScriptedProvider primary(h.loop, {{test::status(500), 100 * ms}});
  ScriptedProvider backup(h.loop, {{completion(), 100 * ms}});
  Agent a(h);
  const ProviderId gpt = a.add(llm("gpt"), primary);
  const ProviderId claude = a.add(llm("claude"), backup);
  a.tool(std::make_unique<FallbackStrategy>(backups({"claude"}), a.env()),
         std::make_unique<RefuseOne>(claude, OutcomeKind::bulkhead_full));
  Call call;
  call.ctx.provider = gpt;
  const Outcome outcome = test::run(h, *a.pipeline, call);
  EXPECT_EQ(outcome.kind, OutcomeKind::bulkhead_full);
  EXPECT_EQ(outcome.provider, claude);
  EXPECT_EQ(call.ctx.provider, gpt);
  EXPECT_TRUE(backup.calls().empty());
}

}  // namespace
}  // namespace squall

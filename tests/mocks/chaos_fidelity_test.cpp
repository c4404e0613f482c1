// The chaos decorator's keyed decisions, phases and fidelity kinds
// (mocks/chaos/chaos_provider.hpp), in exact virtual time.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "engine/classify.hpp"
#include "engine/retry_after.hpp"
#include "mocks/chaos/chaos_provider.hpp"
#include "mocks/llm.hpp"
#include "sim/event_loop.hpp"
#include "tests/mocks/support.hpp"

namespace squall {
namespace {

using testing::FakeProvider;
using testing::run_call;

constexpr LatencyConfig constant(Nanos d) { return {LatencyShape::constant, d, 0, 0, 0}; }

FaultConfig fault(FaultKind kind, double probability = 1) {
  FaultConfig f;
  f.kind = kind;
  f.probability = probability;
  return f;
}

// An attempt's identity as the engine sends it.
CallOptions attempt(std::uint64_t task, std::int32_t number, std::uint32_t step = 0, Nanos deadline = kNever) {
  CallOptions o;
  o.task_id = task;
  o.tool = "search";
  o.step = step;
  o.attempt = number;
  o.deadline = deadline;
  return o;
}

// A decorator around a FakeProvider (10 ms) whose faulty answers take 100 ms by default.
struct Fixture {
  explicit Fixture(std::vector<FaultConfig> faults, ChaosSettings settings = {}) {
    auto fake = std::make_unique<FakeProvider>(loop, loop, 10 * kMillisecond);
    inner = fake.get();
    chaos = std::make_unique<ChaosProvider>(std::move(fake), std::move(faults), constant(100 * kMillisecond),
                                            Body::search_results, loop, loop, rng, settings);
  }
  testing::Finished call(const CallOptions& options, Request request = {}) {
    return run_call(loop, *chaos, std::move(request), options);
  }
  EventLoop loop;
  Xoshiro256 rng{99};
  FakeProvider* inner = nullptr;
  std::unique_ptr<ChaosProvider> chaos;
};

bool from_inner(const testing::Finished& f) { return f.response.output_tokens == 7; }

TEST(ChaosFidelityTest, DecisionsDependOnTheAttemptNotOnTheCallCount) {
  // Two decorators with one key: b also serves 3 other calls before each shared attempt.
  // Every shared attempt meets the same decision in both, and a repeat of an attempt the
  // same decision again; about half of the 200 attempts are faulty.
  ChaosSettings settings;
  settings.decision_key = 12345;
  Fixture a({fault(FaultKind::server_error, 0.5)}, settings);
  Fixture b({fault(FaultKind::server_error, 0.5)}, settings);
  int faulty = 0;
  for (std::uint64_t task = 1; task <= 100; ++task) {
    for (std::int32_t n = 1; n <= 2; ++n) {
      for (int extra = 0; extra < 3; ++extra) b.call(attempt(1000 + task * 3 + extra, 1));
      const int sa = a.call(attempt(task, n)).response.status;
      EXPECT_EQ(sa, b.call(attempt(task, n)).response.status) << task << "/" << n;
      EXPECT_EQ(sa, a.call(attempt(task, n)).response.status) << task << "/" << n;
      faulty += sa == 500 ? 1 : 0;
    }
  }
  EXPECT_NEAR(faulty, 100, 4 * std::sqrt(200 * 0.25));
  // Another step or another attempt number is another decision: not all are alike.
  int differ = 0;
  for (std::uint64_t task = 1; task <= 50; ++task) {
    differ += a.call(attempt(task, 1, 0)).response.status != a.call(attempt(task, 1, 1)).response.status ? 1 : 0;
  }
  EXPECT_GT(differ, 0);
}

TEST(ChaosFidelityTest, ScriptedCallsStillCountCalls) {
  // first_call/last_call are about what the provider received: calls 2-3 of any attempts.
  FaultConfig scripted = fault(FaultKind::rate_limited);
  scripted.first_call = 2;
  scripted.last_call = 3;
  Fixture f({scripted});
  EXPECT_EQ(f.call(attempt(1, 1)).response.status, 200);
  EXPECT_EQ(f.call(attempt(1, 2)).response.status, 429);
  EXPECT_EQ(f.call(attempt(7, 1)).response.status, 429);
  EXPECT_EQ(f.call(attempt(1, 2)).response.status, 200);
}

TEST(ChaosFidelityTest, LatencySpikeDelaysThenCallsTheInnerProvider) {
  // 2 s added, then the inner 10 ms: the inner answer at 2.01 s; one delay-phase fault.
  FaultConfig spike = fault(FaultKind::latency_spike);
  spike.latency = constant(2 * kSecond);
  Fixture f({spike});
  const auto done = f.call(attempt(1, 1));
  EXPECT_TRUE(from_inner(done));
  EXPECT_EQ(done.at, 2'010 * kMillisecond);
  EXPECT_EQ(f.chaos->injected()[index_of(FaultKind::latency_spike)], 1U);
  EXPECT_EQ(f.chaos->injected_phases(), (FaultPhaseCounts{1, 0, 0}));
}

TEST(ChaosFidelityTest, DelayAndAbortComposeLikeEnvoysFaultFilter) {
  // A spike of 1 s, then a 503 after the fault's 100 ms: at 1.1 s, two faults, two phases.
  FaultConfig spike = fault(FaultKind::latency_spike);
  spike.latency = constant(kSecond);
  FaultConfig down = fault(FaultKind::overloaded);
  down.status = 503;
  Fixture f({spike, down});
  const auto done = f.call(attempt(1, 1));
  EXPECT_EQ(done.response.status, 503);
  EXPECT_EQ(done.at, 1'100 * kMillisecond);
  EXPECT_EQ(f.chaos->injected_phases(), (FaultPhaseCounts{1, 1, 0}));
  EXPECT_EQ(f.inner->calls(), 0);
}

TEST(ChaosFidelityTest, BrownoutMultipliesTheAnswerTime) {
  // Inner 10 ms x 3 = 30 ms. With a 20 ms deadline the caller times out at 20 ms: the
  // brownout was injected but cut short.
  FaultConfig brownout = fault(FaultKind::brownout);
  brownout.multiplier = 3;
  Fixture f({brownout});
  const auto done = f.call(attempt(1, 1));
  EXPECT_TRUE(from_inner(done));
  EXPECT_EQ(done.at, 30 * kMillisecond);
  const auto late = f.call(attempt(2, 1, 0, f.loop.now() + 20 * kMillisecond));
  EXPECT_EQ(late.response.transport, Transport::timeout);
  EXPECT_EQ(late.at, 50 * kMillisecond);
  EXPECT_EQ(f.chaos->injected()[index_of(FaultKind::brownout)], 2U);
  EXPECT_EQ(f.chaos->cut_short()[index_of(FaultKind::brownout)], 1U);
}

TEST(ChaosFidelityTest, InjectedFaultAnsweredAfterTheDeadlineIsCutShort) {
  // An injected 529 takes 5 s; the client gives up at 2 s and sees a timeout.
  FaultConfig slow = fault(FaultKind::overloaded);
  slow.latency = constant(5 * kSecond);
  Fixture f({slow});
  const auto done = f.call(attempt(1, 1, 0, 2 * kSecond));
  EXPECT_EQ(classify(done.response), OutcomeKind::timeout);
  EXPECT_EQ(done.at, 2 * kSecond);
  EXPECT_EQ(f.chaos->injected()[index_of(FaultKind::overloaded)], 1U);
  EXPECT_EQ(f.chaos->cut_short()[index_of(FaultKind::overloaded)], 1U);
}

TEST(ChaosFidelityTest, MaskedErrorIsASuccessToClassify) {
  Fixture f({fault(FaultKind::masked_error)});
  const auto done = f.call(attempt(1, 1));
  EXPECT_TRUE(from_inner(done));
  EXPECT_EQ(done.at, 10 * kMillisecond);
  EXPECT_EQ(done.response.status, 200);
  EXPECT_FALSE(done.response.details().body_error.empty());
  EXPECT_EQ(classify(done.response), OutcomeKind::success);
  EXPECT_EQ(f.chaos->injected_phases(), (FaultPhaseCounts{0, 0, 1}));
}

TEST(ChaosFidelityTest, ClientErrorsAreNotRetryableKinds) {
  const std::pair<std::optional<int>, OutcomeKind> cases[] = {{std::nullopt, OutcomeKind::bad_request},
                                                              {401, OutcomeKind::auth_error},
                                                              {403, OutcomeKind::auth_error},
                                                              {404, OutcomeKind::bad_request},
                                                              {422, OutcomeKind::bad_request}};
  for (const auto& [status, kind] : cases) {
    FaultConfig client = fault(FaultKind::client_error);
    client.status = status;
    Fixture f({client});
    const auto done = f.call(attempt(1, 1));
    EXPECT_EQ(done.response.status, status.value_or(400));
    EXPECT_EQ(classify(done.response), kind);
    EXPECT_EQ(done.at, 100 * kMillisecond);
  }
}

TEST(ChaosFidelityTest, AnErrorAnswerCarriesTheRulesAdviceCodeAndMessage) {
  // A 400 whose code says the prompt is too long is classified by its code, as a real
  // client's error mapping does; a 429 keeps its class whatever its code says.
  FaultConfig too_long = fault(FaultKind::client_error);
  too_long.should_retry = false;
  too_long.error_code = "context_length_exceeded";
  too_long.error_message = "This model's maximum context length is 8192 tokens.";
  Fixture f({too_long});
  const Response r = f.call(attempt(1, 1)).response;
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.details().should_retry, "false");
  EXPECT_EQ(r.details().error_code, "context_length_exceeded");
  EXPECT_EQ(r.details().error_message, "This model's maximum context length is 8192 tokens.");
  EXPECT_EQ(classify(r), OutcomeKind::context_length);

  FaultConfig quota = fault(FaultKind::rate_limited);
  quota.should_retry = true;
  quota.error_code = "insufficient_quota";
  Fixture q({quota});
  const Response limited = q.call(attempt(1, 1)).response;
  EXPECT_EQ(limited.details().should_retry, "true");
  EXPECT_EQ(limited.details().error_code, "insufficient_quota");
  EXPECT_EQ(classify(limited), OutcomeKind::quota_exhausted);  // the code says the quota is spent

  // Without them an answer carries no advice.
  Fixture plain({fault(FaultKind::server_error)});
  EXPECT_EQ(plain.call(attempt(1, 1)).response.details().should_retry, "");
}

TEST(ChaosFidelityTest, ThrottledEmptyIsAnEmptyTwoHundred) {
  Fixture f({fault(FaultKind::throttled_empty)});
  const auto done = f.call(attempt(1, 1));
  EXPECT_EQ(done.response.status, 200);
  EXPECT_EQ(classify(done.response), OutcomeKind::empty);
  EXPECT_EQ(f.chaos->injected()[index_of(FaultKind::throttled_empty)], 1U);
  EXPECT_EQ(f.chaos->injected()[index_of(FaultKind::empty)], 0U);
}

TEST(ChaosFidelityTest, RetryAfterFormsOnOverloaded) {
  // A 503 at 100 ms asking for 2.5 s, the run starting at 2021-12-07 15:30:00 UTC.
  ChaosSettings settings;
  settings.start_unix_seconds = 1'638'891'000;
  std::vector<std::unique_ptr<Fixture>> kept;  // a Response points into its decorator
  const auto answer = [&](RetryAfterForm form) {
    FaultConfig down = fault(FaultKind::overloaded);
    down.status = 503;
    down.retry_after_delay = 2'500 * kMillisecond;
    down.retry_after_form = form;
    if (form == RetryAfterForm::delay_seconds) down.retry_after = "2.5";  // as the loader writes it
    kept.push_back(std::make_unique<Fixture>(std::vector<FaultConfig>{down}, settings));
    return kept.back()->call(attempt(1, 1)).response;
  };
  EXPECT_EQ(answer(RetryAfterForm::delay_seconds).details().retry_after, "2.5");
  // 100 ms + 2.5 s = 2.6 s, rounded up to 15:30:03.
  const Response dated = answer(RetryAfterForm::http_date);
  EXPECT_EQ(dated.details().retry_after, "Tue, 07 Dec 2021 15:30:03 GMT");
  EXPECT_EQ(server_retry_delay(dated, (1'638'891'000 * kSecond) + 100 * kMillisecond), 2'900 * kMillisecond);
  const Response ms = answer(RetryAfterForm::milliseconds);
  EXPECT_EQ(ms.details().retry_after_ms, "2500");
  EXPECT_EQ(ms.details().retry_after, "3");
  EXPECT_EQ(server_retry_delay(ms, 0), 2'500 * kMillisecond);
  const Response body = answer(RetryAfterForm::retry_info);
  EXPECT_EQ(body.details().retry_after, "");
  EXPECT_EQ(body.details().retry_delay, "2.5s");
}

TEST(ChaosFidelityTest, FlappingFollowsItsDutyCycle) {
  // Down for the first 3 s of every 10 s from 5 s: calls each second from 0 s to 24 s.
  FaultConfig flap = fault(FaultKind::server_error);
  flap.from = 5 * kSecond;
  flap.flap_period = 10 * kSecond;
  flap.flap_on = 3 * kSecond;
  Fixture f({flap});
  std::vector<int> down;
  for (int s = 0; s < 25; ++s) {
    auto options = attempt(static_cast<std::uint64_t>(s) + 1, 1);
    f.loop.run_until(s * kSecond);
    if (f.call(options).response.status == 500) down.push_back(s);
  }
  EXPECT_EQ(down, (std::vector<int>{5, 6, 7, 15, 16, 17}));
}

// Two providers with different keys of their own that share an outage of probability 0.5.
struct OutageOfTwo {
  static FaultConfig outage() {
    FaultConfig f = fault(FaultKind::overloaded, 0.5);
    f.outage = "us-east-1";
    f.outage_key = 777;
    return f;
  }
  static ChaosSettings keyed(std::uint64_t key) {
    ChaosSettings settings;
    settings.decision_key = key;
    return settings;
  }
  Fixture a{{outage()}, keyed(1)};
  Fixture b{{outage()}, keyed(2)};
};

TEST(ChaosFidelityTest, SharedOutageFailsItsProvidersTogether) {
  // Both fail on exactly the same attempts.
  OutageOfTwo two;
  auto& [a, b] = two;
  int failed = 0;
  for (std::uint64_t task = 1; task <= 100; ++task) {
    const int sa = a.call(attempt(task, 1)).response.status;
    EXPECT_EQ(sa, b.call(attempt(task, 1)).response.status) << task;
    failed += sa == 529 ? 1 : 0;
  }
  EXPECT_NEAR(failed, 50, 4 * std::sqrt(100 * 0.25));
}

TEST(ChaosFidelityTest, AnOutagesLaterAttemptIsANewDraw) {
  // A fallback from one provider of an outage to another is a later attempt of the step:
  // a new draw, so below probability 1 the two fail independently (docs/scenario-format.md,
  // outages): both fail on about a quarter of 400 tasks, not on half.
  OutageOfTwo two;
  auto& [a, b] = two;
  int both = 0;
  for (std::uint64_t task = 1; task <= 400; ++task) {
    const bool first = a.call(attempt(task, 1)).response.status == 529;
    const bool fallback = b.call(attempt(task, 2)).response.status == 529;
    both += first && fallback ? 1 : 0;
  }
  EXPECT_NEAR(both, 100, 4 * std::sqrt(400 * 0.25 * 0.75));
}

TEST(ChaosFidelityTest, StreamCutBillsThePartialOutputAndFails) {
  // TTFT 200 ms, 50 tokens/s, 100 tokens drawn; cut after 30: 200 ms + 30 / 50 s = 800 ms,
  // 1000 input and 30 output tokens billed ((1000 * 2 + 30 * 8) / 1e6 = 0.00224 USD), a
  // 500 the engine calls server_error, not a truncated success.
  EventLoop loop;
  LlmConfig config;
  config.price_per_mtok = {2.0, 8.0};
  config.time_to_first_token = constant(200 * kMillisecond);
  config.tokens_per_second = 50;
  config.mean_output_tokens = 100;
  FixedRng llm_rng = FixedRng::at_fraction(1.0 - std::exp(-1.0));
  auto llm = std::make_unique<LlmMock>("gpt-4.1", config, loop, loop, llm_rng);
  FaultConfig cut = fault(FaultKind::stream_cut);
  cut.after_tokens = 30;
  Xoshiro256 rng(5);
  ChaosProvider chaos(std::move(llm), {cut}, config.time_to_first_token, Body::completion, loop, loop, rng);
  Request request;
  request.prompt_tokens = 1000;
  const auto done = run_call(loop, chaos, request, attempt(1, 1));
  EXPECT_EQ(done.at, 800 * kMillisecond);
  EXPECT_EQ(done.response.status, 500);
  EXPECT_EQ(done.response.input_tokens, 1000);
  EXPECT_EQ(done.response.output_tokens, 30);
  EXPECT_DOUBLE_EQ(done.response.cost_usd, 0.00224);
  EXPECT_EQ(classify(done.response), OutcomeKind::server_error);
  // A request capped at 20 tokens ends before the cut: untouched, and not counted.
  request.max_output_tokens = 20;
  const auto whole = run_call(loop, chaos, request, attempt(2, 1));
  EXPECT_EQ(whole.response.status, 200);
  EXPECT_EQ(whole.response.output_tokens, 20);
  EXPECT_EQ(chaos.injected()[index_of(FaultKind::stream_cut)], 1U);
  // The second call's fault was counted when decided, then taken back from its window
  // too: the one window (10 s) holds the one cut, as the total does.
  ASSERT_EQ(chaos.injected_by_window().size(), 1U);
  EXPECT_EQ(chaos.injected_by_window()[0], chaos.injected());
}

TEST(ChaosFidelityTest, InjectedFaultsAreCountedByWindowOfTheirDecision) {
  // Windows of 1 s; every call faulty; calls at 0, 0.7, 1.4 and 2.1 s: windows 0, 0, 1, 2.
  ChaosSettings settings;
  settings.window = kSecond;
  Fixture f({fault(FaultKind::server_error)}, settings);
  testing::run_calls(f.loop, *f.chaos, 4, 0, 700 * kMillisecond);
  const auto k = index_of(FaultKind::server_error);
  const std::vector<FaultCounts>& windows = f.chaos->injected_by_window();
  ASSERT_EQ(windows.size(), 3U);
  EXPECT_EQ(windows[0][k], 2U);
  EXPECT_EQ(windows[1][k], 1U);
  EXPECT_EQ(windows[2][k], 1U);
  EXPECT_EQ(f.chaos->injected()[k], 4U);
}

TEST(ChaosFidelityTest, FaultsPastTheLastWindowAreFoldedIntoIt) {
  // Two windows of 1 s at most: the calls at 1.4 and 2.1 s both count in window 1.
  ChaosSettings settings;
  settings.window = kSecond;
  settings.max_windows = 2;
  Fixture f({fault(FaultKind::server_error)}, settings);
  testing::run_calls(f.loop, *f.chaos, 4, 0, 700 * kMillisecond);
  const auto k = index_of(FaultKind::server_error);
  ASSERT_EQ(f.chaos->injected_by_window().size(), 2U);
  EXPECT_EQ(f.chaos->injected_by_window()[0][k], 2U);
  EXPECT_EQ(f.chaos->injected_by_window()[1][k], 2U);
}

}  // namespace
}  // namespace squall

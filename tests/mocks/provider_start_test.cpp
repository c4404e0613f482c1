// Provider::start (engine/provider.hpp) against Provider::call: the engine's attempts go
// through start(), every other caller through call(), and both must see the same answers
// at the same times, with the same draws and the same fault counts.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/answer_time.hpp"
#include "engine/pool_query.hpp"
#include "mocks/chaos/chaos_provider.hpp"
#include "mocks/llm.hpp"
#include "mocks/web_search.hpp"
#include "sim/event_loop.hpp"
#include "tests/mocks/support.hpp"

namespace squall {
namespace {

using testing::Finished;

std::shared_ptr<const Corpus> corpus() {
  return std::make_shared<const Corpus>(std::vector<Document>{
      {"Acme Corp Series B", "https://acme.example/b", "Acme Corp closed a $45M Series B.", 0, ""},
      {"Globex news", "https://globex.example/news", "Globex Systems partners with Acme Corp.", 0, ""},
  });
}

FaultConfig fault(FaultKind kind, double probability, std::optional<LatencyConfig> latency = std::nullopt) {
  FaultConfig f;
  f.kind = kind;
  f.probability = probability;
  f.latency = latency;
  return f;
}

// A web search mock (exponential latency, mean 80 ms) behind a chaos decorator injecting
// 429s with an HTTP-date Retry-After, 503s that sometimes take longer than the deadline
// (cut short), hangs, and brownouts (a delay phase, which start() leaves to a Task).
struct Stack {
  explicit Stack(std::uint64_t seed) : mock_rng(seed), chaos_rng(seed + 1) {
    WebSearchConfig config;
    config.latency = {LatencyShape::exponential, 0, 80 * kMillisecond, 0, 0};
    auto mock = std::make_unique<WebSearchMock>("search", config, corpus(), loop, loop, mock_rng);
    FaultConfig limited = fault(FaultKind::rate_limited, 0.15);
    limited.retry_after_delay = 2 * kSecond;
    limited.retry_after_form = RetryAfterForm::http_date;
    FaultConfig brownout = fault(FaultKind::brownout, 0.1);
    brownout.multiplier = 3;
    std::vector<FaultConfig> faults{
        limited,
        fault(FaultKind::overloaded, 0.15, LatencyConfig{LatencyShape::exponential, 0, 200 * kMillisecond, 0, 0}),
        fault(FaultKind::timeout, 0.05), brownout};
    ChaosSettings settings;
    settings.start_unix_seconds = 1'700'000'000;
    settings.hang_cap = 10 * kSecond;
    chaos = std::make_unique<ChaosProvider>(std::move(mock), std::move(faults),
                                            LatencyConfig{LatencyShape::constant, 50 * kMillisecond, 0, 0, 0},
                                            Body::search_results, loop, loop, chaos_rng, settings);
  }
  EventLoop loop;
  Xoshiro256 mock_rng;
  Xoshiro256 chaos_rng;
  std::unique_ptr<ChaosProvider> chaos;
};

// One call through call(), or through start() and AwaitScheduled as the engine's
// ProviderAttempt makes it (call_through_start does exactly that).
Task<Response> call_by(Provider& provider, EventLoop& loop, const Request& request, const CallOptions& options,
                       bool through_start) {
  return through_start ? call_through_start(provider, loop, request, options) : provider.call(request, options);
}

// Makes `n` calls, 37 ms apart, each with a 300 ms deadline, through call() or through
// start() and AwaitScheduled as the engine's ProviderAttempt does; attempt numbers from 1
// (keyed fault decisions) when `keyed`, else 0.
std::vector<Finished> run(Stack& s, int n, bool through_start, bool keyed) {
  std::vector<Finished> out;
  std::exception_ptr error;
  const auto driver = [](Stack& st, int count, bool use_start, bool key, std::vector<Finished>& results) -> Task<void> {
    Request request;
    request.query = "acme corp";
    for (int i = 0; i < count; ++i) {
      co_await sleep_until(st.loop, i * 37 * kMillisecond);
      CallOptions options;
      options.deadline = st.loop.now() + 300 * kMillisecond;
      options.task_id = static_cast<std::uint64_t>(i);
      options.tool = "search";
      options.attempt = key ? 1 : 0;
      Response response = co_await call_by(*st.chaos, st.loop, request, options, use_start);
      results.push_back(Finished{std::move(response), st.loop.now()});
    }
  };
  spawn(driver(s, n, through_start, keyed, out), &error);
  s.loop.run();
  if (error) std::rethrow_exception(error);
  return out;
}

void expect_same_runs(bool keyed) {
  Stack by_call(11);
  Stack by_start(11);
  constexpr int n = 2000;
  const auto a = run(by_call, n, /*through_start=*/false, keyed);
  const auto b = run(by_start, n, /*through_start=*/true, keyed);
  ASSERT_EQ(a.size(), static_cast<std::size_t>(n));
  ASSERT_EQ(b.size(), a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE("call " + std::to_string(i));
    EXPECT_EQ(a[i].at, b[i].at);
    EXPECT_EQ(a[i].response.transport, b[i].response.transport);
    EXPECT_EQ(a[i].response.status, b[i].response.status);
    EXPECT_EQ(a[i].response.body, b[i].response.body);
    EXPECT_EQ(a[i].response.details().retry_after, b[i].response.details().retry_after);
    EXPECT_EQ(a[i].response.results().size(), b[i].response.results().size());
  }
  EXPECT_EQ(by_call.chaos->injected(), by_start.chaos->injected());
  EXPECT_EQ(by_call.chaos->cut_short(), by_start.chaos->cut_short());
  // Every kind of ending happened, so each path was compared.
  const auto& cut = by_start.chaos->cut_short();
  EXPECT_GT(cut[index_of(FaultKind::overloaded)], 0U);
  EXPECT_GT(by_start.chaos->injected()[index_of(FaultKind::timeout)], 0U);
  EXPECT_GT(by_start.chaos->injected()[index_of(FaultKind::brownout)], 0U);
  int timeouts = 0;
  int limited = 0;
  for (const Finished& f : b) {
    timeouts += f.response.transport == Transport::timeout ? 1 : 0;
    limited += f.response.status == 429 ? 1 : 0;
  }
  EXPECT_GT(timeouts, 0);
  EXPECT_GT(limited, 0);
  // Both streams are where the same draws leave them.
  EXPECT_EQ(by_call.mock_rng.next_u64(), by_start.mock_rng.next_u64());
  EXPECT_EQ(by_call.chaos_rng.next_u64(), by_start.chaos_rng.next_u64());
}

TEST(ProviderStartTest, StartAnswersAsCallDoesWithKeyedFaultDecisions) { expect_same_runs(/*keyed=*/true); }

TEST(ProviderStartTest, StartAnswersAsCallDoesWithDrawnFaultDecisions) { expect_same_runs(/*keyed=*/false); }

// An LLM mock (lognormal time to first token, 80 tokens per second, exponential output
// lengths of mean 60 tokens, a third of completions malformed) behind a chaos decorator
// injecting 429s, 529s that sometimes take longer than the deadline, brownouts and latency
// spikes (delay phases) and stream cuts (a transform): the last three call the LLM
// through call() inside the decorator's own Task, every other call reaches the LLM's
// start().
struct LlmStack {
  explicit LlmStack(std::uint64_t seed) : mock_rng(seed), chaos_rng(seed + 1) {
    LlmConfig config;
    config.price_per_mtok = {2.0, 8.0};
    config.context_window = 8'000;
    config.time_to_first_token = {LatencyShape::lognormal, 0, 0, 300 * kMillisecond, 2 * kSecond};
    config.tokens_per_second = 80;
    config.mean_output_tokens = 60;
    config.malformed_output_rate = 1.0 / 3;
    auto mock = std::make_unique<LlmMock>("llm", config, loop, loop, mock_rng, /*decision_key=*/99);
    FaultConfig limited = fault(FaultKind::rate_limited, 0.1);
    limited.retry_after = "2";
    FaultConfig brownout = fault(FaultKind::brownout, 0.1);
    brownout.multiplier = 2;
    FaultConfig cut = fault(FaultKind::stream_cut, 0.05);
    cut.after_tokens = 20;
    std::vector<FaultConfig> faults{
        limited,
        fault(FaultKind::overloaded, 0.1, LatencyConfig{LatencyShape::exponential, 0, 800 * kMillisecond, 0, 0}),
        brownout,
        fault(FaultKind::latency_spike, 0.05, LatencyConfig{LatencyShape::constant, 400 * kMillisecond, 0, 0, 0}), cut};
    chaos = std::make_unique<ChaosProvider>(std::move(mock), std::move(faults),
                                            LatencyConfig{LatencyShape::constant, 50 * kMillisecond, 0, 0, 0},
                                            Body::completion, loop, loop, chaos_rng, ChaosSettings{});
  }
  EventLoop loop;
  Xoshiro256 mock_rng;
  Xoshiro256 chaos_rng;
  std::unique_ptr<ChaosProvider> chaos;
  // The query some calls ask to rewrite (rewrites answer with views into it).
  PoolQuery origin{"acme corp series b", "acme corp funding", "b series corp acme", {}};
};

// Starts `n` LLM calls 37 ms apart without waiting for one to end before the next starts
// (so answers arrive out of order and the malformed-output draws interleave with other
// calls' length draws), each with a 1.5 s deadline, through call() or through start() and
// AwaitScheduled as ProviderAttempt does. Every 5th call is a query rewrite (of a pool
// query for every 10th, else of a bare query), every 11th asks for more than the context
// window, every 7th is cancelled 400 ms after it starts, and every 13th is cancelled before
// it is made.
std::vector<Finished> run_llm(LlmStack& s, int n, bool through_start) {
  std::vector<std::optional<Finished>> out(static_cast<std::size_t>(n));
  std::vector<CancellationSource> sources(static_cast<std::size_t>(n));
  std::exception_ptr error;
  const auto one = [](LlmStack& st, int i, bool use_start, CancellationSource& source, const PoolQuery& pool,
                      std::optional<Finished>& result) -> Task<void> {
    co_await sleep_until(st.loop, i * 37 * kMillisecond);
    Request request;
    request.query = "acme corp series b";
    request.prompt_tokens = i % 11 == 0 ? 9'000 : 500;
    request.max_output_tokens = 120;
    if (i % 5 == 0) {
      request.rewrite_attempt = 1;
      if (i % 10 == 0) request.origin = &pool;
    }
    if (i % 13 == 0) source.cancel();
    CallOptions options;
    options.deadline = st.loop.now() + 1500 * kMillisecond;
    options.task_id = static_cast<std::uint64_t>(i);
    options.tool = "answer";
    options.attempt = 1;
    options.cancellation = source.token();
    Response response = co_await call_by(*st.chaos, st.loop, request, options, use_start);
    result = Finished{std::move(response), st.loop.now()};
  };
  const auto canceller = [](LlmStack& st, TimePoint at, CancellationSource& source) -> Task<void> {
    co_await sleep_until(st.loop, at);
    source.cancel();
  };
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    spawn(one(s, i, through_start, sources[k], s.origin, out[k]), &error);
    if (i % 7 == 0) spawn(canceller(s, i * 37 * kMillisecond + 400 * kMillisecond, sources[k]), &error);
  }
  s.loop.run();
  if (error) std::rethrow_exception(error);
  std::vector<Finished> done;
  for (auto& r : out) {
    EXPECT_TRUE(r.has_value()) << "a call never returned";
    if (r) done.push_back(std::move(*r));
  }
  return done;
}

TEST(ProviderStartTest, TheLlmStartsAsItsCallAnswersWithTheSameDrawsInTheSameOrder) {
  LlmStack by_call(23);
  LlmStack by_start(23);
  constexpr int n = 2000;
  const auto a = run_llm(by_call, n, /*through_start=*/false);
  const auto b = run_llm(by_start, n, /*through_start=*/true);
  ASSERT_EQ(a.size(), static_cast<std::size_t>(n));
  ASSERT_EQ(b.size(), a.size());
  int malformed = 0, timeouts = 0, cancelled = 0, billed_partly = 0, rejected = 0, rewritten = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE("call " + std::to_string(i));
    const Response& x = a[i].response;
    const Response& y = b[i].response;
    EXPECT_EQ(a[i].at, b[i].at);
    EXPECT_EQ(x.transport, y.transport);
    EXPECT_EQ(x.status, y.status);
    EXPECT_EQ(x.body, y.body);
    EXPECT_EQ(x.input_tokens, y.input_tokens);
    EXPECT_EQ(x.output_tokens, y.output_tokens);
    EXPECT_EQ(x.cost_usd, y.cost_usd);
    EXPECT_EQ(x.truncated, y.truncated);
    EXPECT_EQ(x.malformed, y.malformed);
    EXPECT_EQ(x.tool_result(), y.tool_result());
    EXPECT_EQ(x.details().error_code, y.details().error_code);
    EXPECT_EQ(x.details().retry_after, y.details().retry_after);
    malformed += y.malformed ? 1 : 0;
    timeouts += y.transport == Transport::timeout ? 1 : 0;
    cancelled += y.transport == Transport::cancelled ? 1 : 0;
    billed_partly += y.transport != Transport::ok && y.output_tokens > 0 ? 1 : 0;
    rejected += y.details().error_code == "context_length_exceeded" ? 1 : 0;
    rewritten += y.tool_result() == "acme corp funding" ? 1 : 0;
  }
  EXPECT_EQ(by_call.chaos->injected(), by_start.chaos->injected());
  EXPECT_EQ(by_call.chaos->cut_short(), by_start.chaos->cut_short());
  // Every kind of ending happened, so each path was compared.
  EXPECT_GT(malformed, 0);
  EXPECT_GT(timeouts, 0);
  EXPECT_GT(cancelled, 0);
  EXPECT_GT(billed_partly, 0);
  EXPECT_GT(rejected, 0);
  EXPECT_GT(rewritten, 0);
  EXPECT_GT(by_start.chaos->injected()[index_of(FaultKind::brownout)], 0U);
  EXPECT_GT(by_start.chaos->injected()[index_of(FaultKind::stream_cut)], 0U);
  EXPECT_GT(by_start.chaos->cut_short()[index_of(FaultKind::overloaded)], 0U);
  // Both streams are where the same draws leave them.
  EXPECT_EQ(by_call.mock_rng.next_u64(), by_start.mock_rng.next_u64());
  EXPECT_EQ(by_call.chaos_rng.next_u64(), by_start.chaos_rng.next_u64());
}

TEST(ProviderStartTest, ACallAlreadyCancelledEndsAtOnceWithoutADraw) {
  Stack s(5);
  CancellationSource source;
  source.cancel();
  CallOptions options;
  options.cancellation = source.token();
  options.attempt = 1;
  Request request;
  request.query = "acme";
  Response response;
  ScheduledAnswer answer;
  Task<Response> pending = s.chaos->start(request, options, response, answer);
  ASSERT_FALSE(pending.valid());
  EXPECT_EQ(answer.at, 0);
  EXPECT_EQ(s.chaos->calls(), 0U);
  AwaitScheduled wait(s.loop, response, answer, options);
  ASSERT_TRUE(wait.await_ready());
  wait.await_resume();
  EXPECT_EQ(response.transport, Transport::cancelled);
  EXPECT_EQ(response.status, 0);
  EXPECT_TRUE(response.results().empty());
  Xoshiro256 fresh(5);
  EXPECT_EQ(s.mock_rng.next_u64(), fresh.next_u64());
}

TEST(ProviderStartTest, AProviderWithoutStartIsAwaitedThroughItsCall) {
  EventLoop loop;
  testing::FakeProvider fake(loop, loop, 10 * kMillisecond);
  Request request;
  CallOptions options;
  Response response;
  ScheduledAnswer answer;
  Task<Response> pending = fake.start(request, options, response, answer);
  EXPECT_TRUE(pending.valid());
  EXPECT_EQ(answer.at, 0);
}

}  // namespace
}  // namespace squall

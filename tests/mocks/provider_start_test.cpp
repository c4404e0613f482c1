// Provider::start (engine/provider.hpp) against Provider::call: the engine's attempts go
// through start(), every other caller through call(), and both must see the same answers
// at the same times, with the same draws and the same fault counts.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/answer_time.hpp"
#include "mocks/chaos/chaos_provider.hpp"
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
        limited, fault(FaultKind::overloaded, 0.15, LatencyConfig{LatencyShape::exponential, 0, 200 * kMillisecond, 0, 0}),
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
      Response response;
      if (use_start) {
        ScheduledAnswer answer;
        Task<Response> pending = st.chaos->start(request, options, response, answer);
        if (pending.valid()) {
          co_await std::move(pending).into(response);
        } else {
          co_await AwaitScheduled(st.loop, response, answer, options);
        }
      } else {
        response = co_await st.chaos->call(request, options);
      }
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
    EXPECT_EQ(a[i].response.retry_after, b[i].response.retry_after);
    EXPECT_EQ(a[i].response.results.size(), b[i].response.results.size());
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
  EXPECT_TRUE(response.results.empty());
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

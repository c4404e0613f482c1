// bulkhead: exact virtual-time timelines of admission, queueing, timeouts and rejection.
#include "engine/strategies/bulkhead.hpp"

#include <gtest/gtest.h>

#include <array>

#include "engine/strategies/circuit_breaker.hpp"
#include "tests/engine/test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::Reply;
using test::ScriptedProvider;

BulkheadConfig bulkhead(std::int32_t calls, std::int32_t queue = 0, Nanos queue_timeout = kNever) {
  BulkheadConfig c;
  c.max_concurrent_calls = calls;
  c.max_queue = queue;
  c.queue_timeout = queue_timeout;
  return c;
}

// Starts every call at t = 0 and drains the loop.
template <std::size_t N>
void run_all(Harness& h, const Pipeline& p, std::array<Call, N>& calls) {
  std::exception_ptr error;
  for (Call& c : calls) test::start(h, p, c, &error);
  test::drain(h);
  if (error) std::rethrow_exception(error);
}

TEST(BulkheadTest, DefaultsAreResilience4jAndPolly) {
  const BulkheadConfig c;
  EXPECT_EQ(c.max_concurrent_calls, 25);
  EXPECT_EQ(c.max_queue, 0);
  EXPECT_EQ(c.queue_timeout, kNever);
}

TEST(BulkheadTest, FullBulkheadWithoutQueueRejectsAtOnce) {
  Harness h;
  ScriptedProvider provider(h.loop, {Reply{test::results(), 100 * kMillisecond}});
  auto p = test::make_pipeline(provider, h.env, std::make_unique<BulkheadStrategy>(bulkhead(2), h.env));
  std::array<Call, 3> calls;
  run_all(h, *p, calls);
  // Calls 0 and 1 take the two slots at t = 0; call 2 finds none and no queue.
  EXPECT_EQ(calls[0].outcome->kind, OutcomeKind::success);
  EXPECT_EQ(calls[1].outcome->kind, OutcomeKind::success);
  EXPECT_EQ(calls[2].outcome->kind, OutcomeKind::bulkhead_full);
  EXPECT_EQ(calls[2].outcome->response.status, 0);
  EXPECT_EQ(calls[2].finished, 0);
  EXPECT_EQ(provider.calls().size(), 2u);
  EXPECT_EQ(calls[2].ctx.attempts, 0);
}

TEST(BulkheadTest, QueuedCallsRunInArrivalOrderAsSlotsFree) {
  Harness h;
  ScriptedProvider provider(h.loop, {Reply{test::results(), 100 * kMillisecond}});
  auto p = test::make_pipeline(provider, h.env, std::make_unique<BulkheadStrategy>(bulkhead(1, 2), h.env));
  std::array<Call, 4> calls;
  run_all(h, *p, calls);
  // Slot: call 0 at 0-100 ms, then the queue in order: call 1 at 100-200, call 2 at
  // 200-300; call 3 found the queue (2 places) full at t = 0.
  EXPECT_EQ(provider.start_times(), (std::vector<TimePoint>{0, 100 * kMillisecond, 200 * kMillisecond}));
  EXPECT_EQ(calls[0].finished, 100 * kMillisecond);
  EXPECT_EQ(calls[1].finished, 200 * kMillisecond);
  EXPECT_EQ(calls[2].finished, 300 * kMillisecond);
  EXPECT_EQ(calls[3].outcome->kind, OutcomeKind::bulkhead_full);
  EXPECT_EQ(calls[3].finished, 0);
}

TEST(BulkheadTest, QueueTimeoutRejectsAsBulkheadFull) {
  Harness h;
  ScriptedProvider provider(h.loop, {Reply{test::results(), 100 * kMillisecond}});
  auto p = test::make_pipeline(provider, h.env,
                               std::make_unique<BulkheadStrategy>(bulkhead(1, 1, 40 * kMillisecond), h.env));
  std::array<Call, 2> calls;
  run_all(h, *p, calls);
  EXPECT_EQ(calls[1].outcome->kind, OutcomeKind::bulkhead_full);
  EXPECT_EQ(calls[1].finished, 40 * kMillisecond);
  EXPECT_EQ(provider.calls().size(), 1u);
}

TEST(BulkheadTest, DeadlineWhileQueuedIsATimeout) {
  Harness h;
  ScriptedProvider provider(h.loop, {Reply{test::results(), 100 * kMillisecond}});
  auto p = test::make_pipeline(provider, h.env,
                               std::make_unique<BulkheadStrategy>(bulkhead(1, 1, 40 * kMillisecond), h.env));
  std::array<Call, 2> calls;
  calls[1].task.deadline = 30 * kMillisecond;  // before the queue timeout
  run_all(h, *p, calls);
  EXPECT_EQ(calls[1].outcome->kind, OutcomeKind::timeout);
  EXPECT_EQ(calls[1].finished, 30 * kMillisecond);
}

TEST(BulkheadTest, CancelledWhileQueuedLeavesTheQueue) {
  Harness h;
  ScriptedProvider provider(h.loop, {Reply{test::results(), 100 * kMillisecond}});
  auto strategy = std::make_unique<BulkheadStrategy>(bulkhead(1, 1), h.env);
  const BulkheadStrategy* raw = strategy.get();
  auto p = test::make_pipeline(provider, h.env, std::move(strategy));
  std::array<Call, 2> calls;
  CancellationSource cancel;
  calls[1].ctx.cancellation = cancel.token();
  std::exception_ptr error;
  for (Call& c : calls) test::start(h, *p, c, &error);
  EXPECT_EQ(raw->in_flight(), 1);
  EXPECT_EQ(raw->queued(), 1u);
  const auto cancel_at = [&h, &cancel](TimePoint at) -> Task<void> {
    co_await sleep_until(h.loop, at);
    cancel.cancel();
  };
  spawn(cancel_at(10 * kMillisecond), &error);
  test::drain(h);
  if (error) std::rethrow_exception(error);
  EXPECT_EQ(calls[1].outcome->kind, OutcomeKind::cancelled);
  EXPECT_EQ(calls[1].finished, 10 * kMillisecond);
  EXPECT_EQ(raw->in_flight(), 0);
  EXPECT_EQ(raw->queued(), 0u);
}

TEST(BulkheadTest, RejectionsDoNotTripTheBreakerBehindIt) {
  // The breaker outside the bulkhead sees bulkhead_full, a local outcome: with a threshold
  // of 1, a single counted failure would open it.
  Harness h;
  ScriptedProvider provider(h.loop, {Reply{test::results(), 100 * kMillisecond}});
  CircuitBreakerConfig breaker;
  breaker.failure_threshold = 1;
  breaker.failure_on = {OutcomeKind::bulkhead_full};
  auto breaker_strategy = std::make_unique<CircuitBreakerStrategy>(breaker, h.env, "web_search");
  const CircuitBreakerStrategy* cb = breaker_strategy.get();
  auto p = test::make_pipeline(provider, h.env, std::move(breaker_strategy),
                               std::make_unique<BulkheadStrategy>(bulkhead(1), h.env));
  std::array<Call, 3> calls;
  run_all(h, *p, calls);
  EXPECT_EQ(calls[1].outcome->kind, OutcomeKind::bulkhead_full);
  EXPECT_EQ(calls[2].outcome->kind, OutcomeKind::bulkhead_full);
  EXPECT_EQ(cb->state(), BreakerState::closed);
  EXPECT_TRUE(h.log.transitions.empty());
  EXPECT_EQ(retry_class(OutcomeKind::bulkhead_full), RetryClass::local);
}

}  // namespace
}  // namespace squall

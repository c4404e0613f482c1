// Helpers shared by the mocks' tests: run provider calls to completion on an EventLoop
// and record when each one returned.
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <optional>
#include <vector>

#include "engine/provider.hpp"
#include "engine/runtime/cancellation.hpp"
#include "engine/runtime/task.hpp"
#include "sim/event_loop.hpp"

namespace squall::testing {

struct Finished {
  Response response;
  TimePoint at = 0;  // virtual time when the call returned
};

inline Task<void> call_into(Provider& provider, Request request, CallOptions options, const Clock& clock,
                            std::vector<Finished>& out) {
  Response response = co_await provider.call(request, options);
  out.push_back(Finished{std::move(response), clock.now()});
}

// Starts one call at the loop's current time, runs the loop dry and returns the result.
inline Finished run_call(EventLoop& loop, Provider& provider, Request request = {}, CallOptions options = {}) {
  std::vector<Finished> out;
  std::exception_ptr error;
  spawn(call_into(provider, std::move(request), options, loop, out), &error);
  loop.run();
  if (error) std::rethrow_exception(error);
  EXPECT_EQ(out.size(), 1U) << "the call never returned";
  return out.empty() ? Finished{} : out.front();
}

// Starts one call at the loop's current time with a token that its caller cancels at
// `cancel_at` (a no-op if the call is back by then), runs the loop dry and returns the
// result. `options.cancellation` is replaced by that token.
inline Finished run_call_cancelled_at(EventLoop& loop, Provider& provider, TimePoint cancel_at, Request request = {},
                                      CallOptions options = {}) {
  CancellationSource source;
  options.cancellation = source.token();
  std::vector<Finished> out;
  std::exception_ptr error;
  const auto canceller = [](EventLoop& l, TimePoint at, CancellationSource& s) -> Task<void> {
    co_await sleep_until(l, at);
    s.cancel();
  };
  spawn(call_into(provider, std::move(request), options, loop, out), &error);
  spawn(canceller(loop, cancel_at, source), &error);
  loop.run();
  if (error) std::rethrow_exception(error);
  EXPECT_EQ(out.size(), 1U) << "the call never returned";
  return out.empty() ? Finished{} : out.front();
}

// Makes `n` calls one after the other, the i-th (from 0) starting at start + i * spacing,
// each with a deadline `timeout` after it starts; runs the loop dry.
inline std::vector<Finished> run_calls(EventLoop& loop, Provider& provider, int n, TimePoint start = 0,
                                       Nanos spacing = 0, Nanos timeout = kNever, Request request = {}) {
  std::vector<Finished> out;
  std::exception_ptr error;
  const auto driver = [](EventLoop& l, Provider& p, int count, TimePoint t0, Nanos step, Nanos per_call, Request req,
                         std::vector<Finished>& results) -> Task<void> {
    for (int i = 0; i < count; ++i) {
      co_await sleep_until(l, std::max(l.now(), t0 + i * step));
      CallOptions options;
      options.deadline = add_saturating(l.now(), per_call);
      Response response = co_await p.call(req, options);
      results.push_back(Finished{std::move(response), l.now()});
    }
  };
  spawn(driver(loop, provider, n, start, spacing, timeout, std::move(request), out), &error);
  loop.run();
  if (error) std::rethrow_exception(error);
  EXPECT_EQ(out.size(), static_cast<std::size_t>(n));
  return out;
}

// An inner provider that answers 200 after a fixed latency and counts its calls.
class FakeProvider final : public Provider {
 public:
  FakeProvider(Clock& clock, Scheduler& scheduler, Nanos latency)
      : clock_(clock), scheduler_(scheduler), latency_(latency) {}
  std::string_view name() const override { return "fake"; }
  Task<Response> call(Request /*request*/, CallOptions /*options*/) override {
    ++calls_;
    co_await resume_after(clock_, scheduler_, latency_);
    Response r;
    r.body = Body::completion;
    r.output_tokens = 7;  // marks an answer of the inner provider
    co_return r;
  }
  int calls() const { return calls_; }

 private:
  Clock& clock_;
  Scheduler& scheduler_;
  Nanos latency_;
  int calls_ = 0;
};

}  // namespace squall::testing

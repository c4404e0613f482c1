// CapacityProvider: the server side of a provider, a decorator that gives any Provider a
// finite capacity, so that 429s, 503s and latency emerge from load (DESIGN section 5). It
// wraps the mock; the chaos decorator, when the entry has faults, wraps it in turn
// (mocks/make_provider.hpp): an injected fault never reaches the server.
//
// Per call, in this order (docs/mocks/capacity.md has the same with sources):
// 1. Drops: the limits in force are the base limits with those of the drop window
//    covering now (CapacityConfig::drops) put in their place. The rate buckets change
//    exactly at each window's edges (MinuteBucket::set_limit at that time).
// 2. Rate limits: the request takes 1 from the requests-per-minute bucket and, for an LLM
//    request (Body::completion), prompt_tokens + max_output_tokens from the
//    tokens-per-minute bucket (OpenAI counts a request's max_tokens against its token
//    limit before it runs, platform.openai.com/docs/guides/rate-limits). If either bucket
//    is short, nothing is taken and the call answers 429 at once with error_code
//    "rate_limit_exceeded" and Retry-After: the whole seconds, rounded up and at least 1,
//    until both buckets hold enough (none when a request needs more tokens than the
//    bucket's size: it can never run). Every answer of a provider with a rate limit
//    carries RateLimitHeaders (engine/call.hpp) taken at this point.
// 3. Slots: the request starts service at once if a slot is free and nobody is queued
//    (FIFO: a newcomer never overtakes the queue). Otherwise it joins the queue, or, when
//    queue_size requests already wait, is rejected at once with reject_status
//    (error_code "overloaded", "the server's queue is full"). A queued request that gets
//    no slot within queue_timeout is answered reject_status (error_code "queue_timeout")
//    at that time.
// 4. Service: with a slot held, the inner provider is called without a deadline or a
//    cancellation token: its latency is the service time, so service time grows with load
//    only through the time spent queued.
// The server cannot see a client give up (HTTP/1.1 gives it no signal until it writes the
// answer, and even then most servers finish the handler first). A client whose deadline
// passes or whose token fires while its request is queued or in service gets
// Transport::timeout or Transport::cancelled at that moment, nothing billed, but the
// request keeps its queue place and then its slot until the inner provider finishes it:
// work wasted on an abandoned request (CapacityTotals::wasted_*). That is how retries
// keep an overloaded server overloaded after the trigger has gone (metastable failure:
// Bronson et al., "Metastable Failures in Distributed Systems", HotOS 2021).
// Queued requests are admitted when a slot frees and when a request arrives (which also
// notices a drop's end): after a drop of max_concurrency ends, the queue grows back into
// the restored slots at the next arrival or completion.
// Rejections and rate limits answer at once (no service, no network time modelled).
// A call whose token is already cancelled goes to the inner provider untouched: never
// sent, never counted.
// An answer that the server completes at the very instant of the client's deadline is
// lost to the deadline (the deadline's timer was scheduled first); answers are otherwise
// delivered exactly when the inner provider completes them.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "engine/provider.hpp"
#include "engine/runtime/clock.hpp"
#include "engine/runtime/wait_queue.hpp"
#include "mocks/capacity/capacity_config.hpp"
#include "mocks/capacity/capacity_stats.hpp"
#include "mocks/capacity/minute_bucket.hpp"
#include "mocks/retry_after_text.hpp"

namespace squall {

// Where the capacity layer's time series go: the recorder's window width and window cap.
struct CapacitySeriesOptions {
  Nanos window = 10 * kSecond;
  std::size_t max_windows = 100'000;
};

class CapacityProvider final : public Provider {
 public:
  // Owns `inner` (not null). `body` is the kind of body the inner provider answers with
  // (Body::completion: an LLM, whose requests count tokens). The clock and scheduler must
  // outlive the decorator. `config` must satisfy the loader's rules
  // (sim/scenario/capacity_reader.hpp).
  CapacityProvider(std::unique_ptr<Provider> inner, CapacityConfig config, Body body, Clock& clock,
                   Scheduler& scheduler, CapacitySeriesOptions series = {});
  ~CapacityProvider() override;

  std::string_view name() const override { return inner_->name(); }
  Task<Response> call(const Request& request, const CallOptions& options) override;

  // What the layer saw so far. Call finish() at the end of the run first, so that the
  // queue and in-flight levels are integrated up to it.
  const CapacityStats& stats() const { return stats_; }
  void finish(TimePoint end) { stats_.finish(end); }
  std::int64_t in_service() const { return in_service_; }
  std::size_t queued() const { return queue_.size(); }
  Provider& inner() const { return *inner_; }
  const CapacityConfig& config() const { return config_; }

 private:
  struct Pending;
  struct Job;

  // The limits in force at `t`.
  CapacityLimits limits_at(TimePoint t) const;
  // Applies every drop edge up to `now` to the rate buckets, each at its own time.
  void advance(TimePoint now);
  std::int64_t slots() const;
  // Hands free slots to the oldest queued requests.
  void admit_waiting();
  // Steps 2 of the file comment: a 429 when a bucket is short, else takes the shares.
  std::optional<Response> check_rates(const Request& request, TimePoint now, RateLimitHeaders& headers);
  Response rejection(std::string_view code, std::string_view message) const;
  Task<Response> wait_for_answer(Request request, CallOptions options, RateLimitHeaders headers);
  Task<void> serve(Request request, std::uint64_t task_id, std::string_view tool, Pending* client);
  static void deliver(Job& job, Response response);

  std::unique_ptr<Provider> inner_;
  CapacityConfig config_;
  Body body_;
  Clock& clock_;
  Scheduler& scheduler_;
  MinuteBucket requests_;
  MinuteBucket tokens_;
  std::vector<TimePoint> edges_;  // drop edges, sorted
  std::size_t next_edge_ = 0;
  std::int64_t max_slots_ = 0;    // slots in force (INT64_MAX: unlimited)
  std::int64_t in_service_ = 0;
  WaitQueue queue_;
  CapacityStats stats_;
  RetryAfterTexts retry_after_;
  std::exception_ptr error_;  // a programmer error thrown by a server-side coroutine
};

}  // namespace squall

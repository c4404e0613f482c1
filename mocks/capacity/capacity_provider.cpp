#include "mocks/capacity/capacity_provider.hpp"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <utility>

#include <fmt/format.h>

#include "engine/runtime/cancellable_sleep.hpp"
#include "mocks/answer_time.hpp"

namespace squall {
namespace {

// A bucket's count as RateLimitHeaders carries it: the limits are at most 100,000,000 per
// minute (the loader's range), and a bucket never holds more than its limit.
static_assert(kMaxRequestsPerMinute <= INT32_MAX && kMaxTokensPerMinute <= INT32_MAX);
std::int32_t header_count(std::int64_t count) { return static_cast<std::int32_t>(count); }

constexpr int kTooManyRequests = 429;
constexpr std::int64_t kUnlimited = INT64_MAX;
// The server queue's rejections (capacity_provider.hpp).
constexpr ErrorDetails kQueueTimeout{.error_code = "queue_timeout",
                                     .error_message = "the request waited too long in the server's queue"};
constexpr ErrorDetails kQueueFull{.error_code = "overloaded", .error_message = "the server's queue is full"};

bool is_2xx(const Response& r) { return r.transport == Transport::ok && r.status >= 200 && r.status < 300; }

// An answer decided at once (a rejection), as the Task a call returns.
Task<Response> answer_now(Response response) { co_return response; }

// Points a caller's meter at this layer while its call waits, and clears it when the wait
// ends: what it reads lives in the waiting coroutine's frame.
class MeterForward {
 public:
  // A template, so that a call nobody meters (every simulated one) builds no std::function.
  template <typename UsageAt>
  MeterForward(GenerationMeter* meter, UsageAt usage_at) : meter_(meter) {
    if (meter_ != nullptr) meter_->usage_at = std::move(usage_at);
  }
  MeterForward(const MeterForward&) = delete;
  MeterForward& operator=(const MeterForward&) = delete;
  ~MeterForward() {
    if (meter_ != nullptr) meter_->usage_at = nullptr;
  }

 private:
  GenerationMeter* meter_;
};

}  // namespace

// What a waiting client keeps in its own frame: the answer, once the server delivers it,
// and the source the server fires to wake it (linked to the client's own token, so the
// client also wakes when it is cancelled).
struct CapacityProvider::Pending {
  explicit Pending(CancellationToken caller) : wake(caller) {}
  CancellationSource wake;
  Response response;
  bool done = false;
  Job* job = nullptr;  // the server's side, while the server works on it
};

// The server's side of a request, in the server coroutine's frame. `client` is null once
// the client has given up: the server finishes the work and throws the answer away.
struct CapacityProvider::Job {
  Pending* client = nullptr;
  // What the inner provider has generated so far, once it serves the request (an LLM
  // sets it): what a client that gives up mid-service is billed.
  GenerationMeter meter = {};
};

CapacityProvider::CapacityProvider(std::unique_ptr<Provider> inner, CapacityConfig config, Body body, Clock& clock,
                                   Scheduler& scheduler, CapacitySeriesOptions series, QuotaBuckets* quota)
    : inner_(std::move(inner)),
      config_(std::move(config)),
      body_(body),
      clock_(clock),
      scheduler_(scheduler),
      requests_(config_.limits.requests_per_minute),
      tokens_(config_.limits.tokens_per_minute),
      quota_(quota),
      queue_(clock, scheduler, static_cast<std::size_t>(config_.queue_size)),
      stats_(series.window, series.max_windows) {
  assert(inner_ != nullptr && config_.queue_size >= 0 && config_.queue_timeout >= 0);
  for (const CapacityDrop& drop : config_.drops) {
    edges_.push_back(drop.from);
    if (drop.to != kNever) edges_.push_back(drop.to);
  }
  std::sort(edges_.begin(), edges_.end());
  edges_.erase(std::unique(edges_.begin(), edges_.end()), edges_.end());
  max_slots_ = config_.limits.max_concurrency.value_or(kUnlimited);
  advance(clock_.now());
}

CapacityProvider::~CapacityProvider() = default;

CapacityLimits CapacityProvider::limits_at(TimePoint t) const {
  CapacityLimits limits = config_.limits;
  // Drops are sorted by start and never overlap: only the last one starting at or before t
  // can cover it (a scan of every drop at every edge was quadratic in the drops).
  const auto after = std::upper_bound(config_.drops.begin(), config_.drops.end(), t,
                                      [](TimePoint x, const CapacityDrop& d) { return x < d.from; });
  if (after == config_.drops.begin()) return limits;
  const CapacityDrop& drop = *std::prev(after);
  if (t >= drop.to) return limits;
  if (drop.limits.max_concurrency) limits.max_concurrency = drop.limits.max_concurrency;
  if (drop.limits.requests_per_minute) limits.requests_per_minute = drop.limits.requests_per_minute;
  if (drop.limits.tokens_per_minute) limits.tokens_per_minute = drop.limits.tokens_per_minute;
  return limits;
}

void CapacityProvider::advance(TimePoint now) {
  while (next_edge_ < edges_.size() && edges_[next_edge_] <= now) {
    const TimePoint edge = edges_[next_edge_++];
    const CapacityLimits limits = limits_at(edge);
    requests_.set_limit(limits.requests_per_minute, edge);
    tokens_.set_limit(limits.tokens_per_minute, edge);
    max_slots_ = limits.max_concurrency.value_or(kUnlimited);
  }
}

std::int64_t CapacityProvider::slots() const { return max_slots_; }

void CapacityProvider::admit_waiting() {
  while (in_service_ < slots() && queue_.notify_one()) ++in_service_;
  const TimePoint now = clock_.now();
  stats_.set_queue(now, static_cast<std::int64_t>(queue_.size()));
  stats_.set_in_flight(now, in_service_);
}

CapacityProvider::RateWaits CapacityProvider::take_shares(std::int64_t tokens, TimePoint now) {
  RateWaits w{requests_.wait_for(1, now), tokens_.wait_for(tokens, now), 0};
  if (quota_ != nullptr) {
    w.requests = std::max(w.requests, quota_->requests.wait_for(1, now));
    w.tokens = std::max(w.tokens, quota_->tokens.wait_for(tokens, now));
  }
  w.retry = std::max(w.requests, w.tokens);
  if (w.retry == 0) {
    requests_.take(1);
    tokens_.take(tokens);
    if (quota_ != nullptr) {
      quota_->requests.take(1);
      quota_->tokens.take(tokens);
    }
  } else if (quota_ != nullptr && quota_->rejected_requests_count) {
    // The refused request counts too, so the next one waits for its share as well: the
    // Retry-After says when a request sent then would be admitted.
    quota_->requests.charge(1);
    w.retry = std::max(w.retry, quota_->requests.wait_for(1, now));
  }
  return w;
}

std::optional<Response> CapacityProvider::check_rates(const Request& request, TimePoint now,
                                                      RateLimitHeaders& headers) {
  const std::int64_t tokens = body_ == Body::completion ? request.prompt_tokens + request.max_output_tokens : 0;
  const RateWaits waits = take_shares(tokens, now);
  // The headers show the provider's own limit, or its group's where it has none.
  const MinuteBucket& rpm = quota_ != nullptr && !requests_.limit() ? quota_->requests : requests_;
  const MinuteBucket& tpm = quota_ != nullptr && !tokens_.limit() ? quota_->tokens : tokens_;
  headers.limit_requests = header_count(rpm.limit().value_or(-1));
  headers.remaining_requests = header_count(rpm.remaining());
  headers.reset_requests = rpm.until_full();
  headers.limit_tokens = header_count(tpm.limit().value_or(-1));
  headers.remaining_tokens = header_count(tpm.remaining());
  headers.reset_tokens = tpm.until_full();
  if (waits.retry == 0) return std::nullopt;

  CapacityTotals& totals = stats_.totals();
  ++(waits.requests != 0 ? totals.rate_limited_requests : totals.rate_limited_tokens);
  ++stats_.at(now).rate_limited;
  Response r;
  r.body = body_;
  r.status = kTooManyRequests;
  ErrorDetails details{.error_code = "rate_limit_exceeded"};
  details.error_message = waits.requests != 0 ? std::string_view("rate limit reached for requests per minute")
                                              : std::string_view("rate limit reached for tokens per minute");
  if (waits.tokens == kNever) {
    details.error_message = "request too large: it needs more tokens than the tokens-per-minute limit";
  }
  details.retry_after = retry_after_.for_wait(waits.retry);
  r.error_details = details_.keep(details);
  r.rate_limit = headers;
  return r;
}

Response CapacityProvider::rejection(const ErrorDetails& details) const {
  Response r;
  r.body = body_;
  r.status = config_.reject_status;
  r.error_details = &details;
  return r;
}

void CapacityProvider::deliver(Job& job, Response response) {
  Pending* client = std::exchange(job.client, nullptr);
  if (client == nullptr) return;
  client->response = std::move(response);
  client->done = true;
  client->job = nullptr;
  client->wake.cancel();
}

Task<void> CapacityProvider::serve(Request request, std::uint64_t task_id, std::string_view tool, Pending* client) {
  Job job{client};
  client->job = &job;
  const TimePoint arrived = clock_.now();
  if (in_service_ < slots() && queue_.empty()) {
    ++in_service_;
    stats_.set_in_flight(arrived, in_service_);
  } else {
    ++stats_.totals().queued;
    if (!watching_edges_ && next_edge_ < edges_.size()) {
      watching_edges_ = true;
      spawn(watch_edges(), server_tasks_);
    }
    // The server's own wait: no cancellation token, since it cannot see the client leave.
    auto wait = queue_.wait(add_saturating(arrived, config_.queue_timeout));
    stats_.set_queue(arrived, static_cast<std::int64_t>(queue_.size()) + 1);
    const WaitResult result = co_await wait;
    const TimePoint now = clock_.now();
    stats_.set_queue(now, static_cast<std::int64_t>(queue_.size()));
    if (result != WaitResult::admitted) {
      assert(result == WaitResult::timed_out);
      ++stats_.totals().queue_timeouts;
      ++stats_.at(now).rejected;
      deliver(job, rejection(kQueueTimeout));
      co_return;
    }
    // admit_waiting() counted this request's slot when it let it go.
  }
  const TimePoint started = clock_.now();
  CallOptions options;
  options.task_id = task_id;
  options.tool = tool;
  options.meter = &job.meter;
  Response response = co_await inner_->call(request, options);
  const TimePoint now = clock_.now();
  --in_service_;
  CapacityTotals& totals = stats_.totals();
  ++totals.served;
  if (job.client == nullptr) {
    ++totals.wasted_requests;
    totals.wasted_service += now - started;
  }
  admit_waiting();
  deliver(job, std::move(response));
}

Task<void> CapacityProvider::watch_edges() {
  // Started as a request queues; it sleeps first, so the request is in the queue when it
  // looks, and stops at the first edge that leaves nobody queued.
  while (next_edge_ < edges_.size()) {
    co_await sleep_until(scheduler_, edges_[next_edge_]);
    advance(clock_.now());
    admit_waiting();
    if (queue_.empty()) break;
  }
  watching_edges_ = false;
}

Task<Response> CapacityProvider::wait_for_answer(Request request, CallOptions options, RateLimitHeaders headers) {
  Pending pending(options.cancellation);
  spawn(serve(std::move(request), options.task_id, options.tool, &pending), server_tasks_);
  // A caller that reads the meter while it waits (live mode paces a stream by it) reads the
  // inner provider's through this layer, with the rate-limit headers its answer will carry;
  // until the request is in service that is nothing generated.
  const MeterForward forward(options.meter, [&pending, headers](TimePoint t) {
    Response usage;
    if (pending.job != nullptr && pending.job->meter.usage_at) usage = pending.job->meter.usage_at(t);
    usage.rate_limit = headers;
    return usage;
  });
  if (!pending.done) {
    co_await sleep_until(scheduler_, options.deadline, pending.wake.token());
  }
  const TimePoint now = clock_.now();
  if (pending.done) {
    if (is_2xx(pending.response)) {
      ++stats_.totals().goodput;
      ++stats_.at(now).goodput;
    }
    pending.response.rate_limit = headers;
    co_return std::move(pending.response);
  }
  // The client gave up; the server works on (see the file comment). It is billed what the
  // server generated by now, as the inner provider bills a call stopped then (an LLM: the
  // prompt and the output tokens complete; nothing while still queued).
  pending.job->client = nullptr;
  ++stats_.totals().abandoned;
  Response response = options.cancellation.cancelled() ? cancelled_response(body_) : timeout_response(body_);
  if (pending.job->meter.usage_at) {
    const Response usage = pending.job->meter.usage_at(now);
    response.input_tokens = usage.input_tokens;
    response.output_tokens = usage.output_tokens;
    response.cost_usd = usage.cost_usd;
  }
  co_return response;
}

// Not a coroutine: a rejection costs no frame, and an accepted request's coroutine owns
// copies of the request and options, which the server side outlives the caller with.
Task<Response> CapacityProvider::call(Request request, CallOptions options) {
  if (server_tasks_.error()) std::rethrow_exception(server_tasks_.take_error());
  if (options.cancellation.cancelled()) return inner_->call(request, options);
  const TimePoint now = clock_.now();
  advance(now);
  ++stats_.totals().arrivals;
  ++stats_.at(now).arrivals;
  admit_waiting();
  RateLimitHeaders headers;
  if (std::optional<Response> limited = check_rates(request, now, headers)) return answer_now(std::move(*limited));
  const bool slot_free = in_service_ < slots() && queue_.empty();
  if (!slot_free && queue_.size() >= queue_.max_waiters()) {
    ++stats_.totals().queue_full;
    ++stats_.at(now).rejected;
    Response r = rejection(kQueueFull);
    r.rate_limit = headers;
    return answer_now(std::move(r));
  }
  return wait_for_answer(request, options, headers);
}

}  // namespace squall

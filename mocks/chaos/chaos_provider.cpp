#include "mocks/chaos/chaos_provider.hpp"

#include <algorithm>
#include <cassert>

#include "mocks/answer_time.hpp"

namespace squall {
namespace {

// The status codes used when a fault sets none (see chaos_provider.hpp).
constexpr int kTooManyRequests = 429;
constexpr int kDefaultOverloadedStatus = 529;
constexpr int kDefaultServerErrorStatus = 500;
constexpr int kServiceUnavailable = 503;

}  // namespace

ChaosProvider::ChaosProvider(std::unique_ptr<Provider> inner, std::vector<FaultConfig> faults,
                             LatencyConfig latency, Body body, Clock& clock, Scheduler& scheduler, Rng& rng,
                             Nanos hang_cap)
    : inner_(std::move(inner)),
      faults_(std::move(faults)),
      latency_(latency),
      body_(body),
      clock_(clock),
      scheduler_(scheduler),
      rng_(rng),
      hang_cap_(hang_cap) {
  assert(inner_ != nullptr && hang_cap_ >= 0);
}

const FaultConfig* ChaosProvider::choose(TimePoint now, std::uint64_t call, double u) const {
  double cumulative = 0;
  for (const FaultConfig& fault : faults_) {
    const bool active = fault.from <= now && now < fault.to && fault.first_call <= call && call <= fault.last_call;
    if (!active) continue;
    cumulative += fault.probability;
    if (u < cumulative) return &fault;
  }
  return nullptr;
}

Response ChaosProvider::faulty_answer(const FaultConfig& fault) const {
  Response r;
  r.body = body_;
  switch (fault.kind) {
    case FaultKind::rate_limited:
      r.status = kTooManyRequests;
      if (fault.retry_after) r.retry_after = *fault.retry_after;  // faults_ live as long as the decorator
      break;
    case FaultKind::overloaded:
      r.status = fault.status.value_or(kDefaultOverloadedStatus);
      break;
    case FaultKind::server_error:
      r.status = fault.status.value_or(kDefaultServerErrorStatus);
      break;
    case FaultKind::empty:
      r.status = 200;  // no results, or 0 output tokens: the defaults
      break;
    case FaultKind::index_not_ready:
      r.status = kServiceUnavailable;
      r.error_code = "index_not_ready";
      r.error_message = "the index is not ready: it is still being built or loaded; retry later";
      break;
    case FaultKind::timeout:
      assert(false && "timeouts have no answer");
      break;
  }
  return r;
}

Task<Response> ChaosProvider::inject(const FaultConfig& fault, TimePoint now, const CallOptions& options) {
  if (fault.kind == FaultKind::timeout) {
    const TimePoint give_up = std::min(options.deadline, add_saturating(now, hang_cap_));
    const Wake wake = co_await sleep_until(scheduler_, give_up, options.cancellation);
    co_return wake == Wake::cancelled ? cancelled_response(body_) : timeout_response(body_);
  }
  const Nanos latency = fault.latency ? LatencyModel(*fault.latency).sample(rng_) : latency_.sample(rng_);
  const Answer answer = co_await await_answer(scheduler_, add_saturating(now, latency), options);
  if (answer != Answer::arrived) co_return no_answer_response(answer, body_);
  co_return faulty_answer(fault);
}

// Not a coroutine: it decides at once and hands back the inner provider's Task or the
// fault's, so a clean call costs no frame of its own and no extra move of the Response.
Task<Response> ChaosProvider::call(const Request& request, const CallOptions& options) {
  // A call cancelled before it is sent is not a call: no number, no draw. The inner
  // provider answers it as cancelled at once.
  if (options.cancellation.cancelled()) return inner_->call(request, options);
  const std::uint64_t call = ++calls_;
  const TimePoint now = clock_.now();
  const double u = rng_.uniform01();
  const FaultConfig* fault = choose(now, call, u);
  if (fault == nullptr) return inner_->call(request, options);
  ++injected_[index_of(fault->kind)];
  return inject(*fault, now, options);
}

}  // namespace squall

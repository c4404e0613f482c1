#include "mocks/chaos/chaos_provider.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include <fmt/format.h>

#include "engine/answer_time.hpp"
#include "engine/retry_after.hpp"
#include "engine/runtime/duration.hpp"
#include "engine/runtime/rng.hpp"
#include "engine/runtime/same_text.hpp"
#include "mocks/keyed_uniform.hpp"

namespace squall {
namespace {

// The status codes used when a fault sets none (see chaos_provider.hpp).
constexpr int kTooManyRequests = 429;
constexpr int kDefaultOverloadedStatus = 529;
constexpr int kDefaultServerErrorStatus = 500;
constexpr int kDefaultClientErrorStatus = 400;
constexpr int kServiceUnavailable = 503;

// Salts that keep the uniforms of one attempt apart: the delay decision, the abort and
// transform decision, and the latency samples.
constexpr std::uint64_t kDelaySalt = 0x6465'6c61'7900'0000;    // "delay"
constexpr std::uint64_t kAbortSalt = 0x6162'6f72'7400'0000;    // "abort"
constexpr std::uint64_t kLatencySalt = 0x6c61'7465'6e63'7900;  // "latency"

// What a masked error's body carries: the shape of OpenAI's and Anthropic's error objects.
constexpr std::string_view kMaskedError =
    R"({"error":{"type":"api_error","message":"internal error while generating the answer"}})";

// The attempt's identity as one number for keyed_uniform's index: step and attempt.
std::uint64_t attempt_index(const CallOptions& options) {
  return (std::uint64_t{options.step} << 32) | static_cast<std::uint32_t>(options.attempt);
}

// keyed_uniform(key ^ salt, task id, tool, attempt index), with the tool given by its CRC.
double keyed(std::uint64_t key, std::uint64_t salt, const CallOptions& options, std::uint64_t tool_crc) {
  return keyed_uniform_of_crc(key ^ salt, options.task_id, tool_crc, attempt_index(options));
}

// The same with the tool's CRC mixed with key ^ salt already (ChaosProvider::ToolSeeds).
double keyed_seeded(std::uint64_t key, std::uint64_t salt, const CallOptions& options, std::uint64_t tool_seed) {
  return keyed_uniform_of_seed(key ^ salt, options.task_id, tool_seed, attempt_index(options));
}

// keyed_uniform's text part for the empty text: crc64_xz("") (all-ones init and final xor).
constexpr std::uint64_t kEmptyTextCrc = 0;

Nanos ceil_div(Nanos a, Nanos b) { return a / b + (a % b != 0 ? 1 : 0); }

}  // namespace

ChaosProvider::ChaosProvider(std::unique_ptr<Provider> inner, std::vector<FaultConfig> faults, LatencyConfig latency,
                             Body body, Clock& clock, Scheduler& scheduler, Rng& rng, ChaosSettings settings)
    : inner_(std::move(inner)),
      faults_(std::move(faults)),
      latency_(latency),
      body_(body),
      clock_(clock),
      scheduler_(scheduler),
      rng_(rng),
      settings_(settings) {
  assert(inner_ != nullptr && settings_.hang_cap >= 0 && settings_.window > 0 && settings_.max_windows > 0);
  for (const FaultConfig& fault : faults_) {
    const std::size_t group = phase_of(fault.kind) == FaultPhase::delay ? kDelayGroup : kAbortGroup;
    (fault.outage.empty() ? own_rules_ : outage_rules_)[group].push_back(&fault);
  }
}

std::size_t ChaosProvider::window_of(TimePoint decided) const {
  const auto w = static_cast<std::size_t>(std::max<TimePoint>(decided, 0) / settings_.window);
  return std::min(w, settings_.max_windows - 1);
}

void ChaosProvider::count_injected(FaultKind kind, TimePoint decided) {
  const std::size_t w = window_of(decided);
  if (injected_by_window_.size() <= w) injected_by_window_.resize(w + 1);
  ++injected_[index_of(kind)];
  ++injected_by_window_[w][index_of(kind)];
}

void ChaosProvider::uncount_injected(FaultKind kind, TimePoint decided) {
  // Only a fault counted at `decided` is taken back, so its window exists.
  --injected_[index_of(kind)];
  --injected_by_window_[window_of(decided)][index_of(kind)];
}

FaultPhaseCounts ChaosProvider::injected_phases() const {
  FaultPhaseCounts phases{};
  for (std::size_t i = 0; i < kFaultKindCount; ++i) {
    phases[static_cast<std::size_t>(phase_of(static_cast<FaultKind>(i)))] += injected_[i];
  }
  return phases;
}

// The name compared inline (same_text): a call to memcmp cost more than the comparison
// of these few bytes, on every keyed call.
inline const ChaosProvider::ToolSeeds& ChaosProvider::tool_seeds(std::string_view tool) {
  if (seeds_set_ && same_text(tool, seeds_tool_)) return seeds_;
  return new_tool_seeds(tool);
}

const ChaosProvider::ToolSeeds& ChaosProvider::new_tool_seeds(std::string_view tool) {
  seeds_tool_.assign(tool);
  seeds_set_ = true;
  const std::uint64_t key = settings_.decision_key;
  seeds_.crc = crc64_xz(tool);
  seeds_.delay = stream_seed_of_crc(key ^ kDelaySalt, seeds_.crc);
  seeds_.abort = stream_seed_of_crc(key ^ kAbortSalt, seeds_.crc);
  seeds_.latency = stream_seed_of_crc(key ^ kLatencySalt, seeds_.crc);
  return seeds_;
}

template <class Uniform>
const FaultConfig* ChaosProvider::choose(bool delay_group, TimePoint now, std::uint64_t call, Uniform uniform,
                                         const CallOptions& options, std::uint64_t tool_crc) const {
  const std::size_t group = delay_group ? kDelayGroup : kAbortGroup;
  // Shared outages first, each deciding with its own key (chaos_provider.hpp, step 3).
  for (const FaultConfig* fault : outage_rules_[group]) {
    if (!fault_active(*fault, now, call)) continue;
    const double shared = options.attempt > 0
                              ? keyed(fault->outage_key, delay_group ? kDelaySalt : kAbortSalt, options, tool_crc)
                              : keyed_uniform_of_crc(fault->outage_key, 0, kEmptyTextCrc, call);
    if (shared < fault->probability) return fault;
  }
  double cumulative = 0;
  double u = 0;
  bool have_u = false;
  for (const FaultConfig* fault : own_rules_[group]) {
    if (!fault_active(*fault, now, call)) continue;
    if (!have_u) {
      u = uniform();
      have_u = true;
    }
    cumulative += fault->probability;
    if (u < cumulative) return fault;
  }
  return nullptr;
}

ChaosProvider::Decision ChaosProvider::decide(TimePoint now, std::uint64_t call, const CallOptions& options) {
  // The uniforms are pure hashes, except an unkeyed call's abort uniform, a draw from the
  // stream: that one is taken whatever the rules, and a hash is taken only for a group
  // with one of the provider's own rules active (choose) and a latency seed only for a
  // call that has a fault, since nothing else reads them (the values are those of the
  // header's steps either way).
  Decision d;
  d.keyed = options.attempt > 0;
  const std::uint64_t key = settings_.decision_key;
  if (!d.keyed) {
    const double u_abort = rng_.uniform01();
    if (has_rules(kDelayGroup)) {
      const auto u_delay = [&] { return keyed_uniform_of_crc(key ^ kDelaySalt, 0, kEmptyTextCrc, call); };
      d.delay = choose(/*delay_group=*/true, now, call, u_delay, options, kEmptyTextCrc);
    }
    if (has_rules(kAbortGroup)) {
      d.fault = choose(/*delay_group=*/false, now, call, [u_abort] { return u_abort; }, options, kEmptyTextCrc);
    }
    return d;
  }
  // Only keyed decisions hash the tool name (choose's shared outages, too, only when keyed).
  const ToolSeeds& tool = tool_seeds(options.tool);
  if (has_rules(kDelayGroup)) {
    const auto u_delay = [&] { return keyed_seeded(key, kDelaySalt, options, tool.delay); };
    d.delay = choose(/*delay_group=*/true, now, call, u_delay, options, tool.crc);
  }
  if (has_rules(kAbortGroup)) {
    const auto u_abort = [&] { return keyed_seeded(key, kAbortSalt, options, tool.abort); };
    d.fault = choose(/*delay_group=*/false, now, call, u_abort, options, tool.crc);
  }
  if (d.delay != nullptr || d.fault != nullptr) {
    d.latency_seed = static_cast<std::uint64_t>(keyed_seeded(key, kLatencySalt, options, tool.latency) * 0x1.0p53);
  }
  return d;
}

std::string_view ChaosProvider::keep(std::string text) { return *texts_.insert(std::move(text)).first; }

void ChaosProvider::set_retry_after(const FaultConfig& fault, TimePoint now, ErrorDetails& details) {
  if (fault.retry_after) {
    details.retry_after = *fault.retry_after;  // faults_ live as long as the decorator
    return;
  }
  if (!fault.retry_after_delay) return;
  const Nanos delay = *fault.retry_after_delay;
  switch (fault.retry_after_form) {
    case RetryAfterForm::delay_seconds: details.retry_after = keep(format_delta_seconds(delay)); break;
    case RetryAfterForm::http_date: {
      // The date the client may retry at, rounded up to a whole second (an HTTP-date has
      // no finer resolution), so that a client never retries early.
      const Nanos at = add_saturating(now, delay);
      details.retry_after = keep(format_http_date(settings_.start_unix_seconds + ceil_div(at, kSecond)));
      break;
    }
    case RetryAfterForm::milliseconds:
      details.retry_after_ms = keep(fmt::format("{}", ceil_div(delay, kMillisecond)));
      details.retry_after = keep(fmt::format("{}", ceil_div(delay, kSecond)));
      break;
    case RetryAfterForm::retry_info: details.retry_delay = keep(format_delta_seconds(delay) + "s"); break;
  }
}

Response ChaosProvider::faulty_answer(const FaultConfig& fault, TimePoint now) {
  Response r;
  r.body = body_;
  ErrorDetails details;
  switch (fault.kind) {
    case FaultKind::rate_limited:
      r.status = kTooManyRequests;
      set_retry_after(fault, now, details);
      break;
    case FaultKind::overloaded:
      r.status = fault.status.value_or(kDefaultOverloadedStatus);
      set_retry_after(fault, now, details);
      break;
    case FaultKind::server_error: r.status = fault.status.value_or(kDefaultServerErrorStatus); break;
    case FaultKind::client_error: r.status = fault.status.value_or(kDefaultClientErrorStatus); break;
    case FaultKind::empty:
    case FaultKind::throttled_empty:
      r.status = 200;  // no results, or 0 output tokens: the defaults
      break;
    case FaultKind::index_not_ready:
      r.status = kServiceUnavailable;
      details.error_code = "index_not_ready";
      details.error_message = "the index is not ready: it is still being built or loaded; retry later";
      break;
    default: assert(false && "not an abort with an answer"); break;
  }
  // The rule's own words win over the kind's (faults_ live as long as the decorator).
  if (fault.error_code) details.error_code = *fault.error_code;
  if (fault.error_message) details.error_message = *fault.error_message;
  if (fault.should_retry) details.should_retry = *fault.should_retry ? "true" : "false";
  r.error_details = details_.keep(details);
  return r;
}

void ChaosProvider::abort_now(const FaultConfig& fault, TimePoint now, std::int64_t prompt_tokens,
                              const CallOptions& options, Rng& rng, Response& response, ScheduledAnswer& answer) {
  if (fault.kind == FaultKind::timeout) {
    // The hang: the caller's wait ends at the deadline as a timeout (never cut short: the
    // hang is the fault), or at a cancel; or, sooner, when the server closes the silent
    // connection: after the fault's latency when it has one, else at the cap.
    const Nanos hang = fault.latency ? LatencyModel(*fault.latency).sample(rng) : settings_.hang_cap;
    response = timeout_response(body_);
    answer.at = std::min(options.deadline, add_saturating(now, hang));
    return;
  }
  const Nanos latency = fault.latency ? LatencyModel(*fault.latency).sample(rng) : latency_.sample(rng);
  answer.at = add_saturating(now, latency);
  answer.cut_short = &cut_short_[index_of(fault.kind)];
  // Built for the time it arrives, the only time at which the caller sees it.
  response = faulty_answer(fault, answer.at);
  if (fault.kind == FaultKind::empty && body_ == Body::completion) {
    // A completion with no content: the prompt was read and is billed (ChaosSettings).
    response.input_tokens = prompt_tokens;
    response.cost_usd = static_cast<double>(prompt_tokens) * settings_.prompt_usd_per_mtok / 1e6;
  }
}

Task<Response> ChaosProvider::abort(const FaultConfig& fault, TimePoint now, std::int64_t prompt_tokens,
                                    CallOptions options, Rng& rng) {
  Response response;
  ScheduledAnswer answer;
  abort_now(fault, now, prompt_tokens, options, rng, response, answer);
  co_await AwaitScheduled(scheduler_, response, answer, options);
  co_return response;
}

Task<Response> ChaosProvider::transform(const FaultConfig& fault, TimePoint decided, const Request& request,
                                        CallOptions options) {
  if (fault.kind == FaultKind::masked_error) {
    Response r = co_await inner_->call(request, options);
    if (r.transport != Transport::ok) {
      ++cut_short_[index_of(fault.kind)];
      co_return r;
    }
    ErrorDetails details = r.details();
    details.body_error = kMaskedError;
    r.error_details = details_.keep(details);
    co_return r;
  }
  assert(fault.kind == FaultKind::stream_cut);
  // A request capped at or below the cut ends before it: not cut (chaos_provider.hpp).
  if (request.max_output_tokens != 0 && request.max_output_tokens <= fault.after_tokens) {
    uncount_injected(fault.kind, decided);
    co_return co_await inner_->call(request, options);
  }
  Request cut = request;
  cut.max_output_tokens = fault.after_tokens;
  Response r = co_await inner_->call(cut, options);
  if (r.transport != Transport::ok) {
    ++cut_short_[index_of(fault.kind)];
    co_return r;
  }
  // Only a stream stopped by the cut's cap is cut: one that ended on its own before it
  // would have ended the same way without the fault (chaos_provider.hpp).
  if (!r.truncated || r.output_tokens < fault.after_tokens) {
    uncount_injected(fault.kind, decided);
    co_return r;
  }
  r.truncated = false;
  r.status = fault.status.value_or(kDefaultServerErrorStatus);
  ErrorDetails details = r.details();
  details.error_code = "stream_error";  // no message: the wires word the error event as their API does
  r.error_details = details_.keep(details);
  r.set_tool_result({});
  co_return r;
}

Task<Response> ChaosProvider::run(Decision decision, TimePoint now, Request request, CallOptions options) {
  Xoshiro256 keyed_rng(decision.latency_seed);
  Rng& rng = decision.keyed ? static_cast<Rng&>(keyed_rng) : rng_;
  const FaultConfig* delay = decision.delay;
  if (delay != nullptr && delay->kind == FaultKind::latency_spike) {
    const Nanos extra = LatencyModel(*delay->latency).sample(rng);
    const Answer waited = co_await await_answer(scheduler_, add_saturating(now, extra), options);
    if (waited != Answer::arrived) {
      ++cut_short_[index_of(delay->kind)];
      co_return no_answer_response(waited, body_);
    }
  }
  const TimePoint began = clock_.now();
  Response r;
  if (decision.fault == nullptr) {
    r = co_await inner_->call(request, options);
  } else if (phase_of(decision.fault->kind) == FaultPhase::abort) {
    r = co_await abort(*decision.fault, began, request.prompt_tokens, options, rng);
  } else {
    r = co_await transform(*decision.fault, now, request, options);
  }
  if (delay == nullptr || delay->kind != FaultKind::brownout || r.transport != Transport::ok) co_return r;
  const Nanos took = clock_.now() - began;
  const auto extra = static_cast<Nanos>(std::llround(static_cast<double>(took) * (delay->multiplier - 1)));
  const Answer stretched = co_await await_answer(scheduler_, add_saturating(clock_.now(), extra), options);
  if (stretched == Answer::arrived) co_return r;
  ++cut_short_[index_of(delay->kind)];
  Response late = no_answer_response(stretched, body_);
  late.input_tokens = r.input_tokens;
  late.output_tokens = r.output_tokens;
  late.cost_usd = r.cost_usd;
  co_return late;
}

ChaosProvider::Decision ChaosProvider::next_decision(TimePoint now, const CallOptions& options) {
  const std::uint64_t call = ++calls_;
  Decision decision = decide(now, call, options);
  if (decision.delay != nullptr) count_injected(decision.delay->kind, now);
  if (decision.fault != nullptr) count_injected(decision.fault->kind, now);
  return decision;
}

// Not a coroutine: it decides at once and hands back the inner provider's Task or the
// fault's, so a clean call costs no frame of its own and no extra move of the Response.
Task<Response> ChaosProvider::call(Request request, CallOptions options) {
  // A call cancelled before it is sent is not a call: no number, no draw. The inner
  // provider answers it as cancelled at once.
  if (options.cancellation.cancelled()) return inner_->call(request, options);
  const TimePoint now = clock_.now();
  const Decision decision = next_decision(now, options);
  if (decision.delay == nullptr && decision.fault == nullptr) return inner_->call(request, options);
  if (decision.delay == nullptr && phase_of(decision.fault->kind) == FaultPhase::abort && !decision.keyed) {
    return abort(*decision.fault, now, request.prompt_tokens, options, rng_);
  }
  return run(decision, now, request, options);
}

// The same decisions as call(), in the same order; a clean call goes to the inner
// provider's start(), and an abort without a delay is answered at once (what run() and
// abort() would answer, with the same draws: a keyed decision's latency from its own
// generator).
Task<Response> ChaosProvider::start(const Request& request, const CallOptions& options, Response& response,
                                    ScheduledAnswer& answer) {
  if (options.cancellation.cancelled()) return inner_->start(request, options, response, answer);
  const TimePoint now = clock_.now();
  const Decision decision = next_decision(now, options);
  if (decision.delay == nullptr && decision.fault == nullptr) return inner_->start(request, options, response, answer);
  if (decision.delay == nullptr && phase_of(decision.fault->kind) == FaultPhase::abort) {
    if (!decision.keyed) {
      abort_now(*decision.fault, now, request.prompt_tokens, options, rng_, response, answer);
    } else {
      Xoshiro256 keyed_rng(decision.latency_seed);
      abort_now(*decision.fault, now, request.prompt_tokens, options, keyed_rng, response, answer);
    }
    return {};
  }
  return run(decision, now, request, options);
}

}  // namespace squall

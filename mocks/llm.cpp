#include "mocks/llm.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include <fmt/format.h>

#include "engine/runtime/rounding.hpp"
#include "engine/token_estimate.hpp"
#include "mocks/answer_time.hpp"
#include "mocks/keyed_uniform.hpp"

namespace squall {
namespace {

constexpr double kNanosPerSecond = 1e9;

}  // namespace

LlmMock::LlmMock(std::string name, LlmConfig config, Clock& clock, Scheduler& scheduler, Rng& rng,
                 std::uint64_t decision_key)
    : name_(std::move(name)),
      config_(std::move(config)),
      ttft_(config_.time_to_first_token),
      clock_(clock),
      scheduler_(scheduler),
      rng_(rng),
      decision_key_(decision_key) {
  assert(config_.tokens_per_second > 0 && config_.mean_output_tokens >= 1);
  if (config_.model.empty()) config_.model = name_;
  context_message_ = fmt::format(
      "This model's maximum context length is {} tokens. Please reduce the length of the messages or completion.",
      config_.context_window);
  context_details_.error_message = context_message_;
}

Nanos LlmMock::generation_time(std::int64_t tokens) const {
  // tokens >= 0 and tokens_per_second > 0: 0 <= ns, and ns < 2^62 where it is rounded.
  const double ns = static_cast<double>(tokens) * kNanosPerSecond / config_.tokens_per_second;
  return ns >= static_cast<double>(kMaxLatency) ? kMaxLatency : round_non_negative(ns);
}

std::int64_t LlmMock::tokens_generated_in(Nanos streaming) const {
  if (streaming <= 0) return 0;
  const double tokens = static_cast<double>(streaming) * config_.tokens_per_second / kNanosPerSecond;
  return static_cast<std::int64_t>(std::floor(tokens));
}

void LlmMock::bill(Response& response) const {
  response.cost_usd = (static_cast<double>(response.input_tokens) * config_.price_per_mtok.input +
                       static_cast<double>(response.output_tokens) * config_.price_per_mtok.output) /
                      1e6;
}

bool LlmMock::rewrite_reaches_intended(std::uint64_t task_id, std::string_view query, std::uint32_t n) const {
  return keyed_uniform(decision_key_, task_id, query, n) < config_.rewrite_success_rate;
}

std::string_view LlmMock::rewrite_of(const Request& request, std::uint64_t task_id) const {
  const PoolQuery* origin = request.origin;
  if (origin == nullptr) return {};
  if (!origin->rewrite.empty() && rewrite_reaches_intended(task_id, request.query, request.rewrite_attempt)) {
    return origin->rewrite;
  }
  return origin->paraphrase;
}

Task<Response> LlmMock::call(Request request, CallOptions options) {
  return call_through_start(*this, scheduler_, request, options);
}

Task<Response> LlmMock::start(const Request& request, const CallOptions& options, Response& response,
                              ScheduledAnswer& answer) {
  const TimePoint start = clock_.now();
  response.body = Body::completion;
  answer.at = start;
  // A call cancelled before it is sent reaches no API: no draw, nothing billed (the
  // cancelled token makes the caller's wait end at once, cancelled).
  if (options.cancellation.cancelled()) return {};
  if (request.prompt_tokens + request.max_output_tokens > config_.context_window) {
    // Refused without a draw; a deadline or cancel before the refusal bills nothing.
    answer.at = add_saturating(start, kContextRejectLatency);
    response.status = 400;
    response.error_details = &context_details_;
    return {};
  }

  const Nanos ttft = ttft_.sample(rng_);
  const bool rewrite = request.rewrite_attempt > 0;
  const std::string_view rewritten = rewrite ? rewrite_of(request, options.task_id) : std::string_view();
  // The exponential's largest value with a 53-bit uniform is about 37 means, so the
  // rounded length always fits int64.
  std::int64_t tokens =
      rewrite
          ? std::max<std::int64_t>(1, estimate_tokens(rewritten.empty() ? std::string_view(request.query) : rewritten))
          : std::max<std::int64_t>(
                1, round_non_negative(rng_.exponential(static_cast<double>(config_.mean_output_tokens))));
  bool truncated = false;
  std::int64_t cap = config_.max_output_tokens;
  if (request.max_output_tokens > 0 && request.max_output_tokens < cap) cap = request.max_output_tokens;
  if (tokens > cap) {
    tokens = cap;
    truncated = true;
  }
  const TimePoint first_token_at = add_saturating(start, ttft);
  answer.at = add_saturating(first_token_at, generation_time(tokens));

  if (options.meter != nullptr) {
    const std::int64_t prompt = request.prompt_tokens;
    options.meter->usage_at = [this, prompt, first_token_at, tokens](TimePoint stopped) {
      return partial(prompt, first_token_at, tokens, stopped);
    };
  }
  // The answer as it arrives, but for the malformed-output draw, which happens on arrival
  // (End::arrived); End::stopped bills a wait cut short from the prompt and output tokens.
  response.output_tokens = tokens;
  response.truncated = truncated;
  if (rewrite) response.set_tool_result(rewritten);
  response.input_tokens = request.prompt_tokens;
  bill(response);
  answer.end = !rewrite && config_.malformed_output_rate > 0 ? &drawing_end_ : &plain_end_;
  answer.since = first_token_at;
  return {};
}

void LlmMock::End::arrived(Response& response) noexcept {
  if (draws_malformed_) response.malformed = mock_.rng_.bernoulli(mock_.config_.malformed_output_rate);
}

void LlmMock::End::stopped(Response& response, Answer answer, TimePoint deadline, TimePoint since) noexcept {
  // Generation stopped at the deadline, or at the cancel (now).
  const TimePoint stopped = answer == Answer::cancelled ? mock_.clock_.now() : deadline;
  const std::int64_t prompt = response.input_tokens;
  const Response usage = mock_.partial(prompt, since, response.output_tokens, stopped);
  response = no_answer_response(answer, Body::completion);
  response.output_tokens = usage.output_tokens;
  response.input_tokens = prompt;
  mock_.bill(response);
}

Response LlmMock::partial(std::int64_t prompt_tokens, TimePoint first_token_at, std::int64_t tokens,
                          TimePoint stopped) const {
  // The last token would complete at the answer's time, not before the stop, so at most
  // tokens - 1 are done; the clamp keeps rounding in generation_time from granting it.
  Response usage;
  usage.input_tokens = prompt_tokens;
  usage.output_tokens = std::clamp<std::int64_t>(tokens_generated_in(stopped - first_token_at), 0, tokens - 1);
  bill(usage);
  return usage;
}

std::unique_ptr<Provider> make_mock(const LlmConfig& config, const MockBuild& build) {
  return std::make_unique<LlmMock>(std::string(build.name), config, build.clock, build.scheduler, build.rng,
                                   build.decision_key ? build.decision_key() : 0);
}

void describe_into(const LlmConfig& config, ProviderDescriptor& d) {
  if (!config.model.empty()) d.model = config.model;
  d.context_window = config.context_window;
  d.max_output_tokens = config.max_output_tokens;
  d.price_per_mtok = config.price_per_mtok;
}

double truncation_rate(const LlmConfig& config, std::int64_t step_max_output_tokens) {
  std::int64_t cap = config.max_output_tokens;
  if (step_max_output_tokens > 0 && step_max_output_tokens < cap) cap = step_max_output_tokens;
  return std::exp(-(static_cast<double>(cap) + 0.5) / static_cast<double>(config.mean_output_tokens));
}

}  // namespace squall

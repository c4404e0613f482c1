#include "mocks/tool.hpp"

#include <fmt/format.h>

#include "mocks/answer_time.hpp"

namespace squall {
namespace {

constexpr std::string_view kResultBody = R"({"status":"ok"})";

// splitmix64 of `state` mixed with `value`: one step of the argument hash.
std::uint64_t mix(std::uint64_t state, std::uint64_t value) {
  std::uint64_t s = state ^ value;
  return splitmix64(s);
}

}  // namespace

ToolMock::ToolMock(std::string name, ToolMockConfig config, Clock& clock, Scheduler& scheduler, Rng& rng)
    : name_(std::move(name)),
      config_(config),
      latency_(config_.latency),
      clock_(clock),
      scheduler_(scheduler),
      rng_(rng),
      key_(rng_.next_u64()),
      invalid_message_(fmt::format("Invalid arguments for {}: a required parameter is missing or has the wrong type",
                                   name_)) {}

bool ToolMock::arguments_invalid(std::uint64_t task_id, std::string_view tool, std::uint32_t revision) const {
  std::uint64_t h = mix(key_, task_id);
  h = mix(h, stream_seed(key_, tool));
  h = mix(h, revision);
  const double u = static_cast<double>(h >> 11) * 0x1.0p-53;
  if (revision == 0) return u < config_.argument_error_rate;
  return u >= config_.reflection_fix_rate;
}

Task<Response> ToolMock::call(const Request& request, const CallOptions& options) {
  // A call cancelled before it is sent reaches no service: no draw.
  if (options.cancellation.cancelled()) co_return cancelled_response(Body::tool_result);
  const TimePoint answer_at = add_saturating(clock_.now(), latency_.sample(rng_));
  const bool invalid = arguments_invalid(options.task_id, options.tool, request.argument_revision);
  const Answer answer = co_await await_answer(scheduler_, answer_at, options);
  if (answer != Answer::arrived) co_return no_answer_response(answer, Body::tool_result);
  Response response;
  response.body = Body::tool_result;
  if (invalid) {
    response.status = 400;
    response.error_code = "invalid_arguments";
    response.error_message = invalid_message_;
  } else {
    response.tool_result = kResultBody;
  }
  co_return response;
}

std::unique_ptr<Provider> make_mock(const ToolMockConfig& config, const MockBuild& build) {
  return std::make_unique<ToolMock>(std::string(build.name), config, build.clock, build.scheduler, build.rng);
}

void describe_into(const ToolMockConfig&, ProviderDescriptor&) {}

}  // namespace squall

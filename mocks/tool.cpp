#include "mocks/tool.hpp"

#include <fmt/format.h>

#include "mocks/answer_time.hpp"
#include "mocks/keyed_uniform.hpp"

namespace squall {
namespace {

constexpr std::string_view kResultBody = R"({"status":"ok"})";

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
  const double u = keyed_uniform(key_, task_id, tool, revision);
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

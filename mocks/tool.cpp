#include "mocks/tool.hpp"

#include <fmt/format.h>

#include "engine/answer_time.hpp"
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
      invalid_message_(
          fmt::format("Invalid arguments for {}: a required parameter is missing or has the wrong type", name_)) {}

bool ToolMock::arguments_invalid(std::uint64_t task_id, std::string_view tool, std::uint32_t revision) const {
  const double u = keyed_uniform(key_, task_id, tool, revision);
  if (revision == 0) return u < config_.argument_error_rate;
  return u >= config_.reflection_fix_rate;
}

Task<Response> ToolMock::call(Request request, CallOptions options) {
  return call_through_start(*this, scheduler_, request, options);
}

Task<Response> ToolMock::start(const Request& request, const CallOptions& options, Response& response,
                               ScheduledAnswer& answer) {
  response.body = Body::tool_result;
  answer.at = clock_.now();
  // A call cancelled before it is sent reaches no service: no draw (the cancelled token
  // makes the caller's wait end at once, cancelled).
  if (options.cancellation.cancelled()) return {};
  answer.at = add_saturating(answer.at, latency_.sample(rng_));
  if (arguments_invalid(options.task_id, options.tool, request.argument_revision)) {
    response.status = 400;
    response.error_details = &invalid_details_;
  } else {
    response.set_tool_result(kResultBody);
  }
  return {};
}

std::unique_ptr<Provider> make_mock(const ToolMockConfig& config, const MockBuild& build) {
  return std::make_unique<ToolMock>(std::string(build.name), config, build.clock, build.scheduler, build.rng);
}

void describe_into(const ToolMockConfig&, ProviderDescriptor&) {}

}  // namespace squall

// tool: a generic tool or API the agent calls with arguments (`crm_lookup`,
// `send_email`), whose arguments the agent may get wrong (seed 003's tool errors).
//
// A call answers after one latency draw (the mock's stream, before anything else, so
// the stream does not depend on the arguments): 200 with a small result body
// (Body::tool_result, `{"status":"ok"}`), or, when the request's arguments are invalid,
// 400 with error_code "invalid_arguments" and an error message (kInvalidArgumentsMessage,
// naming the tool), which classify() reads as bad_request. Nothing is billed: tools are
// not priced per token.
//
// Whether arguments are invalid is not drawn from the stream: it is a hash of (the
// mock's key, the task id, the tool name, Request::argument_revision), where the key is
// the first draw of the mock's own stream, taken at construction. The same arguments
// therefore fail the same way every time they are sent (a retry of a bad request is a
// deterministic repeat, as with a real API), and two policies run on one seed face the
// same argument errors wherever their tasks coincide (DESIGN section 3):
//   revision 0 (the agent's first arguments)   invalid with probability argument_error_rate
//   revision r >= 1 (after r reflections)      valid with probability reflection_fix_rate,
//                                              independently for each r
// The hash is mocks/keyed_uniform.hpp's, over (key, task id, tool name, revision).
//
// Deadlines and cancellation follow mocks/answer_time.hpp: an answer later than the
// deadline returns at the deadline as a timeout; a cancelled call returns at the cancel;
// a call already cancelled when made draws nothing.
#pragma once

#include <array>

#include <cstdint>
#include <string>

#include "engine/provider.hpp"
#include "engine/provider_descriptor.hpp"
#include "engine/runtime/clock.hpp"
#include "mocks/latency.hpp"
#include "mocks/mock_build.hpp"

namespace squall {

struct ToolMockConfig {
  // The provider type's scenario `type`, its own keys (documentation order), the body it
  // answers with, and the latency its faulty answers borrow (mocks/mock_build.hpp).
  static constexpr ProviderKind kKind = ProviderKind::tool;
  static constexpr std::array<std::string_view, 3> kKeys{"latency", "argument_error_rate", "reflection_fix_rate"};
  static constexpr Body kBody = Body::tool_result;
  const LatencyConfig& fault_latency() const { return latency; }

  // Default lognormal with median 100 ms and p99 1 s (LatencyConfig's defaults).
  LatencyConfig latency;
  // The probability, in [0, 1], that the agent's first arguments for a task's call of a
  // tool are wrong. Default 0.
  double argument_error_rate = 0;
  // The probability, in [0, 1], that the arguments corrected by a reflection are valid.
  // Default 0.5 (an assumption: seed 003 retries with the model's corrected arguments
  // without saying how often the correction works).
  double reflection_fix_rate = 0.5;
};

class ToolMock final : public Provider {
 public:
  // The clock, scheduler and rng must outlive the mock; `rng` is the mock's own stream.
  ToolMock(std::string name, ToolMockConfig config, Clock& clock, Scheduler& scheduler, Rng& rng);
  std::string_view name() const override { return name_; }
  Task<Response> call(Request request, CallOptions options) override;
  // Answers at once (engine/provider.hpp): the arguments' verdict and the latency are
  // decided now.
  Task<Response> start(const Request& request, const CallOptions& options, Response& response,
                       ScheduledAnswer& answer) override;
  const ToolMockConfig& config() const { return config_; }

  // Whether the arguments of revision `revision` of task `task_id`'s call of `tool` are
  // invalid (the rule above). Exposed for tests.
  bool arguments_invalid(std::uint64_t task_id, std::string_view tool, std::uint32_t revision) const;

 private:
  std::string name_;
  ToolMockConfig config_;
  LatencyModel latency_;
  Clock& clock_;
  Scheduler& scheduler_;
  Rng& rng_;
  std::uint64_t key_;            // the first draw of rng_
  std::string invalid_message_;  // the 400's message, naming the provider
  // The 400's error details (its views point into invalid_message_; the mock never moves).
  ErrorDetails invalid_details_{.error_code = "invalid_arguments", .error_message = invalid_message_};
};

// This provider type's factory and its part of the routing descriptor (mocks/mock_build.hpp).
std::unique_ptr<Provider> make_mock(const ToolMockConfig& config, const MockBuild& build);
void describe_into(const ToolMockConfig& config, ProviderDescriptor& descriptor);

}  // namespace squall

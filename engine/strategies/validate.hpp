// validate: a check of a response's shape, placed inside retry or fallback (seed 004
// validates the model's output before using it; DESIGN section 4).
//
// The strategy calls the rest of the pipeline once and checks a `success` outcome
// against each check of `require`, in order; the first that fails turns the outcome into
// `invalid_output`, or `truncated` when the answer was cut at max_output_tokens (the
// response is kept, so its billed usage still counts), which retry retries (both are
// transient) and fallback falls back on (both are in fallback's default `on`) as the
// policy says. Outcomes other than success pass through untouched.
//
// Checks (a closed set; each reads fields the providers fill):
//   json       a completion parses as the JSON object the agent asked for
//              (Response::malformed is false; an LLM mock's malformed_output_rate), and
//              was not cut at max_output_tokens (a cut object does not parse: the
//              outcome is then `truncated`). Search hits and tool results pass: they
//              are structured already.
//   complete   a completion ended on its own (finish_reason "stop"), not at
//              max_output_tokens ("length"): the outcome is `truncated` when it was cut.
//              Without this check (or json) a truncated answer is accepted, as most
//              applications accept it; the report counts it apart either way.
//   non_empty  the answer has content: at least one search hit, one output token or a
//              tool result body. classify() already calls such a 200 `empty`; this check
//              makes it invalid_output instead, for a step where emptiness is a fault of
//              the provider rather than a true "no records" (an LLM that returned
//              nothing), so retry and fallback treat it as one. It therefore also
//              applies to `empty` outcomes, the only non-success outcome it changes.
//   no_error   a 2xx body carries no error object (ErrorDetails::body_error): a masked
//              error, a 200 whose body says it failed ({"error": {...}}), which
//              classify() takes for a success as a client trusting the status would.
// When validation fails, the task's attempt history is corrected (the attempt counted as
// a success becomes a failure of kind invalid_output or truncated) so that rules over the history see
// it. A response that failed validation may have been processed: a non-idempotent
// provider is not re-sent after it (engine/retry_safety.hpp). Each rejection is a
// ValidationFailedEvent carrying what the rejected attempt billed, so the report counts
// it among what failed attempts burned (the AttemptEvent said success).
#pragma once

#include <array>

#include <cstdint>
#include <vector>

#include "engine/config_fields.hpp"
#include "engine/pipeline.hpp"
#include "engine/vocabulary.hpp"

namespace squall {

// X(name, doc)
#define SQUALL_VALIDATE_CHECKS(X)                                                            \
  X(json, "a completion parses as the JSON object asked for (not cut at max_output_tokens)") \
  X(non_empty, "the answer has content (a hit, a token, a tool result)")                     \
  X(no_error, "a 2xx body carries no error object (a masked error)")                         \
  X(complete, "a completion ended on its own, not at max_output_tokens (finish_reason length)")

enum class ValidateCheck : std::uint8_t { SQUALL_VALIDATE_CHECKS(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kValidateCheckCount = 0 SQUALL_VALIDATE_CHECKS(SQUALL_COUNT);
std::string_view to_string(ValidateCheck check);

struct ValidateConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "validate";

  // The checks, in order; at least one, each once. Default: ["json"].
  std::vector<ValidateCheck> require{ValidateCheck::json};
};

constexpr auto field_table(std::type_identity<ValidateConfig>) {
  using C = ValidateConfig;
  return table<C>(field("require", &C::require, FieldKind::choices)
                      .choices(kAllValues<ValidateCheck, kValidateCheckCount>)
                      .with_default(R"(["json"])")
                      .doc("the checks, in order")
                      .source("seed 004 validates the LLM's JSON"));
}

class ValidateStrategy final : public Gate {
 public:
  // Each rejection is a ValidationFailedEvent on env.events, naming `owner`.
  ValidateStrategy(ValidateConfig config, EngineEnv env, std::string owner);
  // A gate (engine/pipeline.hpp) that admits every call and judges its outcome after.
  // The ticket keeps the task's attempt count, to tell an answer an attempt inside this
  // call gave from one served without an attempt.
  bool admit(CallContext& ctx, const Request& /*request*/, Ticket& ticket, Outcome& /*outcome*/) override {
    ticket.first = ctx.task.history.attempts;
    return true;
  }
  void settle(CallContext& ctx, const Ticket& ticket, Outcome& outcome) override;

  // The first check of `require` that `outcome` fails, or nullopt when it passes (or is
  // neither success nor, for non_empty, empty). Exposed for tests.
  std::optional<ValidateCheck> failed_check(const Outcome& outcome) const;

 private:
  ValidateConfig config_;
  EngineEnv env_;
  std::string owner_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const ValidateConfig& config, const StrategyBuild& build);

}  // namespace squall

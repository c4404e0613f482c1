// reflect: on a tool error, ask an LLM what went wrong and retry the tool call with
// corrected arguments (seed 003's reflection on tool errors; Reflexion, Shinn et al.
// 2023, applied to a single tool call).
//
//   reflections = 0
//   loop:
//     outcome = next(request)                        # the tool call (with retries inside)
//     if outcome.kind not in `on`, or the tool is not covered (include/exclude),
//        or reflections == max_reflections,
//        or the tool's provider may not be re-sent after outcome (retry_safety.hpp):
//       return outcome
//     reflection = registry.run(provider, prompt_tokens + error_tokens, max_output_tokens)
//     emit ReflectionEvent
//     if reflection is not success: return outcome   # no corrected arguments to send
//     reflections += 1; request.argument_revision += 1
//
// The reflection call goes through the named LLM provider's own stack in the registry
// (its SDK retries, its breaker), from a copy of the call's context: it shares the task
// (its tokens and USD are charged to the task's spend like any attempt, and the attempt
// is an AttemptEvent of that provider) and the call's deadline, but not the tool's
// per-attempt timeout (a timeout strategy's per_attempt is the tool's, not the model's)
// nor the tool call's attempt count (the logical call's attempts and retry amplification
// stay the tool's).
//
// The reflection prompt is the template (`prompt_tokens`, the instructions with
// `{tool_name}` and `{error}` filled in) plus the error's tokens, estimated from the
// error message as ceil(length in bytes / 4): OpenAI's rule of thumb of about four
// characters per token of English text. An error without a message adds its error code's
// tokens the same way.
//
// Non-idempotent tools: a corrected call is a new send of the operation, so a tool whose
// provider is not idempotent is re-sent only after an outcome that proves it was not
// processed (a 400 proves it; a timeout or 5xx does not: may_resend).
//
// Outcome: the tool's final outcome. A call that succeeded only after a reflection is
// not degraded (the agent recovered as designed, with the arguments it meant to send);
// reflections are counted per tool in the report instead.
#pragma once

#include <array>

#include <string>
#include <vector>

#include "engine/config_fields.hpp"
#include "engine/pipeline.hpp"
#include "engine/strategies/outcome_mask.hpp"

namespace squall {

struct ReflectConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "reflect";

  // The LLM provider that reflects, by name. Required.
  std::string provider;
  // Tool outcomes that start a reflection. Default: bad_request (invalid tool arguments,
  // the error a reflection can fix; DESIGN section 4).
  std::vector<OutcomeKind> on{OutcomeKind::bad_request};
  // Tokens of the reflection prompt's template, before the error is added. Default 150
  // (an assumption: a few sentences of instructions plus the tool's name and schema).
  std::int64_t prompt_tokens = 150;
  // The reflection's cap on output tokens. Default 1000: corrected arguments are short, but
  // a reflection that reasons before answering is not, and a cap the answer runs into
  // cuts the corrected arguments short.
  std::int64_t max_output_tokens = 1000;
  // Reflections per logical call at most; >= 1. Default 2 (an assumption: seed 003
  // retries a tool call with corrected arguments a small fixed number of times).
  std::int32_t max_reflections = 2;
  // Only these tools reflect (empty: every tool whose pipeline holds the strategy).
  std::vector<std::string> include_tools;
  // These tools never reflect. At most one of include_tools and exclude_tools is set.
  std::vector<std::string> exclude_tools;
};

// Bounds: 1e9 tokens, the providers' bound; 100 reflections of one call, each an LLM call.
inline constexpr IntRange kReflectTokens{1, 1'000'000'000};
inline constexpr IntRange kMaxReflections{1, 100};

constexpr auto field_table(std::type_identity<ReflectConfig>) {
  using C = ReflectConfig;
  constexpr FieldRule<C> not_both = [](const C&, const Written& w) {
    if (!w.has("exclude_tools")) return Finding{};
    return Finding::object_error("expected at most one of include_tools and exclude_tools, got both");
  };
  constexpr FieldRule<C> not_after_include = [](const C&, const Written& w) {
    return w.has("include_tools") ? Finding::skip() : Finding{};
  };
  return table<C>(field("provider", &C::provider, FieldKind::text).needed().doc("the llm provider that reflects"),
                  field("on", &C::on, FieldKind::kinds)
                      .with_default(R"(["bad_request"])")
                      .doc("the tool outcomes that start a reflection")
                      .source("invalid tool arguments, the error a reflection can fix"),
                  integer("prompt_tokens", &C::prompt_tokens, kReflectTokens)
                      .with_default("150")
                      .unit("tokens")
                      .doc("the reflection prompt's template; the error adds ceil(bytes / 4)")
                      .source("an assumption: a few sentences plus the tool's schema"),
                  integer("max_output_tokens", &C::max_output_tokens, kReflectTokens)
                      .with_default("1000")
                      .unit("tokens")
                      .doc("the reflection's output cap")
                      .source("room for a reflection that reasons before answering"),
                  integer("max_reflections", &C::max_reflections, kMaxReflections)
                      .with_default("2")
                      .unit("reflections")
                      .doc("reflections per logical call at most")
                      .source("an assumption: seed 003 retries a few times"),
                  field("include_tools", &C::include_tools, FieldKind::names)
                      .only_if(not_both)
                      .doc("only these tools reflect; none: all"),
                  field("exclude_tools", &C::exclude_tools, FieldKind::names)
                      .only_if(not_after_include)
                      .doc("these tools never reflect"));
}

// The error's tokens in a reflection prompt: ceil(bytes / 4) of the error message, or of
// the error code when there is no message.
std::int64_t error_tokens(const Response& response);

class ReflectStrategy final : public Strategy {
 public:
  // `env.providers` must be set and hold config.provider (the loader checks it).
  ReflectStrategy(ReflectConfig config, EngineEnv env);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

  // Whether calls of `tool` reflect (include_tools / exclude_tools).
  bool covers(std::string_view tool) const;

 private:
  ReflectConfig config_;
  EngineEnv env_;
  ProviderId llm_;
  OutcomeMask on_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const ReflectConfig& config, const StrategyBuild& build);

}  // namespace squall

// timeout: a per-attempt timeout and a total deadline spanning every attempt.
//
// Polly v8 splits these into two strategies (an outer total timeout and an inner attempt
// timeout); squall keeps both in one entry because the engine propagates deadlines the way
// gRPC does. Entering the strategy tightens the call's context for everything below it:
//   ctx.deadline        = min(ctx.deadline, now + total)
//   ctx.attempt_timeout = min(ctx.attempt_timeout, per_attempt)
// The pipeline's attempt() bounds each provider call by min(ctx.deadline, attempt start +
// ctx.attempt_timeout) and refuses to start one at or after ctx.deadline (returning
// timeout without calling); the retry strategy reads the same deadline, so no attempt
// starts after it. A slow attempt therefore ends as timeout at exactly its start +
// per_attempt (the provider returns at the deadline it was given, CallOptions).
// Both fields are restored when the strategy returns: like a gRPC child context, a
// timeout only constrains the part of the pipeline it wraps. Place timeout outermost,
// before retry: placed inside retry, its total restarts on each attempt and only bounds
// that attempt.
#pragma once

#include <array>

#include "engine/config_fields.hpp"
#include "engine/pipeline.hpp"

namespace squall {

struct TimeoutConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "timeout";

  // Each attempt's timeout. Default 30 s, Polly v8's TimeoutStrategyOptions.Timeout.
  Nanos per_attempt = 30 * kSecond;
  // The whole call's deadline across attempts and backoff, measured from entering the
  // strategy; kNever (the default) leaves only the task's deadline.
  Nanos total = kNever;
};

constexpr auto field_table(std::type_identity<TimeoutConfig>) {
  using C = TimeoutConfig;
  return table<C>(duration("per_attempt", &C::per_attempt, DurationMin::positive)
                      .with_default(R"("30s")")
                      .doc("each attempt's timeout")
                      .source("Polly v8 TimeoutStrategyOptions.Timeout"),
                  duration("total", &C::total, DurationMin::positive)
                      .doc("deadline across all attempts and backoffs; none: only the task's deadline")
                      .source("gRPC's deadline propagation"));
}

class TimeoutStrategy final : public Gate {
 public:
  // Both durations must be positive (the scenario loader validates them).
  TimeoutStrategy(TimeoutConfig config, Clock& clock);
  // A gate (engine/pipeline.hpp): tightens the call's deadline and attempt timeout, and
  // restores the outer ones after; the ticket holds them (first, second).
  bool admit(CallContext& ctx, const Request& request, Ticket& ticket, Outcome& outcome) override;
  void settle(CallContext& ctx, const Ticket& ticket, Outcome& outcome) override;

 private:
  TimeoutConfig config_;
  Clock& clock_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const TimeoutConfig& config, const StrategyBuild& build);

}  // namespace squall

// timeout: a per-attempt timeout and a total deadline spanning every attempt.
//
// Polly v8 splits these into two strategies (an outer total timeout and an inner attempt
// timeout); squall keeps both in one entry because the engine propagates deadlines the way
// gRPC does: entering the strategy tightens the call's deadline to now + total, and every
// attempt below is bounded by min(deadline, attempt start + per_attempt). The retry
// strategy reads the same deadline, so no attempt starts after it. Place timeout
// outermost, before retry: placed inside retry, its total would restart on each attempt.
#pragma once

#include "engine/pipeline.hpp"

namespace squall {

struct TimeoutConfig {
  // Each attempt's timeout. Default 30 s, Polly v8's TimeoutStrategyOptions.Timeout.
  Nanos per_attempt = 30 * kSecond;
  // The whole call's deadline across attempts and backoff; kNever (the default) leaves
  // only the task's deadline.
  Nanos total = kNever;
};

class TimeoutStrategy final : public Strategy {
 public:
  TimeoutStrategy(TimeoutConfig config, Clock& clock) : config_(config), clock_(clock) {}
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

 private:
  TimeoutConfig config_;
  Clock& clock_;
};

}  // namespace squall

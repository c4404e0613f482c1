// The as-deployed policy: what the trace's own retries, waits and fallbacks say the client
// did, per tool, as squall strategies (engine/strategies/): a timeout, a fallback, a retry,
// outermost first. docs/replay.md ("The as-deployed policy") gives the rules and their limits.
//
// Within a logical call, attempts to the same provider in a row are retries; a change of
// provider is a fallback after the previous attempt's outcome.
//   - retry.max_attempts: the longest run of attempts to one provider in one call;
//     retry_on: the outcome kinds that were followed by another attempt to the same provider;
//   - Retry-After: a wait of at least the recorded Retry-After (1 ms of slack) honoured it;
//     honour_retry_after is the majority's verdict, max_retry_after the longest honoured;
//   - backoff: the other waits (next start minus previous end), by retry number n. Waits of
//     one n all within 5% (or 1 ms) of each other are unjittered (d_n their median), else
//     full jitter, uniform in [0, d_n] (d_n twice their median). d_2 / d_1 in [1.5, 3] is exponential (base d_1,
//     multiplier 2), else constant (base d_1); max_delay is the largest d_n;
//   - fallback: the providers called after the primary, in order of first use; `on` the
//     outcomes after which the call moved on;
//   - timeout.per_attempt: the length, to the millisecond, at least half (and two) of the
//     attempts that ended in `timeout` share: a client's latency ceiling cuts its attempts
//     at one length; timeouts of scattered lengths were cut by deadlines, and give none.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/runtime/time.hpp"
#include "engine/strategies/retry.hpp"
#include "engine/vocabulary.hpp"
#include "replay/attempt_record.hpp"
#include "replay/grouping.hpp"

namespace squall::replay {

struct RetryFit {
  std::int32_t max_attempts = 1;
  std::uint64_t calls = 0;  // calls of the tool
  std::vector<OutcomeKind> retry_on;
  std::uint64_t retries = 0;  // attempts after a first, to the same provider
  Backoff backoff = Backoff::constant;
  Jitter jitter = Jitter::none;
  double jitter_low = 0;  // proportional: the factor range's low end (the high end is 1)
  Nanos base_delay = 0;
  Nanos max_delay = 0;
  std::uint64_t backoff_samples = 0;  // waits the backoff was fitted on
  std::int32_t backoff_retries = 0;   // retry numbers n with waits
  // Retry-After: nullopt when no retried failure recorded one (the engine's default kept).
  std::optional<bool> honour_retry_after;
  Nanos max_retry_after = 0;
  std::uint64_t retry_after_samples = 0;  // retries after a recorded Retry-After
  std::uint64_t retry_after_honoured = 0;
};

struct FallbackFit {
  std::vector<std::string> providers;  // in order of first use
  std::vector<OutcomeKind> on;
  std::uint64_t moves = 0;  // provider changes within calls
};

struct TimeoutFit {
  Nanos per_attempt = 0;
  std::uint64_t samples = 0;  // timeout attempts
};

struct ToolPolicyFit {
  std::string tool;
  std::string primary;  // the provider first called most often
  RetryFit retry;
  std::optional<FallbackFit> fallback;
  std::optional<TimeoutFit> timeout;
};

// One entry per tool (replay/workload_fit.hpp tool_of), sorted by tool.
std::vector<ToolPolicyFit> fit_policy(const TraceData& data, const Grouping& grouping);

}  // namespace squall::replay

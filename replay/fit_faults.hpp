// Fault windows per provider from the recorded attempts: where each provider's failure
// rate changed, and within each window a fault rule per kind (mocks/chaos/fault.hpp).
//
// Method: a provider's attempts in start order form a categorical series (each fitted
// outcome kind a category; success and kinds without a rule one more), cut by PELT with the
// multinomial cost and a BIC penalty (replay/change_points.hpp; Killick, Fearnhead and
// Eckley 2012): a change in any kind's share is a change, so a 429 storm starting while
// the total failure rate stays level (empty results giving way to 429s) is still seen. PELT rather than
// Bayesian Blocks on failure events: the rate of failure events is load times failure
// probability, so a surge of traffic at a steady 1% error rate would show as a block of
// failures; the outcome series is indexed by attempt and sees only the probability, which
// is what a fault rule states.
//
// Each segment with failures is a window [from, to): from the midpoint between the start
// of its first attempt and that of the attempt before (0, the origin, for a provider's
// first segment), to the same midpoint at its end (`end_ns` for the last). In it, one rule
// per kind: probability = failures of that kind / attempts in the window, with its count
// and standard error sqrt(p (1 - p) / n); rate_limited and overloaded carry the median
// (lower middle) Retry-After of the failures that recorded one. Outcome kinds map to fault
// kinds as the chaos decorator produces them: timeout, rate_limited, overloaded,
// server_error, empty as themselves; auth_error and bad_request as client_error (status 401,
// and the default 400). Statuses are otherwise the decorator's defaults (overloaded 529).
// Other failures (context_length, content_filter, invalid_output, truncated, local kinds) have no
// fault rule: counted in `unmodelled`, not fitted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/outcome.hpp"
#include "mocks/chaos/fault.hpp"
#include "replay/attempt_record.hpp"

namespace squall::replay {

struct FitFaultsOptions {
  std::int64_t origin_ns = 0;    // trace time of the scenario's time 0
  std::int64_t end_ns = 0;       // trace time of the scenario's end (the last window's `to`)
  std::size_t min_attempts = 5;  // shortest window, in attempts (PELT's minimum segment)
};

struct FittedFaultRule {
  FaultConfig fault;                      // kind, probability, from, to (scenario time), retry_after
  std::uint64_t failures = 0;             // of this kind in the window
  double standard_error = 0;              // sqrt(p (1 - p) / attempts)
  std::uint64_t retry_after_samples = 0;  // failures that recorded a Retry-After
};

struct FaultWindowFit {
  std::string provider;
  std::int64_t from_ns = 0;  // scenario time, inclusive
  std::int64_t to_ns = 0;    // scenario time, exclusive
  std::uint64_t attempts = 0;
  std::uint64_t unmodelled = 0;        // failures of a kind without a fault rule
  std::vector<FittedFaultRule> rules;  // in OutcomeKind order
};

struct FaultFit {
  std::vector<FaultWindowFit> windows;  // by provider name, then time; only windows with rules
  std::vector<std::string> providers;   // every provider seen, sorted
};

// The fault kind an outcome is fitted as, or nullopt (success and kinds without a rule).
std::optional<FaultKind> fault_kind_of(OutcomeKind outcome);

FaultFit fit_faults(const std::vector<AttemptRecord>& attempts, const FitFaultsOptions& options);

}  // namespace squall::replay

// The closed outcome taxonomy (DESIGN section 4) and each kind's retry class.
//
// Every provider attempt and every logical call ends in exactly one OutcomeKind. The
// names are the report's vocabulary and the scenario files' (`retry_on`), so they are
// stable strings: to_string() and parse_outcome_kind() are exact inverses.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace squall {

enum class OutcomeKind : std::uint8_t {
  success,           // 2xx with a usable body
  empty,             // 2xx with no results (search) or no content
  timeout,           // no answer before the attempt's deadline
  rate_limited,      // 429, possibly with Retry-After
  overloaded,        // 529 (Anthropic) or 503 (service unavailable)
  server_error,      // any other 5xx
  auth_error,        // 401, 403
  bad_request,       // 400, invalid tool arguments
  context_length,    // the prompt does not fit the model's context window
  content_filter,    // refused by a safety filter
  invalid_output,    // failed validation: malformed or truncated output
  circuit_open,      // rejected by an open circuit breaker without calling
  budget_exhausted,  // rejected because the task's token or USD budget is spent
  cancelled,         // abandoned by the caller (Transport::cancelled): a race's loser, a
                     // cancelled task (a passed deadline is a timeout, never cancelled)
};

inline constexpr std::size_t kOutcomeKindCount = 14;

// How the retry strategy treats a kind by default (its `retry_on` default is every kind
// whose class is `transient`; rate_limited additionally honours Retry-After).
enum class RetryClass : std::uint8_t {
  done,       // nothing to retry: success
  degrade,    // retrying the same request returns the same answer; change it (empty)
  transient,  // may succeed on a later attempt: timeout, 429, 5xx, invalid_output
  permanent,  // will fail again as sent: auth, bad request, context length, filter
  local,      // produced by the engine itself without a call: breaker, budget, cancel
};

std::string_view to_string(OutcomeKind kind);
std::optional<OutcomeKind> parse_outcome_kind(std::string_view name);
RetryClass retry_class(OutcomeKind kind);

// All kinds in declaration order, for reports that list every kind.
const std::array<OutcomeKind, kOutcomeKindCount>& all_outcome_kinds();

constexpr std::size_t index_of(OutcomeKind kind) { return static_cast<std::size_t>(kind); }

}  // namespace squall

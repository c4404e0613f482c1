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

#include "engine/vocabulary.hpp"

namespace squall {

// X(name, retry class, meaning). The retry class is how the retry strategy treats the
// kind by default (RetryClass below).
#define SQUALL_OUTCOME_KINDS(X)                                                             \
  X(success, done, "2xx with a usable body")                                                \
  X(empty, degrade, "2xx with no results (search) or no content")                           \
  X(timeout, transient, "no answer before the attempt's deadline")                          \
  X(rate_limited, transient, "429, possibly with Retry-After")                              \
  X(quota_exhausted, permanent,                                                             \
    "the account's quota or credit is spent (OpenAI's 429 insufficient_quota, Anthropic's " \
    "credit balance): not a rate limit, and waiting seconds does not end it")               \
  X(overloaded, transient, "529 (Anthropic) or 503 (service unavailable)")                  \
  X(server_error, transient, "any other 5xx")                                               \
  X(auth_error, permanent, "401, 403")                                                      \
  X(bad_request, permanent, "400, invalid tool arguments")                                  \
  X(context_length, permanent, "the prompt does not fit the model's context window")        \
  X(content_filter, permanent, "refused by a safety filter")                                \
  X(invalid_output, transient, "failed validation: malformed output, an error in the body") \
  X(truncated, transient,                                                                   \
    "the completion stopped at max_output_tokens (finish_reason length) and a validate "    \
    "check rejected it; accepted, a truncated answer is a success")                         \
  X(circuit_open, local, "rejected by an open circuit breaker without calling")             \
  X(budget_exhausted, local, "rejected because the task's token or USD budget is spent")    \
  X(cancelled, local,                                                                       \
    "abandoned by the caller (hedging, task cancellation); a passed deadline "              \
    "is a timeout, never cancelled")                                                        \
  X(throttled, local, "rejected locally by adaptive client throttling without calling")     \
  X(bulkhead_full, local,                                                                   \
    "rejected by a full bulkhead (its queue full or its wait over) without "                \
    "calling")                                                                              \
  X(rate_limiter_rejected, local,                                                           \
    "rejected by a client-side rate limiter that had no permit "                            \
    "within its timeout, without calling")

enum class OutcomeKind : std::uint8_t { SQUALL_OUTCOME_KINDS(SQUALL_ENUMERATOR) };

inline constexpr std::size_t kOutcomeKindCount = 0 SQUALL_OUTCOME_KINDS(SQUALL_COUNT);

// How the retry strategy treats a kind by default (its `retry_on` default is every kind
// whose class is `transient`; rate_limited additionally honours Retry-After).
enum class RetryClass : std::uint8_t {
  done,       // nothing to retry: success
  degrade,    // retrying the same request returns the same answer; change it (empty)
  transient,  // may succeed on a later attempt: timeout, 429, 5xx, invalid_output,
              // truncated (the next answer's length is a new draw)
  permanent,  // will fail again as sent: auth, bad request, context length, filter,
              // quota exhausted (until someone pays: hours or days, pi#4666's 277,403 s)
  local,      // produced by the engine itself without a call: breaker, budget, cancel,
              // bulkhead, rate limiter
};

std::string_view to_string(OutcomeKind kind);
std::optional<OutcomeKind> parse_outcome_kind(std::string_view name);
RetryClass retry_class(OutcomeKind kind);

// All kinds in declaration order, for reports that list every kind.
const std::array<OutcomeKind, kOutcomeKindCount>& all_outcome_kinds();

constexpr std::size_t index_of(OutcomeKind kind) { return static_cast<std::size_t>(kind); }

}  // namespace squall

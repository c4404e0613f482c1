// The outcome kind (engine/outcome.hpp) of a recorded attempt, from what a trace says about
// it. In order, the first that decides:
//   1. error.type naming a kind of squall's taxonomy ("rate_limited"): that kind (squall's
//      own OTLP export writes them);
//   2. an HTTP status: 429 rate_limited, 503 and 529 overloaded, other 5xx server_error,
//      401 and 403 auth_error, 408 timeout, other 4xx bad_request (as engine/classify.cpp);
//   3. error.type naming a client exception or an HTTP status ("RateLimitError", "429",
//      "TimeoutError", "ContextWindowExceededError": the OpenAI SDKs' and LiteLLM's classes);
//   4. finish reasons: "error" a cut stream (server_error), "length" a truncation
//      (truncated), "content_filter" content_filter;
//   5. any other error (error.type or span status ERROR): server_error, marked unclassified;
//   6. otherwise success, or empty for a chat answer with 0 output tokens (as classify()).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/outcome.hpp"

namespace squall::replay {

struct OutcomeEvidence {
  std::string_view error_type;  // error.type; empty when absent
  int status_code = 0;          // HTTP status; 0 when absent
  std::vector<std::string> finish_reasons;
  bool span_error = false;  // OTLP span status ERROR, LiteLLM status "failure"
  bool chat = false;        // an LLM answer, where 0 output tokens means empty
  std::optional<std::int64_t> output_tokens;
};

struct MappedOutcome {
  OutcomeKind kind = OutcomeKind::success;
  bool unclassified = false;  // rule 5 decided
};

MappedOutcome map_outcome(const OutcomeEvidence& evidence);

// Rule 2 alone: the kind of a non-2xx HTTP status, or nullopt for 1xx-3xx.
std::optional<OutcomeKind> kind_of_status(int status_code);

}  // namespace squall::replay

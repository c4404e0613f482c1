// classify(): the engine's reading of a provider's Response as an OutcomeKind.
//
// Status codes follow RFC 9110 and the LLM vendors' documented error codes:
//   no response before the deadline -> timeout; 408 -> timeout
//   the caller cancelled before a response (Transport::cancelled) -> cancelled
//   429 -> rate_limited; quota_exhausted when its error code is OpenAI's "insufficient_quota"
//   503 (RFC 9110 section 15.6.4), 529 (Anthropic's "overloaded_error") -> overloaded
//   any other 5xx -> server_error
//   401, 403 -> auth_error
//   400, 413, 422 -> by the body's error code (below), else bad_request
//   any other non-2xx status (404, 3xx, ...) -> bad_request
// Body error codes: "context_length_exceeded" (OpenAI's) -> context_length,
// "content_filter" and "content_policy_violation" -> content_filter, "rate_limit_exceeded" -> rate_limited,
// "overloaded_error" -> overloaded, "invalid_output" -> invalid_output, "insufficient_quota"
// -> quota_exhausted.
// A 400/413/422 whose code says nothing known is classified by the error message: the
// common providers' wordings of a too-long prompt make it context_length (classify.cpp
// lists them: OpenAI, Anthropic, Gemini, Bedrock, Mistral), a safety filter's make it
// content_filter, Anthropic's spent credit ("Your credit balance is too low", a 400
// invalid_request_error) quota_exhausted; any other is bad_request. Neither context_length
// nor bad_request nor auth_error nor quota_exhausted is in any default retry_on: sent again
// as it is, the request fails again.
// A 2xx is classified by its body (DESIGN section 4): a known error code makes it that
// kind and an unknown one server_error; no search hits, a completion without output
// tokens, or a tool result without a body, is empty; anything else success. A truncated
// completion (Response::truncated, finish_reason "length") is a success: most
// applications use the answer they got; the validate strategy's "complete" check (and
// its "json" check, since a cut JSON object does not parse) makes it `truncated`. A
// malformed completion (Response::malformed) is a 200 with text, which classify() cannot
// tell from a good one: the "json" check makes it invalid_output, as an agent's output
// parser would.
#pragma once

#include "engine/call.hpp"

namespace squall {

OutcomeKind classify(const Response& response);

}  // namespace squall

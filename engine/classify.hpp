// classify(): the engine's reading of a provider's Response as an OutcomeKind.
//
// Status codes follow RFC 9110 and the LLM vendors' documented error codes: 429 is
// rate_limited; 503 (RFC 9110 section 15.6.4) and 529 (Anthropic's "overloaded_error")
// are overloaded; any other 5xx is server_error; 401/403 auth_error; 400 is bad_request
// unless the body's code says the prompt was too long ("context_length_exceeded", as
// OpenAI reports it) or was filtered ("content_filter"). A 2xx is classified by its body:
// a body error code makes it the matching kind (DESIGN section 4: a 200 whose body
// carries an error is classified by the body); a truncated completion is invalid_output;
// no search hits, or a completion without output tokens, is empty.
#pragma once

#include "engine/call.hpp"

namespace squall {

OutcomeKind classify(const Response& response);

}  // namespace squall

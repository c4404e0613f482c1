// parse_retry_after(): the delay a server asks for in its Retry-After header.
//
// Accepted forms (after trimming optional whitespace, RFC 9110 section 5.6.3):
//   delay-seconds  1*DIGIT, RFC 9110 section 10.2.3, e.g. "20", "0", "007"
//   fractional     1*DIGIT "." 1*DIGIT, e.g. "0.5": not in the RFC, but some LLM APIs send
//                  it; digits past the ninth decimal (below a nanosecond) are truncated
// Rejected, returning std::nullopt: an empty or all-blank value, a sign ("-1", "+5"),
// units or exponents ("5s", "1e3"), a bare or trailing dot (".5", "5."), and anything else
// that is not one of the forms above.
// Saturated: a well-formed value whose nanoseconds overflow int64 (above kNever, about
// 9.2e9 s or 292 years, e.g. "99999999999") returns kNever, as RFC 9111 section 1.2.2
// prescribes for delta-seconds too large to represent (use the greatest representable
// value). A server asking for centuries means "not soon", not "malformed": kNever is above any max_retry_after a scenario can
// set (durations stay below kNever), so the retry strategy gives up with
// "retry_after_exceeds_cap" instead of falling back to its backoff.
// HTTP-date ("Wed, 21 Oct 2015 07:28:00 GMT", RFC 9110 section 5.6.7) is not supported yet:
// it parses as malformed, so the retry strategy falls back to its backoff.
// "0" is a valid answer (retry at once): callers must not confuse it with "absent".
#pragma once

#include <optional>
#include <string_view>

#include "engine/runtime/time.hpp"

namespace squall {

std::optional<Nanos> parse_retry_after(std::string_view value);

}  // namespace squall

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
// value). A server asking for centuries means "not soon", not "malformed": kNever is above any max_retry_after a
// scenario can set (durations stay below kNever), so the retry strategy gives up with "retry_after_exceeds_cap" instead
// of falling back to its backoff. HTTP-date ("Wed, 21 Oct 2015 07:28:00 GMT", RFC 9110 section 5.6.7) is not a delay:
// parse_retry_after() rejects it; server_retry_delay() below reads it against a wall clock.
// "0" is a valid answer (retry at once): callers must not confuse it with "absent".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/call.hpp"
#include "engine/runtime/time.hpp"

namespace squall {

std::optional<Nanos> parse_retry_after(std::string_view value);

// An HTTP-date in the preferred form, IMF-fixdate (RFC 9110 section 5.6.7):
// "Sun, 06 Nov 1994 08:49:37 GMT", exactly so (the day name must match the date, two-digit
// day, English three-letter month, four-digit year, "GMT"), as seconds since the Unix
// epoch; nullopt otherwise, including dates before 1970 and an impossible date
// ("30 Feb"). The obsolete RFC 850 and asctime forms are not accepted (a recipient
// should, RFC 9110 says; no provider squall models sends them): they count as malformed.
std::optional<std::int64_t> parse_http_date(std::string_view value);
// The inverse: `unix_seconds` (>= 0) as an IMF-fixdate.
std::string format_http_date(std::int64_t unix_seconds);

// The `retry-after-ms` header (OpenAI's and Azure OpenAI's APIs, honoured by their Python
// SDKs before Retry-After): milliseconds, digits with an optional fraction, as
// parse_retry_after reads seconds; nullopt when malformed, kNever when too large.
std::optional<Nanos> parse_retry_after_ms(std::string_view value);

// google.rpc.RetryInfo's retry_delay as the JSON form of a protobuf Duration: seconds
// with up to nine decimals and the suffix "s" ("2s", "0.5s", "1.000000001s"); nullopt
// for anything else (a sign, no "s", more than nine decimals, blanks), kNever when too
// large.
std::optional<Nanos> parse_retry_delay(std::string_view value);

// The delay `response` asks for, from whichever of its forms is present and well formed,
// in this order of precedence (the OpenAI Python SDK's: retry-after-ms first):
//   1. retry-after-ms;
//   2. Retry-After as delay-seconds, or as an HTTP-date read against `wall_now_unix_ns`
//      (the wall-clock time now, nanoseconds since the Unix epoch): the delay until that
//      date, 0 when it is past (RFC 9110 section 10.2.3);
//   3. the body's RetryInfo retry_delay.
// A malformed value is skipped as if absent, so a malformed retry-after-ms does not hide
// a good Retry-After. nullopt when none is usable.
std::optional<Nanos> server_retry_delay(const Response& response, std::int64_t wall_now_unix_ns);

}  // namespace squall

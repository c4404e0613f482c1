// The Retry-After family (engine/retry_after.hpp): delay-seconds, retry-after-ms,
// RetryInfo's retry_delay and IMF-fixdate HTTP-dates. Properties: an accepted delay is
// never negative; an accepted HTTP-date is exactly the IMF-fixdate format_http_date
// writes for it (the form is fixed, so the text must read back byte for byte), but for a
// leap second.
#include <optional>
#include <string>

#include "engine/retry_after.hpp"
#include "fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using squall::fuzz::require;
  const std::string_view value = squall::fuzz::text_of(data, size);
  for (const auto& delay :
       {squall::parse_retry_after(value), squall::parse_retry_after_ms(value), squall::parse_retry_delay(value)}) {
    require(!delay || *delay >= 0, "a Retry-After delay is not negative");
  }
  if (const auto seconds = squall::parse_http_date(value)) {
    require(*seconds >= 0, "an HTTP-date is not before 1970");
    // The one text that does not read back: a leap second (":60", which RFC 9110 allows),
    // the next second in Unix time, which format_http_date writes as such.
    const bool leap_second = value.substr(23, 2) == "60";
    require(leap_second || squall::format_http_date(*seconds) == value, "format_http_date writes the date read");
    require(squall::parse_http_date(squall::format_http_date(*seconds)) == seconds, "a written date reads back");
  }
  return 0;
}

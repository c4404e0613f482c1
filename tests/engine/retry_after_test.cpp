#include "engine/retry_after.hpp"

#include <gtest/gtest.h>

namespace squall {
namespace {

TEST(RetryAfterTest, AcceptsDelaySeconds) {
  EXPECT_EQ(parse_retry_after("20"), seconds(20));
  EXPECT_EQ(parse_retry_after("0"), Nanos{0});  // "retry now" is a value, not an absence
  EXPECT_EQ(parse_retry_after("007"), seconds(7));
  EXPECT_EQ(parse_retry_after("120"), seconds(120));
}

TEST(RetryAfterTest, TrimsOptionalWhitespace) {
  EXPECT_EQ(parse_retry_after(" 5 "), seconds(5));
  EXPECT_EQ(parse_retry_after("\t3\t"), seconds(3));
}

TEST(RetryAfterTest, AcceptsFractionalSeconds) {
  EXPECT_EQ(parse_retry_after("0.5"), 500 * kMillisecond);
  EXPECT_EQ(parse_retry_after("1.25"), 1250 * kMillisecond);
  EXPECT_EQ(parse_retry_after("2.000000001"), seconds(2) + 1);
  // Below a nanosecond is truncated: 1.9 ns -> 1 ns, 0.1 ns -> 0.
  EXPECT_EQ(parse_retry_after("0.0000000019"), Nanos{1});
  EXPECT_EQ(parse_retry_after("0.0000000001"), Nanos{0});
}

TEST(RetryAfterTest, AcceptsUpToTheLargestRepresentableValue) {
  // kNever = 9223372036854775807 ns = 9223372036.854775807 s.
  EXPECT_EQ(parse_retry_after("9223372036"), Nanos{9223372036} * kSecond);
  EXPECT_EQ(parse_retry_after("9223372036.854775807"), kNever);
}

TEST(RetryAfterTest, SaturatesOverflowToNever) {
  // One nanosecond past kNever, one second past it, and a value that does not even fit an
  // int64 of seconds: all well-formed, all "not soon" (RFC 9111 section 1.2.2).
  EXPECT_EQ(parse_retry_after("9223372036.854775808"), kNever);
  EXPECT_EQ(parse_retry_after("9223372037"), kNever);
  EXPECT_EQ(parse_retry_after("99999999999999999999999"), kNever);
  EXPECT_EQ(parse_retry_after(" 99999999999999999999999.5 "), kNever);
}

TEST(RetryAfterTest, OverflowDoesNotExcuseMalformedText) {
  // Saturation applies to well-formed values only: a sign or a unit is still malformed.
  EXPECT_EQ(parse_retry_after("-99999999999999999999999"), std::nullopt);
  EXPECT_EQ(parse_retry_after("99999999999999999999999s"), std::nullopt);
  EXPECT_EQ(parse_retry_after("99999999999999999999999."), std::nullopt);
}

TEST(RetryAfterTest, RejectsEmptyAndBlank) {
  EXPECT_EQ(parse_retry_after(""), std::nullopt);
  EXPECT_EQ(parse_retry_after("   "), std::nullopt);
  EXPECT_EQ(parse_retry_after("\t"), std::nullopt);
}

TEST(RetryAfterTest, RejectsSigns) {
  EXPECT_EQ(parse_retry_after("-1"), std::nullopt);
  EXPECT_EQ(parse_retry_after("-0"), std::nullopt);
  EXPECT_EQ(parse_retry_after("+5"), std::nullopt);
  EXPECT_EQ(parse_retry_after("-0.5"), std::nullopt);
}

TEST(RetryAfterTest, RejectsGarbage) {
  for (const char* value : {"soon", "5s", "1e3", "0x10", "inf", "nan", "1 2", "1,5", "1.2.3", ".5", "5.", ".",
                            "\xd9\xa3" /* ARABIC-INDIC DIGIT THREE */, "5\n"}) {
    EXPECT_EQ(parse_retry_after(value), std::nullopt) << value;
  }
}

TEST(RetryAfterTest, HttpDateIsNotADelay) {
  // RFC 9110's other form is no delay-seconds: server_retry_delay() reads it against a clock.
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), std::nullopt);
}

TEST(RetryAfterTest, ParsesAndFormatsImfFixdate) {
  // Unix times from Python's calendar.timegm; RFC 9110 section 5.6.7's own example first.
  EXPECT_EQ(parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT"), 784'111'777);
  EXPECT_EQ(parse_http_date("Wed, 21 Oct 2015 07:28:00 GMT"), 1'445'412'480);
  EXPECT_EQ(parse_http_date("Thu, 01 Jan 1970 00:00:00 GMT"), 0);
  EXPECT_EQ(parse_http_date("Thu, 29 Feb 2024 23:59:59 GMT"), 1'709'251'199);
  EXPECT_EQ(format_http_date(784'111'777), "Sun, 06 Nov 1994 08:49:37 GMT");
  EXPECT_EQ(format_http_date(1'638'891'000), "Tue, 07 Dec 2021 15:30:00 GMT");
  EXPECT_EQ(format_http_date(0), "Thu, 01 Jan 1970 00:00:00 GMT");
}

TEST(RetryAfterTest, ReadsALeapSecondAsTheNextSecond) {
  // RFC 9110 allows second 60; Unix time has no leap seconds, so it is the next second, and
  // written back as such (found by fuzz/retry_after.cpp, whose round trip excepts it).
  EXPECT_EQ(parse_http_date("Thu, 29 Feb 2024 23:59:60 GMT"), 1'709'251'200);
  EXPECT_EQ(format_http_date(1'709'251'200), "Fri, 01 Mar 2024 00:00:00 GMT");
  EXPECT_EQ(parse_http_date("Thu, 29 Feb 2024 23:59:61 GMT"), std::nullopt);
}

TEST(RetryAfterTest, RejectsMalformedHttpDates) {
  for (const char* value : {"Mon, 06 Nov 1994 08:49:37 GMT",   // 6 Nov 1994 was a Sunday
                            "Sun, 6 Nov 1994 08:49:37 GMT",    // one-digit day
                            "Sun, 06 nov 1994 08:49:37 GMT",   // month names are case-sensitive
                            "Sun, 06 Nov 1994 08:49:37 UTC",   // GMT only
                            "Sun, 06 Nov 1994 24:00:00 GMT",   // no hour 24
                            "Fri, 30 Feb 2024 08:00:00 GMT",   // no 30 February
                            "Wed, 31 Dec 1969 23:59:59 GMT",   // before the epoch
                            "Sunday, 06-Nov-94 08:49:37 GMT",  // RFC 850, obsolete
                            "Sun Nov  6 08:49:37 1994",        // asctime, obsolete
                            "Sun, 06 Nov 1994 08:49:37 GMT ", ""}) {
    EXPECT_EQ(parse_http_date(value), std::nullopt) << value;
  }
}

TEST(RetryAfterTest, ParsesRetryAfterMs) {
  EXPECT_EQ(parse_retry_after_ms("250"), 250 * kMillisecond);
  EXPECT_EQ(parse_retry_after_ms(" 0 "), Nanos{0});
  EXPECT_EQ(parse_retry_after_ms("1.5"), 1'500'000);
  EXPECT_EQ(parse_retry_after_ms("99999999999999"), kNever);
  for (const char* value : {"", "-1", "250ms", "1e3", "soon"})
    EXPECT_EQ(parse_retry_after_ms(value), std::nullopt) << value;
}

TEST(RetryAfterTest, ParsesRetryInfoDelay) {
  EXPECT_EQ(parse_retry_delay("2s"), seconds(2));
  EXPECT_EQ(parse_retry_delay("0.5s"), 500 * kMillisecond);
  EXPECT_EQ(parse_retry_delay("1.000000001s"), seconds(1) + 1);
  EXPECT_EQ(parse_retry_delay("0s"), Nanos{0});
  for (const char* value : {"", "s", "2", "-2s", "2 s", "1.0000000001s", "2ms", " 2s", "2S"}) {
    EXPECT_EQ(parse_retry_delay(value), std::nullopt) << value;
  }
}

TEST(RetryAfterTest, ServerDelayPrecedence) {
  const std::int64_t start = 1'445'412'470;  // 2015-10-21 07:27:50 UTC
  const Nanos now = start * kSecond;
  Response r;
  EXPECT_EQ(server_retry_delay(r, now), std::nullopt);
  ErrorDetails details;  // r carries these from here on; the test edits them in place
  r.error_details = &details;
  details.retry_delay = "3s";
  EXPECT_EQ(server_retry_delay(r, now), seconds(3));
  details.retry_after = "Wed, 21 Oct 2015 07:28:00 GMT";
  EXPECT_EQ(server_retry_delay(r, now), seconds(10));
  EXPECT_EQ(server_retry_delay(r, now + seconds(60)), Nanos{0});  // a date past: at once
  details.retry_after = "7";
  EXPECT_EQ(server_retry_delay(r, now), seconds(7));
  details.retry_after_ms = "1500";
  EXPECT_EQ(server_retry_delay(r, now), 1500 * kMillisecond);
  // Malformed forms are skipped: the next one in order is used.
  details.retry_after_ms = "x";
  EXPECT_EQ(server_retry_delay(r, now), seconds(7));
  details.retry_after = "Thu, 21 Oct 2015 07:28:00 GMT";
  EXPECT_EQ(server_retry_delay(r, now), seconds(3));
  details.retry_delay = "3";
  EXPECT_EQ(server_retry_delay(r, now), std::nullopt);
}

}  // namespace
}  // namespace squall

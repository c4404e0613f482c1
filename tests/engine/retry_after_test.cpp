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

TEST(RetryAfterTest, HttpDateIsNotSupportedYet) {
  // RFC 9110's other form parses as malformed, so retry falls back to its backoff.
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), std::nullopt);
}

}  // namespace
}  // namespace squall

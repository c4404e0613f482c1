#include <gtest/gtest.h>

#include "sim/scenario/duration.hpp"

namespace squall {
namespace {

Nanos parsed(std::string_view text) {
  const auto result = parse_duration(text);
  EXPECT_TRUE(std::holds_alternative<Nanos>(result)) << text;
  return std::holds_alternative<Nanos>(result) ? std::get<Nanos>(result) : -1;
}

DurationError failure(std::string_view text) {
  const auto result = parse_duration(text);
  EXPECT_TRUE(std::holds_alternative<DurationError>(result)) << text;
  return std::holds_alternative<DurationError>(result) ? std::get<DurationError>(result) : DurationError::malformed;
}

TEST(ScenarioDurationTest, ParsesEveryUnit) {
  EXPECT_EQ(parsed("7ns"), 7);
  EXPECT_EQ(parsed("7us"), 7 * kMicrosecond);
  EXPECT_EQ(parsed("250ms"), 250 * kMillisecond);
  EXPECT_EQ(parsed("2s"), 2 * kSecond);
  EXPECT_EQ(parsed("15m"), 15 * kMinute);
  EXPECT_EQ(parsed("6h"), 6 * kHour);
  EXPECT_EQ(parsed("0s"), 0);
}

TEST(ScenarioDurationTest, ConvertsDecimalsExactlyFromTheirDigits) {
  // 0.1 has no exact double; parsed from its digits it is exactly 10^8 ns.
  EXPECT_EQ(parsed("0.1s"), 100'000'000);
  EXPECT_EQ(parsed("1.5s"), 1'500'000'000);
  EXPECT_EQ(parsed("0.000000001s"), 1);
  EXPECT_EQ(parsed("1.5us"), 1'500);
  EXPECT_EQ(parsed("7.5m"), 450 * kSecond);
  EXPECT_EQ(parsed("0.0001h"), 360 * kMillisecond);
  EXPECT_EQ(parsed("2.50000000000000000000000s"), 2'500'000'000);  // trailing zeros do not count
  EXPECT_EQ(parsed("007s"), 7 * kSecond);
}

TEST(ScenarioDurationTest, RejectsWhatIsNotANumberAndAUnit) {
  for (const std::string_view text : {"", "s", "250", "1.s", ".5s", "+1s", "1e3ms", "1 s", " 1s", "1s ", "1m30s", "1S",
                                      "1sec", "1µs", "1,5s", "never", "--1s"}) {
    EXPECT_EQ(failure(text), DurationError::malformed) << text;
  }
}

TEST(ScenarioDurationTest, RejectsNegativeSubNanosecondAndHugeValues) {
  EXPECT_EQ(failure("-1s"), DurationError::negative);
  EXPECT_EQ(failure("-0.5ms"), DurationError::negative);
  EXPECT_EQ(failure("0.5ns"), DurationError::finer_than_nanosecond);
  EXPECT_EQ(failure("0.0000000001s"), DurationError::finer_than_nanosecond);
  EXPECT_EQ(failure("1.0000000000000000001h"), DurationError::finer_than_nanosecond);
  // kNever is 2^63 - 1 ns, about 292 years = 2562047 h.
  EXPECT_EQ(failure("2562048h"), DurationError::too_large);
  EXPECT_EQ(failure("99999999999999999999ns"), DurationError::too_large);
  EXPECT_EQ(failure("9223372036854775807ns"), DurationError::too_large);  // equals kNever
  EXPECT_EQ(parsed("9223372036854775806ns"), kNever - 1);
  EXPECT_EQ(parsed("2562047h"), 2562047 * kHour);
}

TEST(ScenarioDurationTest, FormatsWithTheLargestExactUnit) {
  EXPECT_EQ(format_duration(0), "0s");
  EXPECT_EQ(format_duration(15 * kMinute), "15m");
  EXPECT_EQ(format_duration(90 * kSecond), "90s");
  EXPECT_EQ(format_duration(1'500 * kMillisecond), "1500ms");
  EXPECT_EQ(format_duration(2 * kHour), "2h");
  EXPECT_EQ(format_duration(1'001), "1001ns");
}

TEST(ScenarioDurationTest, FormatsDeltaSecondsWithAFractionOnlyWhenNeeded) {
  EXPECT_EQ(format_delta_seconds(0), "0");
  EXPECT_EQ(format_delta_seconds(20 * kSecond), "20");
  EXPECT_EQ(format_delta_seconds(500 * kMillisecond), "0.5");
  EXPECT_EQ(format_delta_seconds(1'250 * kMillisecond), "1.25");
  EXPECT_EQ(format_delta_seconds(1), "0.000000001");
}

}  // namespace
}  // namespace squall

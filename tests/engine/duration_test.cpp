#include "engine/runtime/duration.hpp"

#include <gtest/gtest.h>

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

TEST(DurationTest, ParsesEveryUnit) {
  EXPECT_EQ(parsed("7ns"), 7);
  EXPECT_EQ(parsed("7us"), 7 * kMicrosecond);
  EXPECT_EQ(parsed("250ms"), 250 * kMillisecond);
  EXPECT_EQ(parsed("2s"), 2 * kSecond);
  EXPECT_EQ(parsed("15m"), 15 * kMinute);
  EXPECT_EQ(parsed("6h"), 6 * kHour);
  EXPECT_EQ(parsed("0s"), 0);
}

TEST(DurationTest, ConvertsDecimalsExactlyFromTheirDigits) {
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

TEST(DurationTest, ParsesCompoundDurationsAsGoAndK6Do) {
  EXPECT_EQ(parsed("1m30s"), 90 * kSecond);
  EXPECT_EQ(parsed("1h15m"), 75 * kMinute);
  // 2 h + 45 min + 30.5 s = 7200 s + 2700 s + 30.5 s = 9930.5 s.
  EXPECT_EQ(parsed("2h45m30.5s"), 9'930'500 * kMillisecond);
  // Every unit once, in order: 1 h + 1 min + 1 s + 1 ms + 1 us + 1 ns.
  EXPECT_EQ(parsed("1h1m1s1ms1us1ns"), kHour + kMinute + kSecond + kMillisecond + kMicrosecond + 1);
  EXPECT_EQ(parsed("1h30s"), kHour + 30 * kSecond);    // units may be skipped
  EXPECT_EQ(parsed("1.5h30m"), 2 * kHour);             // a fraction in any part
  EXPECT_EQ(parsed("1s500ms"), 1'500 * kMillisecond);  // "ms" is not read as "m" + "s..."
  EXPECT_EQ(parsed("0.1s0.1ms"), 100'100'000);         // each part exact: 10^8 + 10^5 ns
  EXPECT_EQ(parsed("0h0m0s"), 0);
  EXPECT_EQ(parsed("1m090s"), 150 * kSecond);  // a part may exceed the next unit up
}

TEST(DurationTest, RejectsWhatIsNotNumbersWithUnits) {
  for (const std::string_view text : {"", "s", "250", "1.s", ".5s", "+1s", "1e3ms", "1 s", " 1s", "1s ", "1S", "1sec",
                                      "1µs", "1,5s", "never", "--1s", "-", "1m-30s", "1m+30s"}) {
    EXPECT_EQ(failure(text), DurationError::malformed) << text;
  }
}

TEST(DurationTest, RejectsCompoundsOutOfOrderRepeatedOrSpaced) {
  for (const std::string_view text : {"30s1m", "1s1s", "1m1m", "1ms1s", "1ns1us", "1h1h30m", "1m 30s", "1m30", "1m.5s",
                                      "1m30s.", "1m30ss", "1h1m1s1ms1us1ns1ns", "-1s1m"}) {
    EXPECT_EQ(failure(text), DurationError::malformed) << text;
  }
}

TEST(DurationTest, RejectsNegativeSubNanosecondAndHugeValues) {
  EXPECT_EQ(failure("-1s"), DurationError::negative);
  EXPECT_EQ(failure("-0.5ms"), DurationError::negative);
  EXPECT_EQ(failure("-1m30s"), DurationError::negative);
  EXPECT_EQ(failure("0.5ns"), DurationError::finer_than_nanosecond);
  EXPECT_EQ(failure("0.0000000001s"), DurationError::finer_than_nanosecond);
  EXPECT_EQ(failure("1.0000000000000000001h"), DurationError::finer_than_nanosecond);
  // Each part must be whole on its own: 0.5 ns + 0.5 ns would be 1 ns, but neither is.
  EXPECT_EQ(failure("0.0000000005s0.5ns"), DurationError::finer_than_nanosecond);
  EXPECT_EQ(failure("1m0.5ns"), DurationError::finer_than_nanosecond);
  // kNever is 2^63 - 1 ns, about 292 years = 2562047 h.
  EXPECT_EQ(failure("2562048h"), DurationError::too_large);
  EXPECT_EQ(failure("99999999999999999999ns"), DurationError::too_large);
  EXPECT_EQ(failure("9223372036854775807ns"), DurationError::too_large);  // equals kNever
  EXPECT_EQ(parsed("9223372036854775806ns"), kNever - 1);
  EXPECT_EQ(parsed("2562047h"), 2562047 * kHour);
}

TEST(DurationTest, CompoundSumsAreExactUpToTheLargestValue) {
  // kNever = 9223372036.854775807 s; 2562047 h = 9223369200 s, which leaves 2836.854775807 s
  // = 47 min 16.854775807 s.
  EXPECT_EQ(parsed("2562047h47m16.854775806s"), kNever - 1);
  EXPECT_EQ(failure("2562047h47m16.854775807s"), DurationError::too_large);  // equals kNever
  EXPECT_EQ(failure("2562047h48m"), DurationError::too_large);
  // The sum of parts that each fit overflows int64: too large, not wrapped around.
  EXPECT_EQ(failure("2562047h9223372036854775806ns"), DurationError::too_large);
  EXPECT_EQ(failure("1h99999999999999999999ns"), DurationError::too_large);
}

TEST(DurationTest, KnowsItsUnitsAndExplainsItsErrors) {
  for (const std::string_view unit : {"ns", "us", "ms", "s", "m", "h"}) EXPECT_TRUE(is_duration_unit(unit)) << unit;
  for (const std::string_view unit : {"", "d", "sec", "S", "µs", "mss"}) EXPECT_FALSE(is_duration_unit(unit)) << unit;
  EXPECT_EQ(duration_expectation(DurationError::malformed), R"(a duration string such as "250ms")");
  EXPECT_EQ(duration_expectation(DurationError::negative), "a non-negative duration");
  EXPECT_EQ(duration_expectation(DurationError::finer_than_nanosecond), "a whole number of nanoseconds");
  EXPECT_EQ(duration_expectation(DurationError::too_large),
            "a duration shorter than 2562047h47m16.854775807s (int64 nanoseconds)");
}

TEST(DurationTest, FormatsAsGoDoesWithoutZeroParts) {
  EXPECT_EQ(format_duration(0), "0s");
  EXPECT_EQ(format_duration(15 * kMinute), "15m");
  EXPECT_EQ(format_duration(90 * kSecond), "1m30s");
  EXPECT_EQ(format_duration(1'500 * kMillisecond), "1.5s");
  EXPECT_EQ(format_duration(250 * kMillisecond), "250ms");
  EXPECT_EQ(format_duration(1'250 * kMicrosecond), "1.25ms");
  EXPECT_EQ(format_duration(2 * kHour), "2h");
  EXPECT_EQ(format_duration(kHour + 30 * kSecond), "1h30s");
  EXPECT_EQ(format_duration(9'930'500 * kMillisecond), "2h45m30.5s");
  EXPECT_EQ(format_duration(1'001), "1.001us");
  EXPECT_EQ(format_duration(7), "7ns");
  EXPECT_EQ(format_duration(kMinute + 1), "1m0.000000001s");
  EXPECT_EQ(format_duration(kNever - 1), "2562047h47m16.854775806s");
}

TEST(DurationTest, FormattedDurationsParseBackExactly) {
  for (const Nanos d :
       {Nanos{0}, Nanos{1}, Nanos{999}, Nanos{1'001}, 250 * kMillisecond, 1'500 * kMillisecond, 90 * kSecond,
        kHour + kMinute + kSecond + kMillisecond + kMicrosecond + 1, 3 * kHour + 7, kNever - 1}) {
    EXPECT_EQ(parsed(format_duration(d)), d) << format_duration(d);
  }
}

TEST(DurationTest, FormatsDeltaSecondsWithAFractionOnlyWhenNeeded) {
  EXPECT_EQ(format_delta_seconds(0), "0");
  EXPECT_EQ(format_delta_seconds(20 * kSecond), "20");
  EXPECT_EQ(format_delta_seconds(500 * kMillisecond), "0.5");
  EXPECT_EQ(format_delta_seconds(1'250 * kMillisecond), "1.25");
  EXPECT_EQ(format_delta_seconds(1), "0.000000001");
}

}  // namespace
}  // namespace squall

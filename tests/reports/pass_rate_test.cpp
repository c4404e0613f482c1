#include "reports/pass_rate.hpp"

#include <gtest/gtest.h>

#include <string>

namespace squall {
namespace {

PassRateRequirement parsed(std::string_view text) {
  auto result = parse_pass_rate(text);
  if (auto* error = std::get_if<std::string>(&result)) ADD_FAILURE() << *error;
  return std::get<PassRateRequirement>(result);
}

std::string error_of(std::string_view text) {
  auto result = parse_pass_rate(text);
  if (std::holds_alternative<PassRateRequirement>(result)) {
    ADD_FAILURE() << "\"" << text << "\" parsed";
    return "";
  }
  return std::get<std::string>(result);
}

TEST(PassRateTest, Parses) {
  EXPECT_EQ(parsed(">=0.9").op, Comparison::ge);
  EXPECT_DOUBLE_EQ(parsed(">=0.9").rate, 0.9);
  EXPECT_EQ(parsed(" > 0.5 ").op, Comparison::gt);
  EXPECT_DOUBLE_EQ(parsed(">=1").rate, 1.0);
  EXPECT_DOUBLE_EQ(parsed(">=.25").rate, 0.25);
  EXPECT_EQ(to_string(parsed(">= 0.9")), ">=0.9");
  EXPECT_EQ(to_string(parsed(">0.5")), ">0.5");
}

TEST(PassRateTest, RefusesMalformedRequirementsWithExactMessages) {
  const std::string expected =
      "expected a pass rate such as \">=0.9\" (>= or > and a fraction of seeds in [0, 1]), got ";
  EXPECT_EQ(error_of("90%"), expected + "\"90%\"");
  EXPECT_EQ(error_of("0.9"), expected + "\"0.9\"");
  EXPECT_EQ(error_of("<=0.9"), expected + "\"<=0.9\"");
  EXPECT_EQ(error_of(">=high"), expected + "\">=high\"");
  EXPECT_EQ(error_of(">=-0.1"), expected + "\">=-0.1\"");
  EXPECT_EQ(error_of(">=nan"), expected + "\">=nan\"");
  EXPECT_EQ(error_of(""), expected + "\"\"");
  EXPECT_EQ(error_of(">=1.5"), "a pass rate is a fraction of seeds in [0, 1], got 1.5");
  EXPECT_EQ(error_of(">1"), "\">1\" can never be met: a pass rate is at most 1");
}

// 9 of 10 is 0.9 exactly as written: the division and the literal round to the same double.
TEST(PassRateTest, MeetsAtTheBoundary) {
  EXPECT_TRUE(meets(parsed(">=0.9"), 9, 10));
  EXPECT_FALSE(meets(parsed(">=0.9"), 8, 10));
  EXPECT_FALSE(meets(parsed(">0.9"), 9, 10));
  EXPECT_TRUE(meets(parsed(">=0.7"), 7, 10));
  EXPECT_TRUE(meets(PassRateRequirement{}, 8, 8));  // the default: every seed
  EXPECT_FALSE(meets(PassRateRequirement{}, 7, 8));
  EXPECT_TRUE(meets(parsed(">=0"), 0, 8));
}

}  // namespace
}  // namespace squall

#include "reports/fingerprint.hpp"

#include <gtest/gtest.h>

namespace squall {
namespace {

TEST(FingerprintTest, FoldsWordsThroughSplitmix64) {
  Fingerprint f;
  EXPECT_EQ(f.value(), 0U);
  // h = splitmix64(0 ^ 0): splitmix64's first output from state 0, the published
  // reference value 0xe220a8397b1dcdaf.
  f.add_u64(0);
  EXPECT_EQ(f.value(), 0xe220a8397b1dcdafULL);
}

TEST(FingerprintTest, OrderMatters) {
  Fingerprint a;
  a.add_u64(1);
  a.add_u64(2);
  Fingerprint b;
  b.add_u64(2);
  b.add_u64(1);
  EXPECT_NE(a.value(), b.value());
}

TEST(FingerprintTest, TextIsFoldedByContentAndLength) {
  Fingerprint a;
  a.add_text("web_search");
  Fingerprint b;
  b.add_text("web_search");
  Fingerprint c;
  c.add_text("web_searcH");
  EXPECT_EQ(a.value(), b.value());
  EXPECT_NE(a.value(), c.value());
}

TEST(FingerprintTest, HexIsSixteenLowercaseDigits) {
  EXPECT_EQ(fingerprint_hex(0xabcULL), "0000000000000abc");
  EXPECT_EQ(fingerprint_hex(0xe220a8397b1dcdafULL), "e220a8397b1dcdaf");
}

}  // namespace
}  // namespace squall

#include "reports/fingerprint.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

namespace squall {
namespace {

TEST(FingerprintTest, FinalisesTheFoldThroughSplitmix64) {
  Fingerprint f;
  // Nothing folded: h = 0, and value() is splitmix64's first output from state 0, the
  // published reference value 0xe220a8397b1dcdaf.
  EXPECT_EQ(f.value(), 0xe220a8397b1dcdafULL);
  // Folding 0 into 0 gives (rotl(0, 5) ^ 0) * K = 0: the same state, the same value.
  f.add_u64(0);
  EXPECT_EQ(f.value(), 0xe220a8397b1dcdafULL);
}

TEST(FingerprintTest, FoldsWordsAsFxHasher) {
  // From h = 0, folding 1 gives h1 = (rotl(0, 5) ^ 1) * K = K; folding 3 then gives
  // h2 = (rotl(K, 5) ^ 3) * K, and value() is splitmix64's output from state h2.
  constexpr std::uint64_t k = 0x517cc1b727220a95ULL;
  Fingerprint a;
  a.add_u64(1);
  a.add_u64(3);
  std::uint64_t state = ((k << 5 | k >> 59) ^ 3) * k;
  EXPECT_EQ(a.value(), splitmix64(state));
}

TEST(FingerprintTest, OneDifferentWordAlwaysChangesTheValue) {
  // Each fold is a bijection of the state for a fixed word and of the word for a fixed
  // state, so traces differing in exactly one word never collide, even in the high bit.
  Fingerprint base;
  for (std::uint64_t w : {1ULL, 2ULL, 3ULL}) base.add_u64(w);
  for (std::uint64_t flip : {1ULL, 1ULL << 63}) {
    Fingerprint changed;
    changed.add_u64(1);
    changed.add_u64(2 ^ flip);
    changed.add_u64(3);
    EXPECT_NE(changed.value(), base.value());
  }
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

TEST(FingerprintTest, KeptCrcsFoldEveryTextAsItsOwnCrcAndLength) {
  // Each text folds as add_u64(crc64_xz(text)) then add_u64(size), whether its CRC is
  // taken afresh or from a slot: texts repeated, texts too short (7 bytes) and too long
  // (65) to be kept, the longest kept (64), and texts sharing their length and both
  // ends, which map to one slot and differ only inside.
  const std::string kept64(64, 'q');
  const std::string long65(65, 'q');
  const std::vector<std::string> texts{"Acme Corp Series B",
                                       "Acme Corp Series B",
                                       "acme co",
                                       "acme co",
                                       kept64,
                                       long65,
                                       kept64,
                                       "abcdefgh-X-abcdefgh",
                                       "abcdefgh-Y-abcdefgh",
                                       "abcdefgh-X-abcdefgh",
                                       "abcdefgh-Y-abcdefgh",
                                       "Acme Corp Series B",
                                       "12345678",
                                       "12345678"};
  Fingerprint folded;
  std::uint64_t state = 0;
  constexpr std::uint64_t k = 0x517cc1b727220a95ULL;
  for (int round = 0; round < 2; ++round) {
    for (const std::string& text : texts) {
      folded.add_text(text);
      state = (std::rotl(state, 5) ^ crc64_xz(text)) * k;
      state = (std::rotl(state, 5) ^ text.size()) * k;
    }
  }
  EXPECT_EQ(folded.value(), splitmix64(state));
}

TEST(FingerprintTest, HexIsSixteenLowercaseDigits) {
  EXPECT_EQ(fingerprint_hex(0xabcULL), "0000000000000abc");
  EXPECT_EQ(fingerprint_hex(0xe220a8397b1dcdafULL), "e220a8397b1dcdaf");
}

}  // namespace
}  // namespace squall

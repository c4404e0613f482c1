#include "reports/fingerprint.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
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

TEST(FingerprintTest, FieldMultipliersAreSplitmix64OutputsMadeOdd) {
  std::uint64_t state = 0;
  for (const std::uint64_t m : Fingerprint::kFieldMultipliers) EXPECT_EQ(m, splitmix64(state) | 1);
}

TEST(FingerprintTest, AnEventFoldsAsTheSumOfItsFieldsTimesTheirMultipliers) {
  // fold(7, -1, 2.5, "abc", true): E = sum of w_i * M_i over the words 7, 2^64 - 1, bits
  // of 2.5, crc64_xz("abc"), 3, 1; then one FxHasher step from h = 0.
  constexpr std::uint64_t k = 0x517cc1b727220a95ULL;
  const std::vector<std::uint64_t> words{7, ~std::uint64_t{0}, std::bit_cast<std::uint64_t>(2.5), crc64_xz("abc"), 3,
                                         1};
  std::uint64_t event = 0;
  for (std::size_t i = 0; i < words.size(); ++i) event += words[i] * Fingerprint::kFieldMultipliers[i];
  Fingerprint f;
  f.fold(std::uint64_t{7}, std::int32_t{-1}, 2.5, std::string_view("abc"), true);
  std::uint64_t state = event * k;
  EXPECT_EQ(f.value(), splitmix64(state));
}

TEST(FingerprintTest, EventsDifferingInOneFieldOrInFieldOrderDiffer) {
  // E is a bijection of each field for fixed others (its multiplier is odd), so one
  // changed field, in any bit, always changes the value; swapped fields change it too.
  const auto of = [](std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    Fingerprint f;
    f.fold(std::uint64_t{1}, a, b, c);
    return f.value();
  };
  const std::uint64_t base = of(10, 20, 30);
  for (const std::uint64_t flip : {1ULL, 2ULL, 1ULL << 32, 1ULL << 63}) {
    EXPECT_NE(of(10 ^ flip, 20, 30), base);
    EXPECT_NE(of(10, 20 ^ flip, 30), base);
    EXPECT_NE(of(10, 20, 30 ^ flip), base);
  }
  EXPECT_NE(of(20, 10, 30), base);
  EXPECT_NE(of(10, 30, 20), base);
  EXPECT_NE(of(30, 20, 10), base);
  // Small changes in two fields do not cancel: +3 in one and -1 in the next did when the
  // multipliers were odd multiples of one constant.
  for (std::int64_t a = -16; a <= 16; ++a) {
    for (std::int64_t b = -16; b <= 16; ++b) {
      if (a == 0 && b == 0) continue;
      const auto d = [](std::uint64_t x, std::int64_t by) { return x + static_cast<std::uint64_t>(by); };
      EXPECT_NE(of(d(10, a), d(20, b), 30), base) << a << " " << b;
      EXPECT_NE(of(d(10, a), 20, d(30, b)), base) << a << " " << b;
      EXPECT_NE(of(10, d(20, a), d(30, b)), base) << a << " " << b;
    }
  }
  // The same fields as two events, or in other events' order, are other traces.
  Fingerprint one;
  one.fold(std::uint64_t{1}, std::uint64_t{2});
  one.fold(std::uint64_t{3}, std::uint64_t{4});
  Fingerprint swapped;
  swapped.fold(std::uint64_t{3}, std::uint64_t{4});
  swapped.fold(std::uint64_t{1}, std::uint64_t{2});
  EXPECT_NE(one.value(), swapped.value());
}

TEST(FingerprintTest, HexIsSixteenLowercaseDigits) {
  EXPECT_EQ(fingerprint_hex(0xabcULL), "0000000000000abc");
  EXPECT_EQ(fingerprint_hex(0xe220a8397b1dcdafULL), "e220a8397b1dcdaf");
}

}  // namespace
}  // namespace squall

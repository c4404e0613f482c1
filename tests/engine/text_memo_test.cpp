#include "engine/runtime/text_memo.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace squall {
namespace {

TEST(TextMemoTest, ComputesEachTextOnceWhileThereIsRoom) {
  TextMemo<std::string> memo(2);
  int computed = 0;
  const auto upper = [&](std::string_view text) {
    ++computed;
    std::string out(text);
    for (char& c : out) c = static_cast<char>(c - 'a' + 'A');
    return out;
  };
  EXPECT_EQ(memo.get("ab", upper), "AB");
  EXPECT_EQ(memo.get("ab", upper), "AB");
  EXPECT_EQ(memo.get("cd", upper), "CD");
  EXPECT_EQ(computed, 2);
  EXPECT_EQ(memo.size(), 2U);
  // Full: a new text is computed on every call, into the spill slot, and not kept.
  EXPECT_EQ(memo.get("ef", upper), "EF");
  EXPECT_EQ(memo.get("ef", upper), "EF");
  EXPECT_EQ(computed, 4);
  EXPECT_EQ(memo.size(), 2U);
  // Kept values stay where they are.
  const std::string& ab = memo.get("ab", upper);
  EXPECT_TRUE(memo.kept(ab));
  const std::string& gh = memo.get("gh", upper);
  EXPECT_EQ(gh, "GH");
  EXPECT_FALSE(memo.kept(gh));
  EXPECT_EQ(ab, "AB");
  EXPECT_EQ(computed, 5);
}

TEST(TextMemoTest, RecentSlotsNeverAnswerForAnotherText) {
  // Texts of eight bytes or more are looked up in the recent slots first. Texts with the
  // same length and the same first and last eight bytes share a slot; each still gets
  // its own value, computed once.
  TextMemo<std::string> memo;
  std::vector<std::string> asked;
  const auto echo = [&](std::string_view text) {
    asked.emplace_back(text);
    return "value of " + std::string(text);
  };
  const std::string a = "Acme Corp X pricing plans";
  const std::string b = "Acme Corp Y pricing plans";  // same length and ends as a
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(memo.get(a, echo), "value of " + a);
    EXPECT_EQ(memo.get(b, echo), "value of " + b);
    EXPECT_EQ(memo.get("short", echo), "value of short");
  }
  EXPECT_EQ(asked, (std::vector<std::string>{a, b, "short"}));
  // A text equal to a kept one but held elsewhere finds the same value.
  const std::string a_copy(a);
  EXPECT_EQ(&memo.get(a_copy, echo), &memo.get(a, echo));
  memo.clear();
  EXPECT_EQ(memo.get(a, echo), "value of " + a);
  EXPECT_EQ(asked.size(), 4U);
}

TEST(TextMemoTest, CopiesAndMovesKeepTheirOwnValues) {
  // A copy answers from its own entries, never through the original's recent slots; a
  // moved-to memo answers as the source did and the source starts empty.
  int computed = 0;
  const auto tagged = [&](std::string tag) {
    return [&computed, tag](std::string_view text) {
      ++computed;
      return tag + std::string(text);
    };
  };
  TextMemo<std::string> original;
  const std::string text = "a query long enough for a slot";
  EXPECT_EQ(original.get(text, tagged("original: ")), "original: " + text);
  TextMemo<std::string> copy(original);
  const std::string& in_copy = copy.get(text, tagged("copy: "));
  EXPECT_EQ(in_copy, "original: " + text);  // the copied entry
  EXPECT_NE(&in_copy, &original.get(text, tagged("original: ")));
  original.clear();
  EXPECT_EQ(copy.get(text, tagged("copy: ")), "original: " + text);
  TextMemo<std::string> moved(std::move(copy));
  EXPECT_EQ(moved.get(text, tagged("moved: ")), "original: " + text);
  EXPECT_EQ(computed, 1);
  copy = TextMemo<std::string>();
  EXPECT_EQ(copy.get(text, tagged("copy again: ")), "copy again: " + text);
  EXPECT_EQ(computed, 2);
}

}  // namespace
}  // namespace squall

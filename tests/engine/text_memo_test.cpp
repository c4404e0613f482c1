#include "engine/runtime/text_memo.hpp"

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace squall

#include "cli/seed_list.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace squall::cli {
namespace {

std::vector<std::uint64_t> seeds_of(std::string_view text, std::uint64_t first = 7) {
  auto parsed = parse_seed_list(text, first);
  if (auto* error = std::get_if<std::string>(&parsed)) ADD_FAILURE() << *error;
  return std::get<SeedList>(parsed).seeds;
}

std::string error_of(std::string_view text, std::uint64_t first = 7) {
  auto parsed = parse_seed_list(text, first);
  if (std::holds_alternative<SeedList>(parsed)) {
    ADD_FAILURE() << "--seeds " << text << " parsed";
    return "";
  }
  return std::get<std::string>(parsed);
}

TEST(SeedListTest, CountStartsAtTheFirstSeed) {
  EXPECT_EQ(seeds_of("3"), (std::vector<std::uint64_t>{7, 8, 9}));
  EXPECT_TRUE(std::get<SeedList>(parse_seed_list("3", 7)).counted);
  EXPECT_EQ(seeds_of("1", 0), (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(seeds_of("10000").size(), 10000u);
  EXPECT_EQ(seeds_of("1..10000").size(), 10000u);
}

TEST(SeedListTest, ListsAndRanges) {
  EXPECT_EQ(seeds_of("9,1,5"), (std::vector<std::uint64_t>{9, 1, 5}));
  EXPECT_FALSE(std::get<SeedList>(parse_seed_list("9,1", 7)).counted);
  EXPECT_EQ(seeds_of("100..103"), (std::vector<std::uint64_t>{100, 101, 102, 103}));
  EXPECT_EQ(seeds_of("5..5"), (std::vector<std::uint64_t>{5}));
  EXPECT_EQ(seeds_of("18446744073709551614..18446744073709551615"),
            (std::vector<std::uint64_t>{18446744073709551614u, 18446744073709551615u}));
}

TEST(SeedListTest, RefusesBadInputWithExactMessages) {
  EXPECT_EQ(error_of("0"), "--seeds 0: expected at least one seed");
  EXPECT_EQ(error_of("5..3"), "--seeds 5..3: the range's end is below its start");
  EXPECT_EQ(error_of("abc"), "--seeds expects a count (8), a list (1,5,9) or a range (100..107), got \"abc\"");
  EXPECT_EQ(error_of("-3"), "--seeds expects a count (8), a list (1,5,9) or a range (100..107), got \"-3\"");
  EXPECT_EQ(error_of("1,,2"), "--seeds expects a count (8), a list (1,5,9) or a range (100..107), got \"1,,2\"");
  EXPECT_EQ(error_of("1..x"), "--seeds expects a count (8), a list (1,5,9) or a range (100..107), got \"1..x\"");
  EXPECT_EQ(error_of(""), "--seeds expects a count (8), a list (1,5,9) or a range (100..107), got \"\"");
  EXPECT_EQ(error_of("10001"), "--seeds 10001: at most 10000 seeds, got 10001");
  EXPECT_EQ(error_of("1..10001"), "--seeds 1..10001: at most 10000 seeds, got 10001");
  EXPECT_EQ(error_of("0..18446744073709551615"),
            "--seeds 0..18446744073709551615: at most 10000 seeds, got 18446744073709551616");
  EXPECT_EQ(error_of("1,5,1"), "--seeds 1,5,1: seed 1 is listed twice");
  EXPECT_EQ(error_of("8", 18446744073709551610u),
            "--seeds 8: seeds from 18446744073709551610 run past the largest seed, 18446744073709551615");
}

TEST(SeedListTest, ALongListStopsAtTheCap) {
  // Appended piece by piece: GCC 12's -Wrestrict misfires on `"," + std::to_string(i)` at -O3.
  std::string text = "0";
  for (int i = 1; i <= 10000; ++i) {
    text += ',';
    text += std::to_string(i);
  }
  std::string expected = "--seeds ";
  expected += text;
  expected += ": at most 10000 seeds, got 10001";
  EXPECT_EQ(error_of(text), expected);
}

TEST(SeedListTest, DescribesSeedsAsTheyAreWritten) {
  EXPECT_EQ(describe_seeds({7, 8, 9}), "7..9");
  EXPECT_EQ(describe_seeds({5}), "5");
  EXPECT_EQ(describe_seeds({1, 5, 9}), "1,5,9");
  EXPECT_EQ(describe_seeds({1, 2, 3, 4, 5, 6, 7, 8, 10}), "1,2,3,4,5,6,7,8,...");
}

}  // namespace
}  // namespace squall::cli

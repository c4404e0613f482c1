// `squall run --check-determinism` and the comparison behind its message.
#include <gtest/gtest.h>

#include "cli/determinism.hpp"
#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
// A declaration here, so that `squall(...)` means the helper, not the namespace.
using squall::cli::first_difference;
using squall::test_support::squall;

TEST(FirstDifferenceTest, EqualTextsHaveNone) {
  EXPECT_FALSE(first_difference("", ""));
  EXPECT_FALSE(first_difference("a\nb\n", "a\nb\n"));
}

TEST(FirstDifferenceTest, NamesByteLineColumnAndBothLines) {
  const auto d = first_difference("{\n  \"seed\": 7,\n  \"x\": 1\n}\n", "{\n  \"seed\": 8,\n  \"x\": 1\n}\n");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->offset, 12U);
  EXPECT_EQ(d->line, 2U);
  EXPECT_EQ(d->column, 11U);
  EXPECT_EQ(d->first, "  \"seed\": 7,");
  EXPECT_EQ(d->second, "  \"seed\": 8,");
}

TEST(FirstDifferenceTest, APrefixDiffersWhereItEnds) {
  const auto d = first_difference("ab\ncd", "ab\ncdef\n");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->offset, 5U);
  EXPECT_EQ(d->line, 2U);
  EXPECT_EQ(d->column, 3U);
  EXPECT_EQ(d->first, "cd");
  EXPECT_EQ(d->second, "cdef");
  const auto first_char = first_difference("x", "y");
  ASSERT_TRUE(first_char);
  EXPECT_EQ(first_char->offset, 0U);
  EXPECT_EQ(first_char->line, 1U);
  EXPECT_EQ(first_char->column, 1U);
}

TEST(DeterminismMismatchTest, NamesFingerprintsAndTheFirstDifferingLine) {
  squall::Report a;
  a.scenario = "s";
  a.seed = 7;
  a.fingerprint = 0x1;
  squall::Report b = a;
  EXPECT_FALSE(squall::cli::determinism_mismatch(a, b));
  b.seed = 8;
  b.fingerprint = 0x2;
  EXPECT_EQ(squall::cli::determinism_mismatch(a, b),
            "determinism check failed: two runs of the same scenario, policy and seed differ\n"
            "  fingerprints: 0000000000000001 then 0000000000000002\n"
            "  JSON reports first differ at byte 177 (line 10, column 11):\n"
            "    first:    \"seed\": 7,\n"
            "    second:   \"seed\": 8,\n");
  // Equal texts with different fingerprints still differ.
  b = a;
  b.fingerprint = 0x2;
  const auto only_fingerprint = squall::cli::determinism_mismatch(a, b);
  ASSERT_TRUE(only_fingerprint);
  EXPECT_NE(only_fingerprint->find("fingerprints: 0000000000000001 then 0000000000000002\n"), std::string::npos);
}

TEST(CheckDeterminismTest, TwoRunsOfAShippedScenarioAgree) {
  const fs::path dir = temp_path("determinism");
  fs::create_directories(dir);
  const Result r = squall("run scenarios/incidents/openai-outage-model-fallback.json --check-determinism --out " +
                          (dir / "r.json").string());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\ndeterminism: two runs gave identical reports ("), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir / "r.json"));
}

TEST(CheckDeterminismTest, AFailingThresholdIsStillExitOne) {
  const Result r = squall(
      "run scenarios/incidents/launch-surge-429-storm.json --policy scenarios/policies/naive-retry.json "
      "--check-determinism -q");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(r.out.find("determinism"), std::string::npos);  // quiet when they agree
}

}  // namespace

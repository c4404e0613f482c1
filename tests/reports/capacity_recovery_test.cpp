#include "reports/capacity_recovery.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace squall {
namespace {

std::vector<CapacityWindowRow> goodput(const std::vector<std::uint64_t>& per_window) {
  std::vector<CapacityWindowRow> rows;
  for (const std::uint64_t g : per_window) rows.push_back(CapacityWindowRow{g, g});
  return rows;
}

constexpr Nanos kWindow = 10 * kSecond;

TEST(CapacityRecoveryTest, RecoversAtTheEndOfTheFirstWindowBackAtNinetyPercentOfTheBaseline) {
  // Baseline: windows 0-1 end by the drop at 20 s, mean 100. The drop is [20 s, 30 s);
  // window 3 (30-40 s) has 89 < 90, window 4 (40-50 s) has 90: recovered at 50 s, 20 s
  // after the drop's end.
  const auto r =
      capacity_recovery(goodput({100, 100, 0, 89, 90, 100}), kWindow, 20 * kSecond, 30 * kSecond, 60 * kSecond);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->recovered);
  EXPECT_EQ(r->time, 20 * kSecond);
}

TEST(CapacityRecoveryTest, NeverRecoveredIsTheRestOfTheRun) {
  const auto r =
      capacity_recovery(goodput({100, 100, 0, 10, 10, 10}), kWindow, 20 * kSecond, 25 * kSecond, 60 * kSecond);
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->recovered);
  EXPECT_EQ(r->time, 35 * kSecond);
}

TEST(CapacityRecoveryTest, AWindowThatStartsBeforeTheDropEndsIsNotJudged) {
  // The drop ends at 25 s: window 2 (20-30 s) straddles it; the first judged is 30-40 s.
  const auto r = capacity_recovery(goodput({100, 100, 100, 100}), kWindow, 20 * kSecond, 25 * kSecond, 40 * kSecond);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->time, 15 * kSecond);
}

TEST(CapacityRecoveryTest, NoBaselineGivesNone) {
  EXPECT_FALSE(capacity_recovery(goodput({0, 100}), kWindow, 5 * kSecond, 10 * kSecond, 20 * kSecond).has_value());
}

TEST(CapacityRecoveryTest, ADropPastTheEndOfTheRunIsNotRecoveredForTheRestOfTheRun) {
  // The drop starts at 10 s and outlasts the 20 s run (to the end, or to 30 s): not
  // recovered, degraded for the 10 s from its start to the run's end.
  for (const TimePoint to : {kNever, 30 * kSecond, 20 * kSecond}) {
    const auto r = capacity_recovery(goodput({100, 0}), kWindow, 10 * kSecond, to, 20 * kSecond);
    ASSERT_TRUE(r.has_value());
    EXPECT_FALSE(r->recovered);
    EXPECT_EQ(r->time, 10 * kSecond);
  }
}

}  // namespace
}  // namespace squall

#include "sim/arrivals.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace squall {
namespace {

std::vector<TimePoint> all_arrivals(const ArrivalConfig& config, TimePoint end, std::uint64_t seed = 1) {
  ArrivalSchedule schedule(config, end);
  Xoshiro256 rng(seed);
  std::vector<TimePoint> times;
  while (auto t = schedule.next(rng)) times.push_back(*t);
  return times;
}

TEST(ArrivalScheduleTest, ConstantArrivalsStartAtZeroAndAreEvenlySpaced) {
  ArrivalConfig config;
  config.process = ArrivalProcess::constant;
  config.rate_per_s = 4;  // one every 250 ms
  const auto times = all_arrivals(config, seconds(1));
  EXPECT_EQ(times, (std::vector<TimePoint>{0, millis(250), millis(500), millis(750)}));
}

TEST(ArrivalScheduleTest, ConstantArrivalsRoundEachTimeOnceWithoutAccumulating) {
  // 9 per second for 10 s: arrivals at k/9 s for k = 0..89, so 90 of them. Adding a gap
  // rounded to 111,111,111 ns each time would drift 1 ns early per arrival and fit a 91st.
  ArrivalConfig config;
  config.process = ArrivalProcess::constant;
  config.rate_per_s = 9;
  const auto times = all_arrivals(config, seconds(10));
  ASSERT_EQ(times.size(), 90u);
  for (std::size_t k = 0; k < times.size(); ++k) {
    EXPECT_EQ(times[k], std::llround(static_cast<double>(k) * 1e9 / 9)) << k;
  }
  EXPECT_EQ(times[9], seconds(1));
  EXPECT_EQ(times.back(), 9'888'888'889);  // 89/9 s, rounded once
}

TEST(ArrivalScheduleTest, ConstantBurstCountsFromItsOwnStart) {
  // 3 per second inside [1 s, 2 s): the rate integrated to 1 s is 1, so arrivals 1, 2, 3
  // are at 1 s + (k - 1)/3 s, rounded once per arrival; at 2 s it is 4, a whole number, so
  // the base rate's next arrival is exactly at the burst's end.
  ArrivalConfig config;
  config.process = ArrivalProcess::constant;
  config.rate_per_s = 1;
  config.bursts.push_back(Burst{seconds(1), seconds(2), 3});
  EXPECT_EQ(all_arrivals(config, seconds(3)),
            (std::vector<TimePoint>{0, seconds(1), 1'333'333'333, 1'666'666'667, seconds(2)}));
}

TEST(ArrivalScheduleTest, PoissonArrivalsAreExactSumsOfGapsRoundedOnce) {
  // The same draws as the schedule's: each arrival is the exact sum of the exponential
  // gaps since the start, rounded once, not a sum of rounded gaps.
  ArrivalConfig config;
  config.rate_per_s = 7;
  const auto times = all_arrivals(config, seconds(1000), 3);
  Xoshiro256 rng(3);
  double exact = 0;
  for (std::size_t k = 0; k < times.size(); ++k) {
    exact += rng.exponential(1e9 / 7);
    ASSERT_EQ(times[k], std::llround(exact)) << k;
  }
  EXPECT_GT(times.size(), 6000u);
}

TEST(ArrivalScheduleTest, ConstantBurstAlignedWithWholeArrivalsKeepsItsEdges) {
  // 1/s outside, 10/s in [2 s, 2.5 s): arrivals at 0, 1, then 2.0..2.4 every 100 ms; the
  // rate integrated to 2.5 s is 7, so the next arrival is at the burst's end (2.5 s) and the
  // one after at 3.5 s.
  ArrivalConfig config;
  config.process = ArrivalProcess::constant;
  config.rate_per_s = 1;
  config.bursts.push_back(Burst{seconds(2), millis(2500), 10});
  const auto times = all_arrivals(config, seconds(4));
  EXPECT_EQ(times, (std::vector<TimePoint>{0, seconds(1), seconds(2), millis(2100), millis(2200), millis(2300),
                                           millis(2400), millis(2500), millis(3500)}));
}

TEST(ArrivalScheduleTest, ConstantArrivalsKeepTheirPhaseAcrossRateChanges) {
  // 1/s, with 2/s in [0.5 s, 1.5 s). The integrated rate reaches 0.5 at 0.5 s, 2.5 at
  // 1.5 s and 4 at 3 s: arrival k where it reaches k, so 0, 0.75 s, 1.25 s and 2 s, four
  // arrivals for an integral of 4 (restarting the spacing at each change would give five:
  // 0, 0.5, 1, 1.5 and 2.5 s).
  ArrivalConfig config;
  config.process = ArrivalProcess::constant;
  config.rate_per_s = 1;
  config.bursts.push_back(Burst{millis(500), millis(1500), 2});
  EXPECT_EQ(all_arrivals(config, seconds(3)), (std::vector<TimePoint>{0, millis(750), millis(1250), seconds(2)}));
}

TEST(ArrivalScheduleTest, ABurstAtTheBaseRateChangesNothing) {
  // 0.1/s for 100 s is 10 arrivals, 10 s apart, with or without ten 1 s bursts at 0.1/s.
  ArrivalConfig config;
  config.process = ArrivalProcess::constant;
  config.rate_per_s = 0.1;
  const auto plain = all_arrivals(config, seconds(100));
  ASSERT_EQ(plain.size(), 10U);
  for (int i = 0; i < 10; ++i) config.bursts.push_back(Burst{seconds(10 * i + 5), seconds(10 * i + 6), 0.1});
  EXPECT_EQ(all_arrivals(config, seconds(100)), plain);
}

TEST(ArrivalScheduleTest, ConstantCountIsTheIntegratedRateRoundedUp) {
  // 0.9/s for 10 s with 0.5/s in [3 s, 4 s): the integral is 9 * 0.9 + 0.5 = 8.6, so nine
  // arrivals (k = 0..8), matching expected_arrivals rounded up.
  ArrivalConfig config;
  config.process = ArrivalProcess::constant;
  config.rate_per_s = 0.9;
  config.bursts.push_back(Burst{seconds(3), seconds(4), 0.5});
  EXPECT_EQ(all_arrivals(config, seconds(10)).size(), 9U);
  EXPECT_DOUBLE_EQ(expected_arrivals(config, seconds(10)), 8.6);
}

TEST(ArrivalScheduleTest, ZeroRateWindowHasNoArrivals) {
  ArrivalConfig config;
  config.process = ArrivalProcess::constant;
  config.rate_per_s = 2;
  config.bursts.push_back(Burst{seconds(1), seconds(3), 0});
  const auto times = all_arrivals(config, seconds(4));
  EXPECT_EQ(times, (std::vector<TimePoint>{0, millis(500), seconds(3), millis(3500)}));
}

TEST(ArrivalScheduleTest, PoissonCountsMatchRatesInsideAndOutsideBursts) {
  // Counts of a Poisson process over a window of length T at rate r have mean and
  // variance rT; allow 4 standard deviations.
  ArrivalConfig config;
  config.rate_per_s = 5;
  config.bursts.push_back(Burst{seconds(1000), seconds(2000), 20});
  const auto times = all_arrivals(config, seconds(3000), 99);
  double outside = 0;
  double inside = 0;
  for (TimePoint t : times) (t >= seconds(1000) && t < seconds(2000) ? inside : outside) += 1;
  EXPECT_NEAR(outside, 10'000, 4 * std::sqrt(10'000.0));
  EXPECT_NEAR(inside, 20'000, 4 * std::sqrt(20'000.0));
  EXPECT_TRUE(std::is_sorted(times.begin(), times.end()));
  EXPECT_LT(times.back(), seconds(3000));
}

TEST(ArrivalScheduleTest, RateAndNextChangeFollowUnsortedBursts) {
  ArrivalConfig config;
  config.rate_per_s = 1;
  config.bursts.push_back(Burst{seconds(5), seconds(8), 50});  // listed out of order
  config.bursts.push_back(Burst{seconds(0), seconds(2), 5});
  const ArrivalSchedule schedule(config, seconds(20));
  EXPECT_EQ(schedule.rate_at(seconds(1)), 5);
  EXPECT_EQ(schedule.rate_at(seconds(2)), 1);  // bursts are half-open: [from, to)
  EXPECT_EQ(schedule.rate_at(seconds(6)), 50);
  EXPECT_EQ(schedule.rate_at(seconds(9)), 1);
  EXPECT_EQ(schedule.next_change(seconds(1)), seconds(2));
  EXPECT_EQ(schedule.next_change(seconds(3)), seconds(5));
  EXPECT_EQ(schedule.next_change(seconds(5)), seconds(8));
  EXPECT_EQ(schedule.next_change(seconds(8)), kNever);
}

TEST(ArrivalScheduleTest, ExtremeRatesNeitherStallNorOverflow) {
  // A rate so high that the mean gap rounds to 0 ns still advances time by 1 ns per
  // arrival; a rate so low that the gap exceeds int64 saturates to "never".
  ArrivalConfig fast;
  fast.process = ArrivalProcess::constant;
  fast.rate_per_s = 1e12;
  EXPECT_EQ(all_arrivals(fast, 5), (std::vector<TimePoint>{0, 1, 2, 3, 4}));

  ArrivalConfig slow;
  slow.rate_per_s = 1e-300;
  ArrivalSchedule schedule(slow, kNever - 1);
  Xoshiro256 rng(1);
  EXPECT_EQ(schedule.next(rng), std::nullopt);
}

TEST(ArrivalScheduleTest, SameSeedSameArrivals) {
  ArrivalConfig config;
  config.rate_per_s = 3;
  EXPECT_EQ(all_arrivals(config, seconds(100), 5), all_arrivals(config, seconds(100), 5));
  EXPECT_NE(all_arrivals(config, seconds(100), 5), all_arrivals(config, seconds(100), 6));
}

TEST(ExpectedArrivalsTest, IntegratesTheRateOverTheRunClippingBurstsAndCapping) {
  ArrivalConfig c;
  c.rate_per_s = 2;
  // 10 s at 2/s = 20, plus a burst [2 s, 4 s) at 10/s: 2 s * (10 - 2) = 16 more, plus a
  // burst [9 s, 12 s) at 0/s clipped to [9 s, 10 s): 1 s * (0 - 2) = -2. Total 34.
  c.bursts = {Burst{2 * kSecond, 4 * kSecond, 10}, Burst{9 * kSecond, 12 * kSecond, 0}};
  EXPECT_DOUBLE_EQ(expected_arrivals(c, 10 * kSecond), 34);
  // A burst wholly after the run adds nothing.
  c.bursts.push_back(Burst{20 * kSecond, 30 * kSecond, 1000});
  EXPECT_DOUBLE_EQ(expected_arrivals(c, 10 * kSecond), 34);
  c.max_tasks = 30;
  EXPECT_DOUBLE_EQ(expected_arrivals(c, 10 * kSecond), 30);
}

TEST(ExpectedArrivalsTest, MatchesAConstantScheduleExactly) {
  ArrivalConfig c;
  c.process = ArrivalProcess::constant;
  c.rate_per_s = 9;
  c.bursts = {Burst{3 * kSecond, 5 * kSecond, 50}};
  ArrivalSchedule schedule(c, 10 * kSecond);
  FixedRng rng(0);
  int n = 0;
  while (schedule.next(rng)) ++n;
  EXPECT_EQ(n, 8 * 9 + 2 * 50);
  EXPECT_DOUBLE_EQ(expected_arrivals(c, 10 * kSecond), 8 * 9 + 2 * 50);
}

}  // namespace
}  // namespace squall

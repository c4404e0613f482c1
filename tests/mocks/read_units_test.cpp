#include "mocks/read_units.hpp"

#include <gtest/gtest.h>

namespace squall {
namespace {

// Pinecone serverless: 1 RU per GB of namespace, at least 0.25 RU.
TEST(ReadUnitCostTest, FollowsPineconesRule) {
  // 105 records of 1536 float32 dimensions: 645,120 bytes + 30,000 of metadata, far below
  // 0.25 GB, so the minimum, 250 mRU.
  EXPECT_EQ(read_unit_cost_mru(105, 1536, 30'000), 250);
  // 1,000,000 records: 6,144,000,000 bytes + 1e9 of metadata = 7.144 GB -> 7,144 mRU.
  EXPECT_EQ(read_unit_cost_mru(1'000'000, 1536, 1'000'000'000), 7144);
  // Rounded up: 250,000,001 bytes is a little over 0.25 GB -> 251 mRU.
  EXPECT_EQ(read_unit_cost_mru(0, 1536, 250'000'001), 251);
}

// Capacity 1 RU, refill 0.1 RU/s (100 mRU/s), 0.25 RU per query:
//   t = 0:     four queries take 1000 -> 750 -> 500 -> 250 -> 0; the fifth finds 0 and
//              must wait (250 - 0) / 100 mRU/s = 2.5 s
//   t = 2.5 s: 250 refilled: the query runs, the level is 0
//   t = 3 s:   50 refilled: 200 short, 2 s to wait
//   t = 10 s:  50 + 700 = 750
//   t = 1 h:   full again, capped at 1000
TEST(ReadUnitBucketTest, TimelineOfTakesAndWaits) {
  ReadUnitBucket bucket(ReadUnitConfig{1000, 100, std::nullopt}, 250);
  EXPECT_EQ(bucket.level_mru(0), 1000);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(bucket.take(0), std::nullopt) << i;
  EXPECT_EQ(bucket.take(0), std::optional<Nanos>(2'500 * kMillisecond));
  EXPECT_EQ(bucket.take(2'500 * kMillisecond), std::nullopt);
  EXPECT_EQ(bucket.level_mru(2'500 * kMillisecond), 0);
  EXPECT_EQ(bucket.take(3 * kSecond), std::optional<Nanos>(2 * kSecond));
  EXPECT_EQ(bucket.level_mru(10 * kSecond), 750);
  EXPECT_EQ(bucket.level_mru(kHour), 1000);
}

// Sub-nanosecond refill is kept exactly: 1 mRU/s refills 1e-9 mRU per ns.
TEST(ReadUnitBucketTest, SlowRefillIsExact) {
  ReadUnitBucket bucket(ReadUnitConfig{2, 1, std::nullopt}, 2);
  EXPECT_EQ(bucket.take(0), std::nullopt);
  EXPECT_EQ(bucket.take(kSecond), std::optional<Nanos>(kSecond));  // 1 of 2 mRU back
  EXPECT_EQ(bucket.take(2 * kSecond - 1), std::optional<Nanos>(1));
  EXPECT_EQ(bucket.take(2 * kSecond), std::nullopt);
}

// A quota (no refill) never comes back within the run.
TEST(ReadUnitBucketTest, QuotaWithoutRefillWaitsForever) {
  ReadUnitBucket bucket(ReadUnitConfig{500, 0, std::nullopt}, 250);
  EXPECT_EQ(bucket.take(0), std::nullopt);
  EXPECT_EQ(bucket.take(kSecond), std::nullopt);
  EXPECT_EQ(bucket.take(kHour), std::optional<Nanos>(kNever));
}

}  // namespace
}  // namespace squall

// Quota groups (mocks/capacity/quota_group.hpp): members' capacity layers take from one
// shared bucket, so one member's burst is a 429 on the others.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "mocks/capacity/capacity_provider.hpp"
#include "sim/event_loop.hpp"
#include "tests/mocks/support.hpp"

namespace squall {
namespace {

using testing::FakeProvider;
using testing::Finished;

struct Member {
  Member(EventLoop& loop, CapacityConfig config, QuotaBuckets* quota)
      : capacity(std::make_unique<FakeProvider>(loop, loop, 100 * kMillisecond), std::move(config),
                 Body::search_results, loop, loop, CapacitySeriesOptions{kSecond, 1000}, quota) {}
  CapacityProvider capacity;
};

Task<void> call_at(EventLoop& loop, Provider& p, TimePoint at, std::vector<Finished>& out) {
  co_await sleep_until(loop, at);
  Response r = co_await p.call(Request{}, CallOptions{});
  out.push_back(Finished{std::move(r), loop.now()});
}

TEST(QuotaGroupTest, MembersSpendOneBucket) {
  // 60 requests per minute for the group: a full bucket of 60. Member a spends 60 at t = 0;
  // b's first request is then a 429 whose Retry-After is the whole second until one
  // request refills, and its headers show the group's limit (b has none of its own).
  EventLoop loop;
  QuotaGroupConfig config{"key", {"a", "b"}, 60, std::nullopt};
  QuotaBuckets quota(config);
  Member a(loop, CapacityConfig{}, &quota);
  Member b(loop, CapacityConfig{}, &quota);
  std::vector<Finished> from_a;
  std::vector<Finished> from_b;
  std::exception_ptr error;
  for (int i = 0; i < 60; ++i) spawn(call_at(loop, a.capacity, 0, from_a), &error);
  spawn(call_at(loop, b.capacity, 0, from_b), &error);
  spawn(call_at(loop, b.capacity, kSecond, from_b), &error);
  loop.run();
  ASSERT_FALSE(error);
  ASSERT_EQ(from_a.size(), 60U);
  for (const Finished& f : from_a) EXPECT_EQ(f.response.status, 200);
  ASSERT_EQ(from_b.size(), 2U);
  EXPECT_EQ(from_b[0].response.status, 429);
  EXPECT_EQ(from_b[0].response.details().retry_after, "1");
  EXPECT_EQ(from_b[0].response.rate_limit.limit_requests, 60);
  EXPECT_EQ(from_b[0].response.rate_limit.remaining_requests, 0);
  EXPECT_EQ(from_b[1].response.status, 200);  // one request refilled in that second
  EXPECT_EQ(b.capacity.stats().totals().rate_limited_requests, 1);
}

TEST(QuotaGroupTest, AMemberIsLimitedByTheTighterOfItsOwnAndTheGroupsLimit) {
  // The group allows 600 per minute, member a only 2 of its own: its third request at
  // t = 0 is a 429 although the group has room, and its headers show its own limit.
  EventLoop loop;
  QuotaBuckets quota(QuotaGroupConfig{"key", {"a"}, 600, std::nullopt});
  CapacityConfig own;
  own.limits.requests_per_minute = 2;
  Member a(loop, own, &quota);
  std::vector<Finished> out;
  std::exception_ptr error;
  for (int i = 0; i < 3; ++i) spawn(call_at(loop, a.capacity, 0, out), &error);
  loop.run();
  ASSERT_EQ(out.size(), 3U);
  EXPECT_EQ(out[0].response.status, 429);  // answered at once, before the two in service
  EXPECT_EQ(out[0].response.rate_limit.limit_requests, 2);
  EXPECT_EQ(out[1].response.status, 200);
  EXPECT_EQ(out[2].response.status, 200);
  // The group's bucket lost only the two admitted requests.
  EXPECT_EQ(quota.requests.remaining(), 598);
}

TEST(QuotaGroupTest, CountedRejectionsPutTheBucketInDebtAndRetryAfterCoversIt) {
  // 60 per minute (1 per second), rejected requests counted: after 60 admitted at t = 0,
  // 10 more rejected at t = 0 put the bucket 10 requests in debt. A request at 5 s finds 5
  // still owed, adds its own, and is told to wait 7 s: the debt and the request it will
  // send then. Sent exactly then, at 12 s, it is admitted. Uncounted, both are served.
  for (const bool counted : {false, true}) {
    EventLoop loop;
    QuotaGroupConfig config{"key", {"a"}, 60, std::nullopt};
    config.rejected_requests_count = counted;
    QuotaBuckets quota(config);
    Member a(loop, CapacityConfig{}, &quota);
    std::vector<Finished> out;
    std::exception_ptr error;
    for (int i = 0; i < 70; ++i) spawn(call_at(loop, a.capacity, 0, out), &error);
    std::vector<Finished> later;
    spawn(call_at(loop, a.capacity, 5 * kSecond, later), &error);
    spawn(call_at(loop, a.capacity, 12 * kSecond, later), &error);
    loop.run();
    ASSERT_EQ(later.size(), 2U);
    if (counted) {
      EXPECT_EQ(later[0].response.status, 429);
      EXPECT_EQ(later[0].response.details().retry_after, "7");
      EXPECT_EQ(later[0].response.rate_limit.remaining_requests, 0);
    } else {
      EXPECT_EQ(later[0].response.status, 200);
    }
    EXPECT_EQ(later[1].response.status, 200);
  }
}

TEST(QuotaGroupTest, DebtIsBoundedByHalfTheBucket) {
  MinuteBucket bucket(60);
  bucket.take(60);
  for (int i = 0; i < 1000; ++i) bucket.charge(1);
  // -30 requests at most: a request waits for 31 of them, 31 s at 1 per second.
  EXPECT_EQ(bucket.wait_for(1, 0), 31 * kSecond);
  EXPECT_EQ(bucket.remaining(), 0);
}

}  // namespace
}  // namespace squall

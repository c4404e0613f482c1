// MinuteBucket: a rate limit of N per minute as a token bucket, in exact integer virtual
// time: it holds at most N, starts full, and refills continuously at N per minute. This is
// the algorithm Anthropic documents for its limits ("We use the token bucket algorithm ...
// your capacity is continuously replenished up to your maximum limit, rather than being
// reset at fixed intervals", docs.anthropic.com/en/api/rate-limits), and the reading of
// OpenAI's per-minute limits that its x-ratelimit-reset-* headers give (the time until the
// bucket is full again).
//
// State: the level is kept in units of 1/kMinute (one unit = 60e9 sub-units), so N per
// minute refills exactly N sub-units per nanosecond. With N <= 1e8 (the loader's bound)
// the level stays below 6e18, inside int64.
//
// The limit can change at a given time (a capacity drop): the bucket first refills to that
// time at the old rate, then keeps its level, capped at the new size. A bucket without a
// limit admits everything; one that gains a limit starts full.
#pragma once

#include <cstdint>
#include <optional>

#include "engine/runtime/time.hpp"

namespace squall {

class MinuteBucket {
 public:
  explicit MinuteBucket(std::optional<std::int64_t> limit) { set_limit(limit, 0); }

  // Changes the limit at `now` (not before the previous call's `now`); see the file comment.
  void set_limit(std::optional<std::int64_t> limit, TimePoint now);
  std::optional<std::int64_t> limit() const { return limit_; }

  // How long after `now` the bucket will hold `cost` units: 0 when it holds them now,
  // kNever when it never will (cost above the limit). Refills to `now`.
  Nanos wait_for(std::int64_t cost, TimePoint now);
  // Takes `cost` units; call right after wait_for(cost, now) returned 0.
  void take(std::int64_t cost);
  // Takes `cost` units whether the bucket holds them or not, for a request the limit
  // rejected but counts (QuotaGroupConfig::rejected_requests_count): the level may go into
  // debt, which refills like any shortfall, down to half the bucket (so that the exact
  // integer state stays inside int64: a level in [-limit * 30e9, limit * 60e9]).
  void charge(std::int64_t cost);
  // Whole units the bucket holds (after the last refill), 0 in debt; -1 without a limit.
  std::int64_t remaining() const;
  // How long until the bucket is full again (after the last refill); 0 without a limit.
  Nanos until_full() const;

 private:
  void refill(TimePoint now);

  std::optional<std::int64_t> limit_;
  std::int64_t level_ = 0;  // in sub-units, see the file comment
  TimePoint last_ = 0;
};

}  // namespace squall

// ReadUnitBucket: the read-unit budget of a vector index, a token bucket in thousandths of
// a read unit (mRU) refilled continuously in integer virtual time.
//
// Vector databases meter reads in units and answer 429 when they run out: Pinecone
// serverless limits each index to a number of read units per second (2,000 on its Standard
// plan, "Database limits") and blocks the Starter plan's reads once its monthly read units
// are spent. The bucket models both: `capacity` is the burst (or the quota), `refill` the
// sustained rate (0 for a quota that does not refill within the run).
//
// State is exact: the level is kept in mRU * 1e9, so that `refill_mru_per_s` mRU per
// second adds exactly `refill_mru_per_s` units per nanosecond. Bounds (the loader's):
// capacity and refill at most 1e9 mRU (1e6 RU), so the level stays below 1e18.
#pragma once

#include <cstdint>
#include <optional>

#include "engine/runtime/time.hpp"

namespace squall {

struct ReadUnitConfig {
  std::int64_t capacity_mru = 0;      // the bucket's size; it starts full
  std::int64_t refill_mru_per_s = 0;  // added per second, up to the capacity
  // What one query costs. Default: Pinecone serverless's rule (read_unit_cost_mru).
  std::optional<std::int64_t> per_query_mru;
};

// Pinecone serverless's query cost ("Understanding cost", docs.pinecone.io/guides/
// organizations/manage-cost/understanding-cost: a query uses 1 RU per GB of namespace
// size, at least 0.25 RU), with the namespace's size taken as its records'
// dense vectors of `dimension` float32 values plus their metadata (`metadata_bytes` in
// all). In mRU, rounded up.
std::int64_t read_unit_cost_mru(std::uint64_t records, std::uint64_t dimension, std::uint64_t metadata_bytes);

class ReadUnitBucket {
 public:
  explicit ReadUnitBucket(const ReadUnitConfig& config, std::int64_t per_query_mru);

  // Takes one query's units at `now` (not before the previous call's `now`) when the
  // bucket holds them and returns nullopt; otherwise takes nothing and returns how long
  // until it will hold them (kNever when it does not refill).
  std::optional<Nanos> take(TimePoint now);

  std::int64_t per_query_mru() const { return per_query_mru_; }
  // The level after refilling to `now`, in mRU rounded down (for tests and reports).
  std::int64_t level_mru(TimePoint now);

 private:
  void refill(TimePoint now);

  std::int64_t capacity_;  // in mRU * 1e9
  std::int64_t refill_;    // units per ns: mRU per s
  std::int64_t cost_;      // in mRU * 1e9
  std::int64_t per_query_mru_;
  std::int64_t level_;  // in mRU * 1e9
  TimePoint last_ = 0;
};

}  // namespace squall

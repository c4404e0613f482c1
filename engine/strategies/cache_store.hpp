// CacheStore: the cache strategy's entries (engine/strategies/cache.hpp), bounded by a
// count and evicted least recently used first.
//
// Entries live in a std::map ordered by key (CacheKeyLess), so nothing about them depends
// on addresses or hashing, and are threaded through an intrusive list in the order of
// their last use (engine/runtime/intrusive_list.hpp): the front is the least recently
// used. Lookup is O(log n) and allocates nothing; put() of a new key into a full store
// evicts the front and reuses its map node and key storage (std::map::extract), so a full
// store, the steady state of a long run, allocates nothing for an insert either beyond a
// copy of the response it keeps.
//
// Time is the caller's: the store keeps each entry's stored_at and fresh_until and never
// reads a clock; the strategy decides what is fresh, stale or useless.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

#include "engine/call.hpp"
#include "engine/runtime/intrusive_list.hpp"
#include "engine/runtime/time.hpp"
#include "engine/strategies/cache_key.hpp"

namespace squall {

class CacheStore {
 public:
  // What an entry knows besides its answer.
  struct EntryInfo {
    TimePoint stored_at = 0;         // when the answer arrived; its age is now - stored_at
    TimePoint fresh_until = 0;       // stored_at + its TTL: fresh while now < fresh_until
    std::int32_t attempts = 0;       // provider attempts the call that got it made
    std::uint32_t degradations = 0;  // Degradation bits that call added to its task
  };
  struct Entry : IntrusiveListNode<Entry> {
    Outcome outcome;  // the answer kept (success, or empty with negative caching)
    EntryInfo info;
    const CacheKey* key = nullptr;  // the map node's key, set by put()
  };

  // `max_entries` >= 1.
  explicit CacheStore(std::size_t max_entries);
  CacheStore(const CacheStore&) = delete;
  CacheStore& operator=(const CacheStore&) = delete;

  // The entry under `key`, or null. Does not change the use order.
  Entry* find(const CacheKeyView& key);
  // Marks `entry` the most recently used.
  void touch(Entry& entry);
  // Stores a copy of `outcome` with `info` under `key`, replacing an entry already there,
  // as the most recently used. Returns true when it evicted the least recently used entry
  // to make room.
  bool put(const CacheKeyView& key, const Outcome& outcome, const EntryInfo& info);
  void erase(Entry& entry);

  std::size_t size() const { return entries_.size(); }
  std::size_t max_entries() const { return max_entries_; }

 private:
  using Map = std::map<CacheKey, Entry, CacheKeyLess>;

  std::size_t max_entries_;
  Map entries_;
  IntrusiveList<Entry> lru_;  // least recently used first
};

}  // namespace squall

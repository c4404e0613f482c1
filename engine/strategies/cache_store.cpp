#include "engine/strategies/cache_store.hpp"

#include <cassert>
#include <utility>

namespace squall {

CacheStore::CacheStore(std::size_t max_entries) : max_entries_(max_entries) { assert(max_entries_ >= 1); }

CacheStore::Entry* CacheStore::find(const CacheKeyView& key) {
  const auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

void CacheStore::touch(Entry& entry) {
  lru_.remove(entry);
  lru_.push_back(entry);
}

bool CacheStore::put(const CacheKeyView& key, const Outcome& outcome, const EntryInfo& info) {
  if (Entry* existing = find(key)) {
    existing->outcome = outcome;
    existing->info = info;
    touch(*existing);
    return false;
  }
  bool evicted = false;
  Map::iterator it;
  if (entries_.size() >= max_entries_) {
    // Recycle the least recently used entry's node: its key storage and its response's
    // result vector keep their capacity.
    Entry& oldest = *lru_.front();
    lru_.remove(oldest);
    auto node = entries_.extract(entries_.find(*oldest.key));
    node.key().assign(key);
    it = entries_.insert(std::move(node)).position;
    evicted = true;
  } else {
    it = entries_.try_emplace(CacheKey(key)).first;
  }
  Entry& entry = it->second;
  entry.outcome = outcome;  // a recycled entry's result vector keeps its capacity
  entry.info = info;
  entry.key = &it->first;
  lru_.push_back(entry);
  return evicted;
}

void CacheStore::erase(Entry& entry) {
  lru_.remove(entry);
  entries_.erase(*entry.key);
}

}  // namespace squall

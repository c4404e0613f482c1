// SearchResultsStore: where a search provider keeps the hit lists it answers with, so that
// a Response holds a view of its hits (Response::results, engine/call.hpp) rather than a
// vector of its own.
//
// Every call in flight holds its Response from the moment the provider decided it, and
// a vector of hits was a heap block per search answer (an 80-byte block for one hit),
// allocated, copied into every cache entry and freed on every answer. The hits a mock
// returns depend only on what the query matched (a corpus's documents, their scores), so
// a run answers with few distinct lists, again and again: each is kept once, at an
// address that never moves, and every Response that carries it points to it.
//
// Two lists are the same list when they are the same views, hit for hit (the same
// corpus text at the same address), with the same token counts and scores: a search
// mock's hits are views into its corpus, so equal answers are equal in this sense. The
// store grows with the distinct lists a run's queries get (bounded by its queries, their
// simplified and rewritten forms, and the corpus), never with its number of calls.
#pragma once

#include <cstddef>
#include <span>
#include <unordered_set>
#include <vector>

#include "engine/call.hpp"

namespace squall {

class SearchResultsStore {
 public:
  // The kept copy of `hits`, which stays where it is for the store's lifetime; empty for
  // no hits. The views' own storage (the corpus) must outlive the store.
  std::span<const SearchResult> keep(const std::vector<SearchResult>& hits);
  std::size_t size() const { return kept_.size(); }

 private:
  struct Hash {
    std::size_t operator()(const std::vector<SearchResult>& hits) const;
  };
  struct SameViews {
    bool operator()(const std::vector<SearchResult>& a, const std::vector<SearchResult>& b) const;
  };
  // Elements of an unordered_set never move (rehashing relinks nodes), nor do their
  // vectors' buffers.
  std::unordered_set<std::vector<SearchResult>, Hash, SameViews> kept_;
  const std::vector<SearchResult>* last_ = nullptr;  // the list keep() returned last
};

}  // namespace squall

// CacheKey: what makes two search requests the same request for the cache
// (engine/strategies/cache.hpp).
//
// The key is the request's query, normalised as engine/text.hpp's append_normalized does
// (ASCII lower case; every run of ASCII whitespace one space; no leading or trailing
// space), together with the request's search parameters: Request::top_k, min_score and
// mode. Two requests with the same key get the same answer from a search provider:
// web search matches words and phrases case-insensitively and whatever their spacing
// (mocks/query_matcher.hpp), and a vector search's answer depends on nothing else
// (mocks/vector_search.hpp). Nothing coarser is folded: punctuation, quotes and word
// order stay, since they change a search engine's answer ("\"acme corp\"" is a phrase,
// "acme corp" two words), and non-ASCII text is compared byte for byte.
//
// min_score is compared by its bit pattern, which is a total order even for values a
// `<` on doubles leaves unordered (NaN); 0.0 and -0.0 are then two keys, which costs at
// most a miss, never a wrong answer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/call.hpp"

namespace squall {

// A key whose query it does not own, for lookups that must not allocate.
struct CacheKeyView {
  std::string_view query;  // normalised
  std::int32_t top_k = 0;
  std::uint64_t min_score_bits = 0;
  SearchMode mode = SearchMode::dense;
};

struct CacheKey {
  std::string query;  // normalised
  std::int32_t top_k = 0;
  std::uint64_t min_score_bits = 0;
  SearchMode mode = SearchMode::dense;

  CacheKeyView view() const { return {query, top_k, min_score_bits, mode}; }
  explicit CacheKey(const CacheKeyView& v)
      : query(v.query), top_k(v.top_k), min_score_bits(v.min_score_bits), mode(v.mode) {}
  // Reuses the query's capacity (an evicted entry's key becomes the new entry's).
  void assign(const CacheKeyView& v);
};

// `request`'s key. Its query is written into `scratch` (cleared first, its capacity kept),
// which the view points into.
CacheKeyView cache_key_of(const Request& request, std::string& scratch);

// Strict weak order over keys and views, for ordered (std::map) lookups by either: a
// deterministic order that no address or hash enters.
struct CacheKeyLess {
  using is_transparent = void;
  bool operator()(const CacheKeyView& a, const CacheKeyView& b) const;
  bool operator()(const CacheKey& a, const CacheKey& b) const { return (*this)(a.view(), b.view()); }
  bool operator()(const CacheKey& a, const CacheKeyView& b) const { return (*this)(a.view(), b); }
  bool operator()(const CacheKeyView& a, const CacheKey& b) const { return (*this)(a, b.view()); }
};

}  // namespace squall
